package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/source"
)

// documentSuffixes name the files of a directory that validate reads as
// documents: YAML (a node document, a cloud-config), a kernel command line
// (.cmdline) and a boot loader's script (each source.Loader's suffixes:
// .cfg as grub.cfg, ...). A cloud-init user-data file has no suffix of its
// own; it is read by its name.
var documentSuffixes = append([]string{".yaml", ".yml", ".cmdline"}, source.LoaderSuffixes()...)

// isDocumentName says whether a directory's entry is read as a document.
func isDocumentName(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false // an editor's swap file, a VCS's own
	}
	return name == "user-data" || slices.ContainsFunc(documentSuffixes, func(s string) bool { return strings.HasSuffix(name, s) })
}

// expandDirs replaces each directory among files by the documents in it
// (isDocumentName; not its subdirectories), in sorted order, so a fleet's
// repository is validated by naming its directory. Those it found are in
// found: they are read only when they are regular files (readFoundInput), since
// reading anything else standing under a document's name (a named pipe, a
// socket, a device, a link to nothing) could block or never end, and what
// is not read is named with why (notReadError), never passed over in
// silence. Nothing is looked at here: the check is made on the file
// opened, so what is read is what was checked. A directory without a
// document is an error: it was named to say something.
func expandDirs(files []string) (out []string, found map[string]bool, err error) {
	out = make([]string, 0, len(files))
	found = map[string]bool{}
	for _, f := range files {
		info, err := os.Stat(f)
		if f == "-" || err != nil || !info.IsDir() {
			out = append(out, f) // read, and refused if need be, as a file
			continue
		}
		entries, err := os.ReadDir(f)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, nil, fmt.Errorf("reading the directory %s: %w", f, err)
		}
		n := len(out)
		for _, e := range entries { // ReadDir sorts by name
			if isDocumentName(e.Name()) {
				p := filepath.Join(f, e.Name())
				out, found[p] = append(out, p), true
			}
		}
		if len(out) == n {
			return nil, nil, fmt.Errorf("the directory %s holds no document (files named *%s or user-data)", f, strings.Join(documentSuffixes, ", *"))
		}
	}
	return out, found, nil
}

// read reads file as it was given: named by the person (readInput), or
// found by listing a directory (readFoundInput).
func (c checks) read(file string) ([]byte, string, error) {
	if c.found[file] {
		return readFoundInput(file)
	}
	return readInput(file)
}

// readFoundInput reads a document expandDirs found, only when it is a
// regular file: anything else is a *notReadError, not read.
func readFoundInput(file string) (data []byte, name string, err error) {
	data, err = rootfs.ReadFound(file, maxDocument)
	var nr *rootfs.NotRegularError
	if errors.As(err, &nr) {
		return nil, file, &notReadError{path: file, what: nr.Type}
	}
	if err != nil {
		return nil, file, fmt.Errorf("reading %s: %w", file, readCause(err))
	}
	return data, file, nil
}

// notReadError is an entry of a directory that the agent found and did not
// read, and what it is (rootfs.NotRegularError's Type): it is reported as
// a file that cannot be read is, the path first.
type notReadError struct{ path, what string }

func (e *notReadError) Error() string {
	what := e.what
	if what == "a directory" {
		what += " (validate does not descend into one)"
	}
	return fmt.Sprintf("%s: not read: it is %s, and validate reads a directory's regular files only (reading anything else could block or never end)", e.path, what)
}

// setAside takes out of reports (and files, kept in step) those of entries
// not read (notReadError): the set is checked without them, and they are
// named after it, as a file that cannot be read is.
func setAside(files []string, reports []validateReport) ([]string, []validateReport, []validateReport) {
	var keptFiles []string
	var kept, aside []validateReport
	for i, r := range reports {
		if r.notRead {
			aside = append(aside, r)
			continue
		}
		keptFiles, kept = append(keptFiles, files[i]), append(kept, r)
	}
	return keptFiles, kept, aside
}
