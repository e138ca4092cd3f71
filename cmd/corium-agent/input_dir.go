package main

import (
	"errors"
	"fmt"
	"io/fs"
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
// repository is validated by naming its directory. An entry with a
// document's name that is no regular file (a named pipe, a socket, a
// device, a link to nothing, a directory) is not read, since reading it
// could block or never end, and is named in unread with why, never passed
// over in silence. A directory without a document is an error: it was
// named to say something.
func expandDirs(files []string) (out []string, unread []unreadEntry, err error) {
	out = make([]string, 0, len(files))
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
		n, u := len(out), len(unread)
		for _, e := range entries { // ReadDir sorts by name
			if !isDocumentName(e.Name()) {
				continue
			}
			p := filepath.Join(f, e.Name())
			// A link to a file counts.
			if why := notRegular(p); why != "" {
				unread = append(unread, unreadEntry{p, fmt.Sprintf("%s: not read: it is %s, and validate reads a directory's regular files only (reading anything else could block or never end)", p, why)})
				continue
			}
			out = append(out, p)
		}
		if len(out) == n && len(unread) == u {
			return nil, nil, fmt.Errorf("the directory %s holds no document (files named *%s or user-data)", f, strings.Join(documentSuffixes, ", *"))
		}
	}
	return out, unread, nil
}

// unreadEntry is an entry of a directory validate did not read, and why
// (the path first).
type unreadEntry struct{ path, why string }

// notRegular says what p is when it is no regular file (after links),
// "" when it is one.
func notRegular(p string) string {
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "a symbolic link to nothing"
	case err != nil:
		return "an entry whose type cannot be read"
	}
	switch m := info.Mode(); {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory (validate does not descend into one)"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
