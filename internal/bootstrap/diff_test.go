package bootstrap

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	for _, c := range []struct{ name, a, b, want string }{
		{"equal", a, a, ""},
		{"created", "", "a\nb\n", "+ a\n+ b\n"},
		{"emptied", "a\nb\n", "", "- a\n- b\n"},
		{"two changes close enough for one hunk", a, "a\nb\nc\nD\ne\nf\ng\nh\nI\nj\nk\nl\n",
			"  b\n  c\n- d\n+ D\n  e\n  f\n  g\n  h\n- i\n+ I\n  j\n  k\n"},
		{"two hunks", a, "a\nb\nc\nD\ne\nf\ng\nh\ni\nJ\nk\nl\nm\n",
			"  b\n  c\n- d\n+ D\n  e\n  f\n@@\n  h\n  i\n- j\n+ J\n  k\n  l\n+ m\n"},
		{"deleted at the start", a, "c\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", "- a\n- b\n  c\n  d\n"},
		{"no final newline", a, "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl",
			"  j\n  k\n- l\n+ l\n\\ No newline at end of file\n"},
	} {
		got, err := unifiedDiff(c.a, c.b)
		if err != nil || got != c.want {
			t.Errorf("%s: diff (%v):\n%s\nwant:\n%s", c.name, err, got, c.want)
		}
	}
}

// TestUnifiedDiffOfLargeFiles diffs wg-quick files of up to 6,000 peers
// (36,000 lines) where a few peers or all of them move: the diff allocates
// a small multiple of the files, not a table of their lines' pairs, and is
// still the least one, one line out and one in for each peer that moved,
// however many do.
func TestUnifiedDiffOfLargeFiles(t *testing.T) {
	for _, peers := range []int{500, 6000} { // the smaller fails fast on a quadratic diff
		a := wgQuickPeers(peers, func(int) bool { return false })
		for _, every := range []int{50, 1} {
			b := wgQuickPeers(peers, func(i int) bool { return i%every == 0 })
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			d, err := unifiedDiff(a, b)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			in := len(a) + len(b)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 50*uint64(in) {
				t.Fatalf("%d peers, every %d moved: the diff allocated %d kB for %d kB of files; want at most 50 times the files",
					peers, every, alloc>>10, in>>10)
			}
			moved := (peers + every - 1) / every
			if out, in := linesStarting(d, "- "), linesStarting(d, "+ "); out != moved || in != moved {
				t.Errorf("%d peers, %d moved: the diff has %d lines out and %d in", peers, moved, out, in)
			}
			if got, err := udiff.Apply(a, lineEdits(a, b)); err != nil || got != b {
				t.Errorf("%d peers, every %d moved: the edits do not make the new file (%v)", peers, every, err)
			}
		}
	}
}

func linesStarting(text, prefix string) int {
	n := 0
	for l := range strings.Lines(text) {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// wgQuickPeers is a wg-quick file of n peers, shaped as render writes it;
// the peers moved says are on another port.
func wgQuickPeers(n int, moved func(int) bool) string {
	var b strings.Builder
	b.WriteString("[Interface]\nAddress = 10.10.255.1/16\nListenPort = 51820\nPrivateKey = [redacted]\n")
	for i := range n {
		k := sha256.Sum256(fmt.Appendf(nil, "peer %d", i))
		port := 51820
		if moved(i) {
			port = 61820
		}
		fmt.Fprintf(&b, "\n[Peer]\nPublicKey = %s\nEndpoint = 198.51.100.%d:%d\nAllowedIPs = 10.10.%d.%d/32\nPersistentKeepalive = 25\n",
			base64.StdEncoding.EncodeToString(k[:]), i%250+1, port, i/250, i%250+2)
	}
	return b.String()
}
