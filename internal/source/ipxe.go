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
// kernel the very words printed; a workstation reads that script back as
// iPXE would (validate), refusing what iPXE would change.

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

// ipxeKernel are iPXE's commands whose words after the image carry the
// kernel's command line; imgargs takes an image already fetched.
var ipxeKernel = map[string]bool{"kernel": true, "chain": true, "imgexec": true, "boot": true, "imgargs": true}

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

// ipxeEntry finds the kernel command line an iPXE script hands the kernel,
// when it names corium.config=: the words after the image on the one
// kernel (or chain, imgargs, ...) line naming it. at is that line's number;
// ok is false when data is no iPXE script or names no such line. A line
// iPXE would change (CheckIPXELine) is an error, as are two lines naming
// corium.config= (which one boots is the script's flow).
func ipxeEntry(data []byte) (line string, at int, ok bool, err error) {
	lines := strings.Split(string(data), "\n")
	if strings.TrimSpace(lines[0]) != IPXEHeader {
		return "", 0, false, nil
	}
	for i, l := range lines[1:] {
		l = strings.TrimSuffix(l, "\r")
		words := ipxeCommand(strings.Fields(l))
		if len(words) < 2 || !ipxeKernel[words[0]] {
			continue
		}
		words = words[1:]
		for len(words) > 0 && strings.HasPrefix(words[0], "-") { // --name x, --autofree, --timeout n
			if takesValue := words[0] == "--name" || words[0] == "-n" || words[0] == "--timeout" || words[0] == "-t"; takesValue && len(words) > 1 {
				words = words[1:]
			}
			words = words[1:]
		}
		if len(words) < 2 {
			continue
		}
		args := strings.Join(words[1:], " ")
		if _, named := parseCmdline(args).get(ParamConfig); !named {
			continue
		}
		if err := CheckIPXELine(strings.TrimSpace(l)); err != nil {
			return "", 0, false, fmt.Errorf("line %d: the iPXE line naming %s= %w; iPXE would hand the kernel another line: make it again with corium-agent cmdline --ipxe", i+2, ParamConfig, err)
		}
		if ok {
			return "", 0, false, fmt.Errorf("lines %d and %d: two iPXE lines name %s=, and which one boots is the script's choice; check a script with one kernel line", at, i+2, ParamConfig)
		}
		line, at, ok = args, i+2, true
	}
	return line, at, ok, nil
}

// ipxeCommand is the first command of a line's words: up to a comment or
// a command separator.
func ipxeCommand(words []string) []string {
	for i, w := range words {
		if strings.HasPrefix(w, "#") || w == "||" || w == "&&" || w == ";" {
			return words[:i]
		}
	}
	return words
}
