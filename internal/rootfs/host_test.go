package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// within runs read and fails the test when it has not returned in 5s. A
// read left blocked on a FIFO is then given a writer that goes away at
// once, so the test binary does not hang behind it.
func within(t *testing.T, what, fifo string, read func() ([]byte, error)) ([]byte, error) {
	t.Helper()
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() { b, err := read(); done <- result{b, err} }()
	select {
	case r := <-done:
		return r.b, r.err
	case <-time.After(5 * time.Second):
		if fifo != "" {
			if fd, err := unix.Open(fifo, unix.O_RDWR|unix.O_NONBLOCK, 0); err == nil {
				unix.Close(fd)
			}
		}
		t.Fatalf("%s blocked", what)
		return nil, nil
	}
}

// What the agent finds in a directory is read only when it is a regular
// file, the check made on the file opened: a FIFO is refused at once (no
// writer is ever waited for), a link to /dev/zero is refused before a byte
// is read, and each says what it is; a regular file, through a link too,
// is read.
func TestReadFoundReadsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	mustT(t, unix.Mkfifo(filepath.Join(dir, "fifo.json"), 0o600))
	mustT(t, unix.Mknod(filepath.Join(dir, "sock.json"), unix.S_IFSOCK|0o600, 0))
	mustT(t, os.Mkdir(filepath.Join(dir, "dir.json"), 0o755))
	mustT(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")))
	mustT(t, os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling.json")))
	mustT(t, os.WriteFile(filepath.Join(dir, "real"), []byte("{}"), 0o600))
	mustT(t, os.Symlink("real", filepath.Join(dir, "link.json")))
	for name, want := range map[string]string{
		"fifo.json":     "is a named pipe (FIFO), not a regular file",
		"sock.json":     "is a socket, not a regular file",
		"dir.json":      "is a directory",
		"zero.json":     "is a character device, not a regular file",
		"dangling.json": "is a symbolic link to nothing, not a regular file",
	} {
		p := filepath.Join(dir, name)
		_, err := within(t, "ReadFound("+name+")", p, func() ([]byte, error) { return ReadFound(p, 1<<20) })
		if !errors.Is(err, ErrNotRegular) || err.Error() != "open "+p+": "+want {
			t.Errorf("ReadFound(%s) = %v; want open %s: %s", name, err, p, want)
		}
	}
	if b, err := ReadFound(filepath.Join(dir, "link.json"), 1<<20); err != nil || string(b) != "{}" {
		t.Errorf("a link to a regular file: %q, %v", b, err)
	}
}

// A file a person names may be a pipe (validate <(…) names /dev/fd/63):
// it is read. And every read is bounded: limit bytes are read, one more is
// refused with the bound named, and /dev/zero ends.
func TestReadNamedReadsPipesAndEveryReadIsBounded(t *testing.T) {
	r, w, err := os.Pipe()
	mustT(t, err)
	defer r.Close()
	go func() {
		_, _ = w.Write([]byte("role: single\n"))
		w.Close()
	}()
	p := fmt.Sprintf("/dev/fd/%d", r.Fd())
	b, err := within(t, "ReadNamed("+p+")", "", func() ([]byte, error) { return ReadNamed(p, 1<<20) })
	if err != nil || string(b) != "role: single\n" {
		t.Errorf("ReadNamed of a pipe = %q, %v", b, err)
	}

	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	mustT(t, os.WriteFile(exact, bytes.Repeat([]byte("x"), 1024), 0o600))
	over := filepath.Join(dir, "over")
	mustT(t, os.WriteFile(over, bytes.Repeat([]byte("x"), 1025), 0o600))
	for _, read := range []func(string, int64) ([]byte, error){ReadNamed, ReadFound} {
		if b, err := read(exact, 1024); err != nil || len(b) != 1024 {
			t.Errorf("a file of exactly the bound: %d bytes, %v", len(b), err)
		}
		if _, err := read(over, 1024); !errors.Is(err, ErrTooLarge) || err.Error() != "read "+over+": holds more than 1 KiB" {
			t.Errorf("a byte over the bound: %v", err)
		}
	}
	_, err = within(t, "ReadNamed(/dev/zero)", "", func() ([]byte, error) { return ReadNamed("/dev/zero", 1<<20) })
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadNamed(/dev/zero) = %v; want it bounded", err)
	}
	if _, err := ReadAtMost(bytes.NewReader(make([]byte, 11)), "<stdin>", 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAtMost over its bound = %v", err)
	}
}
