package ipxe

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// baseScripts are valid scripts that boot document A, each a way the
// reader follows (the printed script, a named image and imgargs, a
// setting, a continuation and a label and a comment, a later kernel line,
// chain, CRLF), for mutate to start from.
func baseScripts(t *testing.T) []string {
	return []string{
		printedScript(t),
		"#!ipxe\nkernel --name k vmlinuz\nimgargs k " + pa + "\nboot k\n",
		"#!ipxe\nset x " + pa + "\nkernel vmlinuz ${x}\ninitrd initrd.img\nboot\n",
		"#!ipxe\n:start\nkernel vmlinuz \\\n" + pa + " # note\nboot\n",
		"#!ipxe\nkernel vmlinuz " + pb + "\nkernel --name k2 vmlinuz2 " + pa + "\nboot\n",
		"#!ipxe\necho ok && chain vmlinuz " + pa + "\n",
		"#!ipxe\r\nkernel vmlinuz " + pa + "\r\nboot\r\n",
	}
}

// The pieces mutate puts in: iPXE's specials, settings (numbered ones
// too), commands the reader follows, and document B. None waits for a key,
// sleeps, jumps or reaches past QEMU's user-mode network, so every
// generated script ends.
var (
	mutBytes = []string{" ", "\t", "\r", "\n", "\\", "\\\n", "#", " #", "$", "${", "}", "${x}", "${200}", "${0xc8}",
		" && ", " || ", " ; ", "\x00", ":", "\"", "'", "=", "-", "--name", "\v", "\f"}
	mutWords = []string{"kernel", "imgargs", "imgselect", "imgfetch", "boot", "chain", "imgexec", "initrd", "module",
		"set", "echo", "vmlinuz", "vmlinuz2", "k", "initrd.img", "--name", "-n", "--autofree", "&&", "||", ";",
		"${x}", "${y}", "#", "\\", ":l", "x", "200", "0xc8", pb}
	mutLines = []string{"set x " + pb, "set y " + pa, "set 200 " + pb, "set 0xc8 " + pb, "set 0.200 " + pa,
		"kernel vmlinuz2 " + pb, "kernel vmlinuz " + pb, "kernel vmlinuz ${x}", "kernel vmlinuz ${0xc8}",
		"imgargs vmlinuz " + pb, "imgargs k " + pb, "imgargs vmlinuz", "boot", "boot vmlinuz " + pb, "boot \\",
		"echo hi", "echo \\", "echo hi\x00 && kernel vmlinuz " + pb, ":l", ":l kernel vmlinuz " + pb,
		"kernel --name k vmlinuz2 " + pb, "initrd initrd.img", "initrd vmlinuz2", "chain vmlinuz2 " + pb,
		"# kernel vmlinuz " + pb, "kernel vmlinuz " + pb + " || boot", "set x"}
)

// mutate makes a script from seed: one of bases with one to three
// mutations (a piece put in, bytes taken out, a word replaced, a line put
// in, doubled, dropped or swapped, the end cut), and says which.
func mutate(seed uint64, bases []string) (script, how string) {
	r := rand.New(rand.NewPCG(seed, 0x1e5e))
	b := r.IntN(len(bases))
	s := bases[b]
	var hows []string
	for range 1 + r.IntN(3) {
		var h string
		s, h = mutateOnce(r, s)
		hows = append(hows, h)
	}
	return s, fmt.Sprintf("base %d, %s", b, strings.Join(hows, ", "))
}

func mutateOnce(r *rand.Rand, s string) (string, string) {
	// Past the header most of the time: a script without it is no
	// script to either side.
	at := func() int {
		if len(s) <= 7 || r.IntN(20) == 0 {
			return r.IntN(len(s) + 1)
		}
		return 7 + r.IntN(len(s)-7+1)
	}
	lines := strings.Split(s, "\n")
	switch r.IntN(8) {
	case 0, 1:
		i, p := at(), mutBytes[r.IntN(len(mutBytes))]
		return s[:i] + p + s[i:], fmt.Sprintf("%q put in at %d", p, i)
	case 2:
		i := at()
		j := min(len(s), i+1+r.IntN(4))
		return s[:i] + s[j:], fmt.Sprintf("bytes %d-%d taken out", i, j)
	case 3:
		li := r.IntN(len(lines))
		words := strings.Split(lines[li], " ")
		wi, w := r.IntN(len(words)), mutWords[r.IntN(len(mutWords))]
		words[wi] = w
		lines[li] = strings.Join(words, " ")
		return strings.Join(lines, "\n"), fmt.Sprintf("word %d of line %d replaced by %.20q", wi+1, li+1, w)
	case 4:
		li, l := 1+r.IntN(len(lines)), mutLines[r.IntN(len(mutLines))]
		lines = append(lines[:li], append([]string{l}, lines[li:]...)...)
		return strings.Join(lines, "\n"), fmt.Sprintf("line %.24q put in as line %d", l, li+1)
	case 5:
		li := r.IntN(len(lines))
		lines = append(lines[:li+1], lines[li:]...)
		return strings.Join(lines, "\n"), fmt.Sprintf("line %d doubled", li+1)
	case 6:
		if len(lines) < 3 {
			return s, "nothing"
		}
		i, j := 1+r.IntN(len(lines)-1), 1+r.IntN(len(lines)-1)
		if r.IntN(2) == 0 {
			lines = append(lines[:i], lines[i+1:]...)
			return strings.Join(lines, "\n"), fmt.Sprintf("line %d dropped", i+1)
		}
		lines[i], lines[j] = lines[j], lines[i]
		return strings.Join(lines, "\n"), fmt.Sprintf("lines %d and %d swapped", i+1, j+1)
	default:
		i := at()
		return s[:i], fmt.Sprintf("cut at %d", i)
	}
}

// The generator is seeded: a seed makes one script, every time.
func TestMutateIsSeeded(t *testing.T) {
	bases := baseScripts(t)
	for seed := range uint64(50) {
		a, ha := mutate(seed, bases)
		b, hb := mutate(seed, bases)
		if a != b || ha != hb {
			t.Fatalf("seed %d made two scripts", seed)
		}
	}
}
