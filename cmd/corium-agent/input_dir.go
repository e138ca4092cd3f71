package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
// repository is validated by naming its directory. A directory without a
// document is an error: it was named to say something.
func expandDirs(files []string) ([]string, error) {
	out := make([]string, 0, len(files))
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
			return nil, fmt.Errorf("reading the directory %s: %w", f, err)
		}
		n := len(out)
		for _, e := range entries { // ReadDir sorts by name
			p := filepath.Join(f, e.Name())
			// A link to a file counts; a subdirectory does not.
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && isDocumentName(e.Name()) {
				out = append(out, p)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("the directory %s holds no document (files named *%s or user-data)", f, strings.Join(documentSuffixes, ", *"))
		}
	}
	return out, nil
}
