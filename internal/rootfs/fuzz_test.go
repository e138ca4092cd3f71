package rootfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzRootStaysInside builds a root from the input (directories, files,
// FIFOs, sockets and links of every kind: relative, absolute, climbing with
// "..", aimed at the sentinel's host path, loops, chains past 40), runs a
// sequence of Root operations on paths from the input, and fails when
// inotify sees anything happen to the sentinel tree beside the root, when an
// operation blocks, or when one that succeeded did not do what it says.
// The seeds under testdata/fuzz run with every go test: the named ones of
// seeds_test.go and ten that a first ten-minute run (11,563 executions,
// -parallel 1 on two shared cores) found interesting, without a failure.
func FuzzRootStaysInside(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r, o := newOutside(t)
		in := &input{b: data}
		s := &scene{r: r, o: o, in: in}
		s.plantAll()
		o.events() // planting is not under test
		o.before = o.snapshot(t)
		o.events()
		for i := 0; i < maxOps && !in.done(); i++ {
			op := s.op()
			done := make(chan string, 1)
			go func() { done <- op.run() }()
			select {
			case bad := <-done:
				if bad != "" {
					t.Fatalf("%s: %s\nplanted:\n  %s", op, bad, strings.Join(s.planted, "\n  "))
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s blocked\nplanted:\n  %s", op, strings.Join(s.planted, "\n  "))
			}
			o.untouched(t, op.String()+" (planted: "+strings.Join(s.planted, "; ")+")")
		}
	})
}

type op struct {
	name string
	p    string
	run  func() string // "" when the operation kept its promise
}

func (o op) String() string { return o.name + " " + o.p }

// op reads one operation and what its success promises.
func (s *scene) op() op {
	r, in := s.r, s.in
	kind, p := in.next()%11, s.opPath()
	content := []byte("written " + strconv.Itoa(in.next()))
	mode := fs.FileMode(s.mode(0o600, 0o644))
	switch kind {
	case 0:
		return op{"ReadFile", p, func() string { _, _ = r.ReadFile(p); return "" }}
	case 1:
		return op{"Open", p, func() string {
			if f, err := r.Open(p); err == nil {
				_, _ = f.Read(make([]byte, 8))
				_ = f.Close()
			}
			return ""
		}}
	case 2:
		return op{"Compare", p, func() string { _, _ = r.Compare(p, content, mode); return "" }}
	case 3:
		dirMode := fs.FileMode(s.mode(0o700, 0o755))
		return op{"WriteFile", p, func() string {
			if _, err := r.WriteFile(p, content, mode, dirMode); err != nil {
				return ""
			}
			if c, err := r.Compare(p, content, mode); err != nil || c != Unchanged {
				return fmt.Sprintf("Compare after the write = %s, %v", c, err)
			}
			if b, err := r.ReadFile(p); err != nil || string(b) != string(content) {
				return fmt.Sprintf("ReadFile after the write = %q, %v", b, err)
			}
			return ""
		}}
	case 4:
		dirMode := fs.FileMode(s.mode(0o700, 0o755))
		return op{"MkdirAll", p, func() string {
			if err := r.MkdirAll(p, dirMode); err != nil {
				return ""
			}
			if info, err := r.Stat(p); err != nil || !info.IsDir() {
				return fmt.Sprintf("Stat after MkdirAll = %v, %v", info, err)
			}
			return ""
		}}
	case 5:
		target := s.target(kLinkRelative + in.next()%4)
		return op{"Symlink", p + " -> " + target, func() string {
			if _, err := r.Symlink(p, target); err != nil {
				return ""
			}
			if got, err := r.Readlink(p); err != nil || got != target {
				return fmt.Sprintf("Readlink after Symlink = %q, %v", got, err)
			}
			return ""
		}}
	case 6:
		return op{"Exists", p, func() string { _ = r.Exists(p); return "" }}
	case 7:
		return op{"Remove", p, func() string {
			if removed, err := r.Remove(p); err == nil && removed && r.Exists(p) {
				return "it still exists after Remove"
			}
			return ""
		}}
	case 8:
		return op{"Lstat", p, func() string { _, _ = r.Lstat(p); return "" }}
	case 9:
		return op{"Stat", p, func() string { _, _ = r.Stat(p); return "" }}
	default:
		return op{"Readlink", p, func() string { _, _ = r.Readlink(p); return "" }}
	}
}

// The fuzz target's own check: its sentinel must see what an escape would
// do, or a clean run proves nothing.
func TestSentinelSeesAnEscape(t *testing.T) {
	_, o := newOutside(t)
	f, err := os.Open(filepath.Join(o.dir, "sub", "file"))
	mustT(t, err)
	_ = f.Close()
	mustT(t, os.Chmod(filepath.Join(o.dir, "l41"), 0o700))
	ev := strings.Join(o.events(), "\n")
	for _, want := range []string{"sub/file open", "l41 attrib"} {
		if !strings.Contains(ev, want) {
			t.Errorf("the sentinel missed %q; saw:\n%s", want, ev)
		}
	}
}
