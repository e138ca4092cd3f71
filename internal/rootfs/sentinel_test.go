package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// outside is a tree beside the root, on the host, that no Root operation
// may open, read, change or add to. Inotify sees even a read or an open that
// changes nothing, which a comparison of the tree afterwards would miss.
type outside struct {
	dir     string // the sentinel tree
	base    string // the directory holding both the root and the sentinel
	ifd     int
	watches map[int]string
	before  map[string]string
}

// sentinelMask is every way an escape would show: opened, read, created
// in, changed, its mode or owner changed, moved or deleted.
const sentinelMask = unix.IN_OPEN | unix.IN_ACCESS | unix.IN_ATTRIB | unix.IN_MODIFY | unix.IN_CREATE |
	unix.IN_DELETE | unix.IN_DELETE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_MOVE_SELF

// newOutside lays out base/sentinel with a file, a subdirectory and the
// directory "l41" that a link chain longer than 40 reached on the host, and
// returns it watched, with an empty root at base/root.
func newOutside(t testing.TB) (Root, *outside) {
	t.Helper()
	base := t.TempDir()
	o := &outside{dir: filepath.Join(base, "sentinel"), base: base, watches: map[int]string{}}
	for _, d := range []string{"", "sub", "l41"} {
		mustT(t, os.Mkdir(filepath.Join(o.dir, d), 0o755))
	}
	for _, f := range []string{"file", "sub/file", "l41/key", "l41/wg0.conf"} {
		mustT(t, os.WriteFile(filepath.Join(o.dir, f), []byte("HOST "+f+"\n"), 0o644))
	}
	mustT(t, os.Mkdir(filepath.Join(base, "root"), 0o755))
	o.before = o.snapshot(t)

	ifd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	mustT(t, err)
	o.ifd = ifd
	t.Cleanup(func() { _ = unix.Close(ifd) })
	err = filepath.WalkDir(o.dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return o.watch(p, sentinelMask)
	})
	mustT(t, err)
	// Beside the root only a new entry would be an escape: the root's own
	// open and the changes inside it show on base as events about "root".
	mustT(t, o.watch(base, unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_DELETE))
	return New(filepath.Join(base, "root")), o
}

func (o *outside) watch(p string, mask uint32) error {
	wd, err := unix.InotifyAddWatch(o.ifd, p, mask)
	if err != nil {
		return fmt.Errorf("watching %s: %w", p, err)
	}
	o.watches[wd] = p
	return nil
}

// events drains what inotify saw since the last call.
func (o *outside) events() []string {
	var out []string
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(o.ifd, buf)
		if n <= 0 || err != nil {
			return out
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = string(bytes.TrimRight(raw, "\x00"))
			}
			if ev.Mask&unix.IN_IGNORED == 0 {
				out = append(out, fmt.Sprintf("%s %s", filepath.Join(o.watches[int(ev.Wd)], name), maskNames(ev.Mask)))
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

func maskNames(m uint32) string {
	var names []string
	for _, b := range []struct {
		bit  uint32
		name string
	}{
		{unix.IN_OPEN, "open"}, {unix.IN_ACCESS, "access"}, {unix.IN_ATTRIB, "attrib"}, {unix.IN_MODIFY, "modify"},
		{unix.IN_CREATE, "create"}, {unix.IN_DELETE, "delete"}, {unix.IN_DELETE_SELF, "delete-self"},
		{unix.IN_MOVED_FROM, "moved-from"}, {unix.IN_MOVED_TO, "moved-to"}, {unix.IN_MOVE_SELF, "move-self"},
		{unix.IN_CLOSE_WRITE, "close-write"}, {unix.IN_CLOSE_NOWRITE, "close"},
	} {
		if m&b.bit != 0 {
			names = append(names, b.name)
		}
	}
	return strings.Join(names, ",")
}

// untouched fails t when anything happened outside the root: an inotify
// event, or a difference in the sentinel's tree, entries, modes and bytes.
func (o *outside) untouched(t testing.TB, after string) {
	t.Helper()
	if ev := o.events(); len(ev) > 0 {
		t.Fatalf("outside the root, after %s:\n  %s", after, strings.Join(ev, "\n  "))
	}
	now := o.snapshot(t)
	o.events() // the snapshot's own reads
	for p, was := range o.before {
		if now[p] != was {
			t.Fatalf("after %s, %s outside the root is %q, was %q", after, p, now[p], was)
		}
	}
	for p := range now {
		if _, ok := o.before[p]; !ok {
			t.Fatalf("after %s, %s appeared outside the root", after, p)
		}
	}
}

// snapshot is every entry of the sentinel and of base beside the root:
// type, mode and, for files, content.
func (o *outside) snapshot(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(o.base)
	mustT(t, err)
	for _, e := range entries {
		out[e.Name()] = "present"
	}
	err = filepath.WalkDir(o.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := info.Mode().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(b)
		}
		out[p] = desc
		return nil
	})
	mustT(t, err)
	return out
}

// isLoop is ELOOP through whatever wraps it.
func isLoop(err error) bool { return errors.Is(err, unix.ELOOP) }
