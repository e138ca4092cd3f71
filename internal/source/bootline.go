package source

import (
	"errors"
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// Below the grammar of a boot script or a kernel line are its bytes, and
// each consumer takes them its own way: iPXE and GRUB end a line at a NUL,
// GRUB drops carriage returns, the kernel splits the line on double quotes
// only while PID 1 splits it on both quotes (systemd 257
// src/basic/proc-cmdline.c, proc_cmdline_strv_internal: extract_first_word
// with EXTRACT_UNQUOTE|EXTRACT_RELAX|EXTRACT_RETAIN_ESCAPE) and reads a
// parameter's name with - and _ as one character (proc_cmdline_key_streq).
// Rather than follow each, the bytes and shapes where they part are
// refused, by allow-list: what is left reads the same to all of them.

// scriptBytes holds a boot script to printable ASCII, blanks and line
// breaks: a tab, a space, a line feed, and a carriage return only right
// before a line feed. Anything else is refused by its line and byte offset.
func scriptBytes(data []byte) error {
	line, start := 1, 0
	for i, c := range data {
		switch {
		case c == '\n':
			line, start = line+1, i+1
			continue
		case c == '\t' || (c >= 0x20 && c <= 0x7e):
			continue
		case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
			continue
		}
		return fmt.Errorf("line %d, byte %d of the file (column %d): %s; a boot script the agent reads holds printable ASCII, blanks and line breaks only: remove it", line, i, i-start+1, byteName(c))
	}
	return nil
}

// byteName says what a refused byte is and what its consumers make of it.
func byteName(c byte) string {
	switch {
	case c == 0:
		return "a NUL byte, where iPXE and GRUB end the line while the rest of it still reads as text"
	case c == '\r':
		return "a carriage return not before a line feed, which GRUB drops and iPXE takes as a blank"
	case c < 0x20 || c == 0x7f:
		return fmt.Sprintf("the control byte 0x%02x", c)
	}
	return fmt.Sprintf("the byte 0x%02x, outside ASCII", c)
}

// CheckBootLine holds a kernel command line that carries the agent's
// parameters or credentials to what the kernel, PID 1 and the agent read
// alike: printable ASCII and tabs, no single quote and no backslash (PID 1
// would read words and quotes the kernel and the agent do not), and every
// credential it sets for the agent sealed (CheckCredentials, found as PID 1
// finds them). validate, cmdline and the node at boot judge a line by it.
func CheckBootLine(line string) error {
	line = strings.TrimSuffix(line, "\n") // /proc/cmdline's
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\'' || c == '\\':
			return fmt.Errorf("the kernel command line holds %q at byte %d, which PID 1 reads as a quote or an escape and the kernel does not, so the two read other parameters out of it; remove it", c, i)
		case c != '\t' && (c < 0x20 || c > 0x7e):
			return fmt.Errorf("the kernel command line holds %s at byte %d; remove it", byteName(c), i)
		}
	}
	for _, f := range CheckCredentials(LineCredentials(line), nil) {
		if f.Severity == finding.Error {
			return errors.New(f.Path + ": " + f.Message)
		}
	}
	return nil
}

// pid1Words splits a kernel command line as PID 1 does: on blanks outside
// quotes, single and double quotes both removed, an unclosed quote running
// to the end of the line, a backslash kept as it is.
func pid1Words(line string) []string { return splitWords(line, `'"`) }

// pid1KeyIs says whether PID 1 reads key as name: - and _ are one
// character to it (proc_cmdline_key_streq).
func pid1KeyIs(key, name string) bool {
	return strings.ReplaceAll(key, "-", "_") == strings.ReplaceAll(name, "-", "_")
}
