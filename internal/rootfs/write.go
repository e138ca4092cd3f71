package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"
)

// Change says what a write did.
type Change string

const (
	Created   Change = "created"
	Changed   Change = "changed"
	Unchanged Change = "unchanged"
)

// Compare tells what WriteFile would do, without writing. A link at p is
// not followed: WriteFile would replace it, so it is a change.
func (r Root) Compare(p string, content []byte, mode fs.FileMode) (Change, error) {
	d, base, err := r.parent("open", p)
	if isNotExist(err) {
		return Created, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", node(p), bare(err))
	}
	defer d.Close()
	return compareAt(p, d, base, content, mode)
}

func compareAt(p string, d *os.File, base string, content []byte, mode fs.FileMode) (Change, error) {
	h, err := leafAt("open", p, d, base)
	if isNotExist(err) {
		return Created, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", node(p), bare(err))
	}
	defer h.Close()
	info, err := h.Stat()
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", node(p), cause(err))
	}
	if !info.Mode().IsRegular() || info.Mode().Perm() != mode.Perm() || info.Size() != int64(len(content)) {
		return Changed, nil
	}
	// The handle is the inode just checked; reopening it reads that file even
	// if the name was swapped meanwhile.
	f, err := pathrs.Reopen(h, unix.O_RDONLY)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", node(p), cause(err))
	}
	defer f.Close()
	old, err := readAll(f, p)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", node(p), bare(err))
	}
	if bytes.Equal(old, content) {
		return Unchanged, nil
	}
	return Changed, nil
}

// WriteFile writes content to the node path p with mode, atomically, creating
// missing parent directories (the one holding p with dirMode, those above it
// 0755). An identical file is left alone. A link at p is replaced, never
// written through.
func (r Root) WriteFile(p string, content []byte, mode, dirMode fs.FileMode) (Change, error) {
	change, err := r.Compare(p, content, mode)
	if err != nil || change == Unchanged {
		return change, err
	}
	dir, base := split(p)
	if base == "." {
		return "", fmt.Errorf("writing %s: the root is a directory; name a file under it", node(p))
	}
	d, err := r.mkdirAll(dir, dirMode)
	if err != nil {
		return "", err
	}
	defer d.Close()
	if err := replaceAt(d, base, content, mode); err != nil {
		return "", fmt.Errorf("writing %s: %w", node(p), err)
	}
	return change, nil
}

// replaceAt writes a temp file beside base in d, then renames it over base,
// all through d: the directory is resolved once, inside the root, and no
// path is looked up again on the host.
func replaceAt(d *os.File, base string, content []byte, mode fs.FileMode) error {
	prefix := "." + base + ".tmp-"
	removeStale(d, prefix)
	tmp, f, err := createTemp(d, prefix)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			_ = unix.Unlinkat(fd(d), tmp, 0)
		}
	}()
	if err := writeSynced(f, content, mode); err != nil {
		return err
	}
	failpoint()
	if err := unix.Renameat(fd(d), tmp, fd(d), base); err != nil {
		return cause(err)
	}
	renamed = true
	failpoint()
	return cause(d.Sync())
}

// createTemp makes a new file in d, O_EXCL and O_NOFOLLOW so that a name
// planted there (a link, a FIFO) is never opened.
func createTemp(d *os.File, prefix string) (string, *os.File, error) {
	for range 100 {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		nfd, err := unix.Openat(fd(d), name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return "", nil, cause(err)
		}
		return name, os.NewFile(uintptr(nfd), name), nil
	}
	return "", nil, errors.New("no free temp file name after 100 tries")
}

func writeSynced(f *os.File, content []byte, mode fs.FileMode) error {
	defer f.Close()
	// Chmod before any byte lands, so a secret is never readable by others,
	// not even for the life of the temp file.
	if err := f.Chmod(mode.Perm()); err != nil {
		return cause(err)
	}
	if _, err := f.Write(content); err != nil {
		return cause(err)
	}
	if err := f.Sync(); err != nil {
		return cause(err)
	}
	return cause(f.Close())
}

// removeStale deletes temp files an interrupted earlier write left beside the
// target (a crash between write and rename), so a re-run leaves the same tree
// as an uninterrupted run. One agent writes a path at a time, so no live
// writer's temp file is ever among them.
func removeStale(d *os.File, prefix string) {
	entries, err := readDir(d)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			_ = unix.Unlinkat(fd(d), e.Name(), 0)
		}
	}
}

// readDir lists d through a descriptor of its own, so d's offset is not
// moved for later readers.
func readDir(d *os.File) ([]fs.DirEntry, error) {
	nfd, err := unix.Openat(fd(d), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(nfd), ".")
	defer f.Close()
	return f.ReadDir(-1)
}

// Remove deletes the node path if present: a file or a link itself (never
// what it points at), or an empty directory, like os.Remove.
func (r Root) Remove(p string) (bool, error) {
	failpoint()
	d, base, err := r.parent("remove", p)
	if isNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("removing %s: %w", node(p), bare(err))
	}
	defer d.Close()
	err = unix.Unlinkat(fd(d), base, 0)
	if err == nil {
		return true, syncRemoval(d, p)
	}
	rmErr := unix.Unlinkat(fd(d), base, unix.AT_REMOVEDIR)
	if rmErr == nil {
		return true, syncRemoval(d, p)
	}
	if !errors.Is(rmErr, unix.ENOTDIR) {
		err = rmErr
	}
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	return false, fmt.Errorf("removing %s: %w", node(p), cause(err))
}

// syncRemoval makes a removal survive a power cut, as a write's rename
// does: the directory that held p is synced.
func syncRemoval(d *os.File, p string) error {
	// d is a path handle, which cannot be synced: the directory it holds
	// is opened through it, never looked up again by name.
	dir, err := pathrs.Reopen(d, unix.O_RDONLY|unix.O_DIRECTORY)
	if err == nil {
		err = dir.Sync()
		dir.Close()
	}
	if err != nil {
		return fmt.Errorf("removing %s: %w", node(p), cause(err))
	}
	return nil
}

// bare is a *fs.PathError's cause: the messages built here name the node
// path once, in their own words.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
