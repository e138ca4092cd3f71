package rootfs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the named seeds of FuzzRootStaysInside from seedCorpus")

// seed spells an input of FuzzRootStaysInside in the decoder's terms, so a
// seed says what it plants and does.
type seed struct {
	entries [][]byte
	ops     [][]byte
}

func enc(p string) []byte {
	comps := strings.Split(p, "/")
	b := []byte{byte(len(comps) - 1)}
	for _, c := range comps {
		i := slices.Index(names, c)
		if i < 0 {
			panic("no name " + c)
		}
		b = append(b, byte(i))
	}
	return b
}

func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = append(b, byte(v))
		case []byte:
			b = append(b, v...)
		}
	}
	return b
}

func (s *seed) plant(kind int, p string, more ...any) *seed {
	s.entries = append(s.entries, cat(append([]any{kind, enc(p)}, more...)...))
	return s
}

func (s *seed) dir(p string, private bool) *seed { return s.plant(kDir, p, b2i(!private)) }
func (s *seed) file(p string) *seed              { return s.plant(kFile, p, 1) }
func (s *seed) fifo(p string) *seed              { return s.plant(kFIFO, p) }
func (s *seed) socket(p string) *seed            { return s.plant(kSocket, p) }
func (s *seed) loop(p string, viaParent bool) *seed {
	return s.plant(kLinkLoop, p, b2i(viaParent))
}
func (s *seed) rel(p string, ups int, to string) *seed {
	return s.plant(kLinkRelative, p, ups, enc(to))
}
func (s *seed) abs(p, to string) *seed { return s.plant(kLinkAbsolute, p, enc(to)) }

// toSentinel links p to the sentinel's host path plus suffix i of
// "", /sub, /file, /sub/file, /l41, /l41/key, /missing.
func (s *seed) toSentinel(p string, i int) *seed { return s.plant(kLinkSentinel, p, i) }

// climb links p to ups "../" then "sentinel" (or the sentinel's absolute
// path without its slash) plus suffix i of "", /sub, /file, /l41.
func (s *seed) climb(p string, ups int, absolute bool, i int) *seed {
	return s.plant(kLinkClimb, p, ups-1, b2i(absolute), i)
}
func (s *seed) chainRel(p string, n int) *seed { return s.plant(kChainRelative, p, n-30) }
func (s *seed) chainAbs(n int) *seed           { return s.plant(kChainAbsolute, "x", n-30) }

// Op paths: a path of names, planted[i] plus suffix j ("", /x, /wg0.conf,
// /..), chains[i] plus suffix j ("", /key, /wireguard/wg0.conf, /x), or
// toward-the-sentinel spelling k.
func at(p string) []byte        { return cat(0, enc(p)) }
func planted(i, j int) []byte   { return cat(1, i, j) }
func chainAt(i, j int) []byte   { return cat(2, i, j) }
func sentinelPath(k int) []byte { return cat(3, k) }
func (s *seed) do(kind int, p []byte, more ...any) *seed {
	s.ops = append(s.ops, cat(append([]any{kind, p, 7, 1}, more...)...))
	return s
}

const (
	oRead = iota
	oOpen
	oCompare
	oWrite
	oMkdir
	oSymlink
	oExists
	oRemove
	oLstat
	oStat
	oReadlink
)

func (s *seed) read(p []byte) *seed    { return s.do(oRead, p) }
func (s *seed) open(p []byte) *seed    { return s.do(oOpen, p) }
func (s *seed) compare(p []byte) *seed { return s.do(oCompare, p) }
func (s *seed) write(p []byte, private bool) *seed {
	return s.do(oWrite, p, b2i(!private))
}
func (s *seed) mkdir(p []byte, private bool) *seed { return s.do(oMkdir, p, b2i(!private)) }

// link makes p a link of kind k (0 relative, 1 absolute, 2 sentinel,
// 3 climbing) with that kind's target bytes.
func (s *seed) link(p []byte, k int, target ...any) *seed {
	return s.do(oSymlink, p, append([]any{k}, target...)...)
}
func (s *seed) exists(p []byte) *seed   { return s.do(oExists, p) }
func (s *seed) remove(p []byte) *seed   { return s.do(oRemove, p) }
func (s *seed) lstat(p []byte) *seed    { return s.do(oLstat, p) }
func (s *seed) stat(p []byte) *seed     { return s.do(oStat, p) }
func (s *seed) readlink(p []byte) *seed { return s.do(oReadlink, p) }

// every runs each operation on p.
func (s *seed) every(p []byte) *seed {
	return s.read(p).open(p).compare(p).write(p, true).mkdir(p, true).link(p, 1, enc("x")).
		exists(p).lstat(p).stat(p).readlink(p).remove(p)
}

func (s *seed) bytes() []byte {
	b := []byte{byte(len(s.entries))}
	for _, e := range s.entries {
		b = append(b, e...)
	}
	for _, o := range s.ops {
		b = append(b, o...)
	}
	return b
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func newSeed() *seed { return &seed{} }

// seedCorpus is the named part of the corpus: the three findings first,
// then the shapes around them.
func seedCorpus() map[string]*seed {
	wg := func(s *seed) *seed {
		return s.mkdir(at("etc/wireguard"), true).write(at("etc/wireguard/wg0.conf"), true).
			read(at("etc/wireguard/wg0.conf")).link(at("etc/wireguard/x"), 1, enc("x"))
	}
	onChain := func(s *seed) *seed {
		return s.write(chainAt(0, 2), true).read(chainAt(0, 1)).read(chainAt(0, 0)).compare(chainAt(0, 1)).
			mkdir(chainAt(0, 3), true).mkdir(chainAt(0, 0), true).link(chainAt(0, 3), 1, enc("x")).
			remove(chainAt(0, 1)).exists(chainAt(0, 1)).open(chainAt(0, 1)).stat(chainAt(0, 0)).
			lstat(chainAt(0, 1)).readlink(chainAt(0, 1))
	}
	return map[string]*seed{
		"finding-leaf-link-absolute":    wg(newSeed().dir("etc", false).toSentinel("etc/wireguard", 0)),
		"finding-leaf-link-relative":    wg(newSeed().dir("etc", false).climb("etc/wireguard", 2, false, 0)),
		"finding-leaf-link-climb-abs":   wg(newSeed().dir("etc", false).climb("etc/wireguard", 8, true, 0)),
		"finding-leaf-link-to-subdir":   wg(newSeed().dir("etc", false).toSentinel("etc/wireguard", 1)),
		"finding-leaf-link-like-etc":    newSeed().chainAbs(30).toSentinel("etc/k0s", 0).mkdir(at("etc/k0s"), true).write(at("etc/k0s/x"), true),
		"finding-chain-41-absolute":     onChain(newSeed().chainAbs(41)),
		"finding-chain-100-absolute":    onChain(newSeed().chainAbs(100)),
		"finding-chain-41-relative":     onChain(newSeed().chainRel("a", 41)),
		"finding-fifo-secret":           newSeed().dir("k0s", true).fifo("k0s/x").every(at("k0s/x")),
		"chain-40-absolute":             onChain(newSeed().chainAbs(40)),
		"chain-40-relative":             onChain(newSeed().chainRel("a", 40)),
		"chain-109-absolute":            onChain(newSeed().chainAbs(109)),
		"chain-109-relative":            onChain(newSeed().chainRel("c", 109)),
		"chains-both":                   onChain(newSeed().chainRel("b", 45).chainAbs(60)).write(chainAt(1, 2), false).read(chainAt(1, 1)),
		"fifo-through-link":             newSeed().fifo("a/x").abs("b", "a/x").open(at("b")).read(at("b")).compare(at("b")).write(at("b"), false),
		"socket-secret":                 newSeed().socket("x").every(at("x")),
		"directory-as-file":             newSeed().dir("x", false).file("x/a").every(at("x")),
		"loop-self":                     newSeed().loop("a", false).every(at("a")).write(at("a/x"), true).mkdir(at("a/x"), false),
		"loop-via-parent":               newSeed().loop("a/b", true).every(at("a/b")).write(at("a/b/wg0.conf"), true),
		"loop-pair":                     newSeed().abs("a", "b").abs("b", "a").every(at("a/x")).read(at("b")),
		"link-to-sentinel-file":         newSeed().toSentinel("etc/x", 2).every(at("etc/x")),
		"dir-link-to-sentinel-sub":      newSeed().toSentinel("etc", 1).every(at("etc/x")).read(at("etc/x")).mkdir(at("etc/k0s"), true),
		"climb-from-deep":               newSeed().climb("a/b/c", 4, false, 2).climb("a/b/x", 3, false, 3).every(at("a/b/c")).read(at("a/b/x")),
		"spelled-toward-the-sentinel":   newSeed().every(sentinelPath(0)).every(sentinelPath(1)).every(sentinelPath(4)).every(sentinelPath(6)),
		"spelled-toward-the-sentinel-2": newSeed().dir("sentinel", false).every(sentinelPath(2)).every(sentinelPath(3)).every(sentinelPath(5)),
		"dot-dot-op-paths":              newSeed().dir("etc", false).every(at("../../..")).every(at("etc/../..")).write(at("../etc/.."), true),
		"root-itself":                   newSeed().every(at(".")).mkdir(at(".."), true).write(at("./x"), true),
		"relative-links-with-ups":       newSeed().dir("a/b", false).rel("a/b/c", 3, "etc").rel("etc", 2, "a/b").every(at("a/b/c/x")).mkdir(at("etc/k0s"), true),
		"rewrite-and-replace":           newSeed().write(at("etc/wireguard/wg0.conf"), true).write(at("etc/wireguard/wg0.conf"), true).link(at("etc/wireguard/wg0.conf"), 2, 2).write(at("etc/wireguard/wg0.conf"), false).compare(at("etc/wireguard/wg0.conf")),
		"remove-then-mkdir":             newSeed().dir("a", false).remove(at("a")).mkdir(at("a/b"), true).remove(at("a/b")).remove(at("a")),
		"mkdir-over-a-file":             newSeed().file("a").mkdir(at("a/b"), false).mkdir(at("a"), true).write(at("a/b/x"), true),
		"link-to-l41":                   newSeed().toSentinel("x", 4).every(at("x")).read(at("x")).write(at("x/wg0.conf"), true).mkdir(at("x/k0s"), true),
		"link-to-missing":               newSeed().toSentinel("x", 6).mkdir(at("x"), true).write(at("x/wg0.conf"), true).link(at("x/x"), 3, 5, 1, 0),
		"tighten-existing":              newSeed().dir("etc", false).dir("etc/wireguard", false).mkdir(at("etc/wireguard"), true).mkdir(at("etc"), false),
		"link-ops-make-escapes":         newSeed().dir("etc", false).link(at("etc/wireguard"), 2, 0).mkdir(at("etc/wireguard"), true).link(at("etc/k0s"), 3, 1, 0, 0).write(at("etc/k0s/x"), true),
		"planted-paths":                 newSeed().file("a/b").fifo("a/c").toSentinel("a/x", 3).every(planted(0, 0)).every(planted(1, 2)).every(planted(2, 1)).every(planted(0, 3)),
		"empty":                         newSeed(),
	}
}

// TestSeedCorpus keeps the named seeds in step with the decoder: a change to
// the input format must rewrite them (-update), or they would stop
// meaning what their names say. Seeds the fuzzer found sit beside them.
func TestSeedCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzRootStaysInside")
	corpus := seedCorpus()
	if len(corpus) < 30 {
		t.Fatalf("%d named seeds; keep at least 30", len(corpus))
	}
	for name, s := range corpus {
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s.bytes())
		p := filepath.Join(dir, name)
		if *update {
			mustT(t, os.MkdirAll(dir, 0o755))
			mustT(t, os.WriteFile(p, []byte(want), 0o644))
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != want {
			t.Errorf("seed %s is stale or missing (%v); run go test ./internal/rootfs -run TestSeedCorpus -update", name, err)
		}
	}
}
