package rootfs

import (
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// FuzzRootStaysInside's input is an entry count, the entries (a kind, a
// path, the kind's own bytes), then operations until the bytes run out;
// seeds_test.go writes inputs in these terms.
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
