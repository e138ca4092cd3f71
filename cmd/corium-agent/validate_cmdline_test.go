package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

// bootLine is a boot entry's kernel command line: the boot loader's
// parameters, padded to rest bytes, then the agent's for doc.
func bootLine(rest int, doc string) (line string, ours int) {
	loader := "BOOT_IMAGE=/vmlinuz root=UUID=2f1c rw console=ttyS0,115200n8 rd.pad="
	loader += strings.Repeat("x", rest-len(loader))
	params := strings.Join(source.InlineParams([]byte(doc)), " ")
	return loader + " " + params + "\n", len(params)
}

// A command line is checked whole against what the kernel keeps of it: the
// boot loader's parameters count with the agent's. validate, validate --for
// cmdline (once, saying what the rest of the line takes) and validate
// --cluster all refuse a line that does not fit, though the agent's
// parameters alone would.
func TestValidateMeasuresTheWholeCommandLine(t *testing.T) {
	line, ours := bootLine(1700, pxeDoc)
	if ours+1+512 > source.MaxCmdline {
		t.Fatalf("the document alone (%d bytes) leaves no room: the test needs a smaller one", ours)
	}
	file := writeConfig(t, "w1.cmdline", line)
	says := fmt.Sprintf("the kernel command line takes %d bytes, and the kernel keeps 2047 of it: the rest of the line (the boot loader's parameters) already takes 1700, and the parameters that carry this document %d;", len(line)-1, ours)
	for _, args := range [][]string{
		{"validate", file},
		{"validate", "--for", "cmdline", file},
		{"validate", "--cluster", file},
	} {
		code, out, _ := runCLI(t, args...)
		if code != exitFailed || strings.Count(out, says) != 1 {
			t.Errorf("%s: exit %d, want %d with one error saying %q:\n%s", strings.Join(args, " "), code, exitFailed, says, out)
		}
	}
	// The same boot entry with room to spare is valid, with no word of its
	// size: the rest of the line is known, so no room is kept for it.
	fits, _ := bootLine(2047-ours-1, pxeDoc)
	for _, args := range [][]string{
		{"validate", "--strict", writeConfig(t, "fits.cmdline", fits)},
		{"validate", "--strict", "--for", "cmdline", writeConfig(t, "fits.cmdline", fits)},
	} {
		if code, out, _ := runCLI(t, args...); code != exitOK || strings.Contains(out, "command line") {
			t.Errorf("%s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
	}
}
