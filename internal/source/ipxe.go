package source

import (
	"errors"
	"fmt"
	"strings"
)

// iPXE reads a script line by its own rules, and has no quoting to keep a
// character from them: it splits the line on whitespace (a run of blanks is
// one), expands every ${...} (an unknown setting becomes nothing), ends the
// line at a word starting with #, ends a command at a word || && or ;, and
// joins a line ending in \ to the next. `corium-agent cmdline --ipxe`
// prints a script whose kernel line holds none of these, so iPXE hands the
// kernel the very words printed; a workstation reads a script back as iPXE
// runs it (ipxe_run.go), refusing what the reader cannot follow.

// IPXEHeader is the first line of an iPXE script: iPXE runs a file that
// starts with it as a script.
const IPXEHeader = "#!ipxe"

// ipxeLoader is an iPXE script, whose kernel line carries the parameters.
var ipxeLoader = Loader{
	Name:     "ipxe",
	Noun:     "an iPXE script",
	Suffixes: []string{".ipxe"},
	Usage:    "print an iPXE script that boots --kernel and --initrd with the parameters; a line iPXE would change is refused, never escaped",
	// Wrapped where cmdline's help has always wrapped it.
	About:  "--ipxe prints an iPXE script\ninstead, whose kernel line carries the parameters and --append's, measured\nwhole against the kernel's limit.",
	Boots:  true,
	entry:  ipxeEntry,
	via:    "iPXE",
	script: ipxeScript,
}

// CheckIPXELine says why iPXE would not hand the kernel args word for
// word: the first of its specials args holds, named without quoting the
// line (it may carry a document). nil when iPXE reads it as it stands.
func CheckIPXELine(args string) error {
	switch {
	case strings.Contains(args, "${"):
		return errors.New("holds ${, which iPXE expands as a setting (an unknown one becomes nothing)")
	case strings.HasSuffix(args, `\`):
		return errors.New(`ends in \, which iPXE reads as the line going on in the next`)
	case strings.ContainsAny(args, "\n\r"):
		return errors.New("holds a line break, which ends iPXE's line")
	case strings.Join(strings.Fields(args), " ") != args:
		return errors.New("holds a run of blanks, a tab or a blank at either end, which iPXE collapses into one space")
	}
	for i, w := range strings.Fields(args) {
		switch {
		case strings.HasPrefix(w, "#"):
			return fmt.Errorf("word %d starts with #, where iPXE ends the line as a comment", i+1)
		case w == "||" || w == "&&" || w == ";":
			return fmt.Errorf("word %d is %s, which iPXE reads as the end of a command", i+1, w)
		}
	}
	return nil
}

// ipxeEntry is the kernel command line an iPXE script boots, read as
// iPXE runs it (ipxeBoots), when it names corium.config= (booted).
func ipxeEntry(data []byte) (line string, at int, ok bool, err error) {
	line, at, ok, err = ipxeBoots(data)
	return booted(data, "iPXE", line, at, ok, err)
}
