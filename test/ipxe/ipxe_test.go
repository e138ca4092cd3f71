package ipxe

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

var (
	generated = flag.Int("ipxe.n", 0, "run this many generated scripts (mutations of valid ones, from -ipxe.seed) after the kept cases; each the reader reads is booted by iPXE on BIOS")
	seedFrom  = flag.Uint64("ipxe.seed", 1, "the first seed -ipxe.n generates from")
	onUEFI    = flag.Bool("ipxe.uefi", false, "boot the generated scripts on UEFI too")
)

// Two documents, to tell which one a script boots.
const (
	docA = "role: worker\ncluster:\n  name: ipxe-a\n"
	docB = "role: worker\ncluster:\n  name: ipxe-b\n"
)

// params are the parameters that carry doc inline, as cmdline prints them.
func params(doc string) string { return strings.Join(source.InlineParams([]byte(doc)), " ") }

var pa, pb = params(docA), params(docB)

// What a node gets from a script, named for a case's expectation.
const (
	gotA    = "document A"
	gotB    = "document B"
	noDoc   = "no document" // a kernel booted, its line hands the node none
	nothing = "nothing booted"
)

func docName(doc []byte) string {
	switch string(doc) {
	case docA:
		return gotA
	case docB:
		return gotB
	}
	return fmt.Sprintf("another document (%d bytes)", len(doc))
}

// reading is what the reader makes of a script: the document Unpack reads
// from the kernel line it says the script boots, or why it reads none.
type reading struct {
	doc   []byte
	whole int // the length of the line it read (Delivery.Cmdline.Whole)
	via   string
	none  string // "" when it reads a document
}

func readerReads(script string) reading {
	d, err := source.Unpack([]byte(script))
	switch {
	case err != nil:
		return reading{none: "refused: " + err.Error()}
	case !strings.Contains(d.Via, "(iPXE)"):
		// Handed on (no corium.config= anywhere), or read as another
		// shape: no claim about what iPXE boots.
		return reading{none: fmt.Sprintf("not read as an iPXE script's kernel line (via %q)", d.Via)}
	}
	r := reading{doc: d.Data, via: d.Via}
	if d.Cmdline != nil {
		r.whole = d.Cmdline.Whole
	}
	return r
}

// nodeReads is what a node booted with line gets, read as the agent's
// chain reads /proc/cmdline: the document, or why it gets none.
func nodeReads(line string) ([]byte, string) {
	p, err := source.ReadParams(line)
	if err != nil {
		return nil, "the node refuses the line: " + err.Error()
	}
	if !p.HasConfig {
		return nil, "the line names no corium.config="
	}
	n, err := p.ReadInline()
	switch {
	case err != nil:
		return nil, "the node refuses the document: " + err.Error()
	case n.Absent != "":
		return nil, "the node finds no document: " + n.Absent
	}
	return n.Data, ""
}

// holds checks one script on one firmware: the reader refuses it, or the
// document it reads is the one on the line iPXE boots, and the line it
// measures is no shorter than that line. It returns what the node gets
// (one of the got constants), for a kept case's record; always runs iPXE
// even when the reader refuses.
func holds(t *testing.T, f *firmware, script string, always bool) string {
	t.Helper()
	r := readerReads(script)
	if r.none != "" && !always {
		t.Logf("reader: %s", r.none)
		return ""
	}
	o := f.run(t, script)
	if o.unknown != "" {
		t.Logf("%s: no verdict: %s; iPXE said:\n%s", f.name, o.unknown, o.said)
		return "no verdict"
	}
	line, booted := o.line, o.booted
	got := nothing
	var doc []byte
	why := ""
	if booted {
		if doc, why = nodeReads(line); why == "" {
			got = docName(doc)
		} else {
			got = noDoc
		}
	}
	if r.none != "" {
		t.Logf("reader: %s; %s: %s %s", r.none, f.name, got, why)
		return got
	}
	switch {
	case !booted:
		t.Errorf("%s: the reader reads %s (%s) where iPXE boots nothing; iPXE said:\n%s", f.name, docName(r.doc), r.via, o.said)
	case why != "":
		t.Errorf("%s: the reader reads %s (%s), but of the line iPXE boots %s", f.name, docName(r.doc), r.via, why)
	case !bytes.Equal(doc, r.doc):
		t.Errorf("%s: the reader reads %s (%s), iPXE boots %s", f.name, docName(r.doc), r.via, got)
	case r.whole < len(strings.TrimSpace(line)):
		// The same document on a longer line: the reader measures it
		// against the kernel's limit short.
		t.Errorf("%s: the reader's line (%s) is %d bytes, the line iPXE boots %d", f.name, r.via, r.whole, len(strings.TrimSpace(line)))
	default:
		t.Logf("%s: the reader reads %s (%s), as iPXE boots it; the reader measures %d bytes, the kernel gets %d", f.name, got, r.via, r.whole, len(strings.TrimSpace(line)))
	}
	return got
}

// keptCase is a fixed script, with what a node gets from it as the oracle
// found (iPXE 1.0.0+git-20190125.36a4c85, Debian's 5.1): per firmware, ""
// where it is not run there.
type keptCase struct {
	name           string
	script         string
	onBIOS, onUEFI string
}

func printedScript(t *testing.T) string {
	t.Helper()
	for _, l := range source.Loaders() {
		if l.Name == "ipxe" {
			script, _, err := l.Script(source.InlineParams([]byte(docA)), source.Boot{Kernel: "vmlinuz", Initrd: "initrd.img", Append: "root=/dev/vda console=ttyS0"})
			if err != nil {
				t.Fatal(err)
			}
			return script
		}
	}
	t.Fatal("no ipxe loader in source.Loaders()")
	return ""
}

func keptCases(t *testing.T) []keptCase {
	numbered := func(spelling string) string {
		return "#!ipxe\nset " + spelling + " " + pb + "\nset 200 " + pa + "\nkernel vmlinuz ${" + spelling + "}\nboot\n"
	}
	return []keptCase{
		// The control: as corium-agent cmdline --ipxe prints it.
		{"printed by cmdline --ipxe", printedScript(t), gotA, gotA},
		// iPXE's line is a C string: a NUL ends it, and what follows on
		// that line never runs.
		{"a NUL ends the line", "#!ipxe\necho hi\x00 && kernel vmlinuz " + pa + " && boot\nkernel vmlinuz " + pb + "\nboot\n", gotB, ""},
		// A setting named by a number is DHCP option (tag) 200 however
		// it is spelled (settings.c parse_setting_tag: strtoul base 0,
		// dotted for encapsulation): set 200 replaces set 0xc8.
		{"a setting named 0xc8 is setting 200", numbered("0xc8"), gotA, ""},
		{"a setting named 0310 is setting 200", numbered("0310"), gotA, ""},
		{"a setting named 0.200 is setting 200", numbered("0.200"), gotA, ""},
		// A continuation on the last line fails the script (script.c
		// process_script: the loop ends with -EINVAL), newline or not.
		{"boot \\ as the last line, with its newline", "#!ipxe\nkernel vmlinuz " + pa + "\nboot \\\n", nothing, ""},
		{"boot \\ as the last line, without a newline", "#!ipxe\nkernel vmlinuz " + pa + "\nboot \\", nothing, ""},
		// On UEFI iPXE hands the kernel "NAME ARGS" (efi_image.c
		// efi_image_cmdline): a quote in the name opens a quote that the
		// kernel's parser runs to the end of the line.
		{"an image named with a quote", "#!ipxe\nkernel --name k\" vmlinuz " + pa + "\nboot\n", gotA, noDoc},
	}
}

// Each kept case, on the firmwares it names: the reader refuses the
// script, or reads the document on the line iPXE boots; and iPXE boots
// what the case records (so that a change of iPXE, or of the harness,
// shows).
func TestIPXEKeptCases(t *testing.T) {
	for _, tc := range keptCases(t) {
		for _, run := range []struct {
			f    *firmware
			want string
		}{{bios, tc.onBIOS}, {uefi, tc.onUEFI}} {
			if run.want == "" {
				continue
			}
			t.Run(run.f.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				if got := holds(t, run.f, tc.script, true); got != run.want {
					t.Errorf("%s: a node gets %s, the case records %s", run.f.name, got, run.want)
				}
			})
		}
	}
}

// Generated scripts (-ipxe.n): every one the reader reads is booted by
// iPXE, and must boot the document the reader read.
func TestIPXEGenerated(t *testing.T) {
	if *generated == 0 {
		t.Log("no generated scripts without -ipxe.n (a soak)")
		return
	}
	bases := baseScripts(t)
	for i := range uint64(*generated) {
		seed := *seedFrom + i
		script, how := mutate(seed, bases)
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			t.Parallel()
			t.Logf("%s: %q", how, script)
			holds(t, bios, script, false)
			if *onUEFI {
				holds(t, uefi, script, false)
			}
		})
	}
}
