package source

import (
	"fmt"
	"strings"
)

// MaxCmdline is the longest kernel command line x86-64 keeps:
// COMMAND_LINE_SIZE is 2048 bytes with the terminating NUL, and a longer
// line is cut there without a word. /proc/cmdline shows the kept line with
// a newline appended.
const MaxCmdline = commandLineSize - 1

// commandLineSize is the kernel's COMMAND_LINE_SIZE on x86-64 (and arm64).
const commandLineSize = 2048

// cutParam returns the parameter the kernel cut off: the one whose value
// runs to the end of a line of exactly MaxCmdline bytes, when it is one the
// chain reads; "" when the line is shorter or longer (another limit), ends
// between parameters, or was cut in a parameter of someone else's.
func cutParam(line string) string {
	if len(line) != MaxCmdline || strings.ContainsAny(line[len(line)-1:], " \t\n\r") {
		return ""
	}
	toks := splitCmdline(line)
	if len(toks) == 0 {
		return ""
	}
	switch key, _, _ := strings.Cut(toks[len(toks)-1], "="); key {
	case ParamConfig, ParamSHA256, ParamWait:
		return key
	}
	return ""
}

// truncated is the error for a parameter the kernel cut; detail, when set,
// says what gave the cut away or why a cut cannot be ruled out.
func truncated(param, detail string) error {
	if detail != "" {
		detail = " (" + detail + ")"
	}
	return fmt.Errorf("%s= runs to the end of a %d-byte kernel command line, the most the kernel keeps, so the line was cut there%s; move the document to a file or URL (%s=https://... with %s=) or shorten it",
		param, MaxCmdline, detail, ParamConfig, ParamSHA256)
}
