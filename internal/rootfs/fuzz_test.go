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

	"golang.org/x/sys/unix"
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

const (
	maxEntries = 12
	maxOps     = 24
)

// input reads the fuzzer's bytes; past the end every byte is 0, so any input
// decodes to a scene.
type input struct {
	b []byte
	i int
}

func (in *input) next() int {
	if in.i >= len(in.b) {
		in.i++
		return 0
	}
	in.i++
	return int(in.b[in.i-1])
}

func (in *input) done() bool { return in.i >= len(in.b) }

// names are the components paths are made of: the agent's own, short ones
// that collide, the names the chains use, and the two a cleaner must handle.
var names = []string{"etc", "wireguard", "k0s", "a", "b", "x", "c", "l0", "sentinel", "wg0.conf", "..", "."}

// path reads a node path of 1 to 3 components. Planting skips "." and "..".
func (in *input) path() string {
	n := 1 + in.next()%3
	comps := make([]string, n)
	for i := range comps {
		comps[i] = names[in.next()%len(names)]
	}
	return strings.Join(comps, "/")
}

type scene struct {
	r       Root
	o       *outside
	in      *input
	planted []string
	chains  []string // node paths at which a planted chain starts
}

// Entry kinds.
const (
	kDir = iota
	kFile
	kLinkRelative  // "../" a few times, then a path
	kLinkAbsolute  // a node path
	kLinkSentinel  // the sentinel's host path, or below it
	kLinkClimb     // enough "../" to leave the root on the host, then toward the sentinel
	kLinkLoop      // itself, or a sibling that points back
	kChainRelative // c0 -> c1 -> ... -> the sentinel's host path
	kChainAbsolute // at the sentinel's path inside the root: l_i -> <sentinel>/l_(i+1)
	kFIFO
	kSocket
	kinds
)

func (s *scene) plantAll() {
	n := s.in.next() % (maxEntries + 1)
	for range n {
		kind, p := s.in.next()%kinds, s.in.path()
		switch kind {
		case kDir:
			s.plant(p, func(d int, base string) error { return unix.Mkdirat(d, base, s.mode(0o700, 0o755)) })
		case kFile:
			s.plant(p, func(d int, base string) error {
				fd, err := unix.Openat(d, base, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, s.mode(0o600, 0o644))
				if err != nil {
					return err
				}
				_, err = unix.Write(fd, []byte("in "+p))
				_ = unix.Close(fd)
				return err
			})
		case kLinkRelative, kLinkAbsolute, kLinkSentinel, kLinkClimb:
			target := s.target(kind)
			s.plant(p, func(d int, base string) error { return unix.Symlinkat(target, d, base) })
		case kLinkLoop:
			target := filepath.Base(p)
			if s.in.next()%2 == 1 {
				target = "/" + p + "/../" + filepath.Base(p)
			}
			s.plant(p, func(d int, base string) error { return unix.Symlinkat(target, d, base) })
		case kChainRelative:
			s.chainRelative(p, 30+s.in.next()%80)
		case kChainAbsolute:
			s.chainAbsolute(30 + s.in.next()%80)
		case kFIFO:
			s.plant(p, func(d int, base string) error { return unix.Mkfifoat(d, base, 0o600) })
		case kSocket:
			s.plant(p, func(d int, base string) error { return unix.Mknodat(d, base, unix.S_IFSOCK|0o600, 0) })
		}
	}
}

func (s *scene) mode(a, b uint32) uint32 {
	if s.in.next()%2 == 0 {
		return a
	}
	return b
}

// target reads a link target of the given kind.
func (s *scene) target(kind int) string {
	switch kind {
	case kLinkRelative:
		return strings.Repeat("../", s.in.next()%4) + s.in.path()
	case kLinkAbsolute:
		return "/" + s.in.path()
	case kLinkSentinel:
		return s.o.dir + []string{"", "/sub", "/file", "/sub/file", "/l41", "/l41/key", "/missing"}[s.in.next()%7]
	default: // kLinkClimb
		up := strings.Repeat("../", 1+s.in.next()%8)
		if s.in.next()%2 == 0 {
			return up + "sentinel" + []string{"", "/sub", "/file", "/l41"}[s.in.next()%4]
		}
		return up + s.o.dir[1:] + []string{"", "/sub", "/file", "/l41"}[s.in.next()%4]
	}
}

// plant makes p in the root with mk, creating missing parents and never
// following a link while doing so: setup must not escape either. A path
// whose parents are taken by something else is skipped.
func (s *scene) plant(p string, mk func(dirfd int, base string) error) bool {
	comps := []string{}
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." && c != ".." {
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		return false
	}
	d, err := unix.Open(s.r.Dir(), unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	for _, c := range comps[:len(comps)-1] {
		_ = unix.Mkdirat(d, c, 0o755)
		next, err := unix.Openat(d, c, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		_ = unix.Close(d)
		if err != nil {
			return false
		}
		d = next
	}
	defer unix.Close(d)
	if mk(d, comps[len(comps)-1]) != nil {
		return false
	}
	s.planted = append(s.planted, "/"+strings.Join(comps, "/"))
	return true
}

func (s *scene) chainRelative(dir string, n int) {
	if !s.plant(dir, func(d int, base string) error { return unix.Mkdirat(d, base, 0o755) }) {
		return
	}
	at := s.planted[len(s.planted)-1]
	for i := range n {
		target := "c" + strconv.Itoa(i+1)
		if i == n-1 {
			target = s.o.dir + "/l41"
		}
		s.plant(at+"/c"+strconv.Itoa(i), func(d int, base string) error { return unix.Symlinkat(target, d, base) })
	}
	s.chains = append(s.chains, at+"/c0")
}

func (s *scene) chainAbsolute(n int) {
	for i := range n {
		target := s.o.dir + "/l" + strconv.Itoa(i+1)
		s.plant(s.o.dir+"/l"+strconv.Itoa(i), func(d int, base string) error { return unix.Symlinkat(target, d, base) })
	}
	s.chains = append(s.chains, s.o.dir+"/l0")
}

// opPath reads the path an operation acts on: one from the input, one
// planted, one of the chains, or one spelled toward the sentinel.
func (s *scene) opPath() string {
	switch s.in.next() % 4 {
	case 1:
		if len(s.planted) > 0 {
			return s.planted[s.in.next()%len(s.planted)] + []string{"", "/x", "/wg0.conf", "/.."}[s.in.next()%4]
		}
	case 2:
		if len(s.chains) > 0 {
			return s.chains[s.in.next()%len(s.chains)] + []string{"", "/key", "/wireguard/wg0.conf", "/x"}[s.in.next()%4]
		}
	case 3:
		return []string{
			s.o.dir, s.o.dir + "/file", s.o.dir + "/sub/file", s.o.dir + "/l41/key",
			"../sentinel/file", "/../../sentinel/sub", "../../" + s.o.dir[1:] + "/file",
		}[s.in.next()%7]
	}
	return s.in.path()
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
