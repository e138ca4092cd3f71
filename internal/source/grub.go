package source

import (
	"fmt"
	"strings"
)

// GRUB reads grub.cfg as a shell-like script: the parameters `corium-agent
// cmdline --grub` prints are quoted for it, and an operator pastes them onto
// the linux line of a boot entry. A workstation reads that line as GRUB
// hands it to the kernel, so the document checked is the one the node gets.

// grubLoader is GRUB's script: a grub.cfg, or the parameters quoted for
// its linux line.
var grubLoader = Loader{
	Name:     "grub",
	Noun:     "a GRUB entry",
	Suffixes: []string{".cfg"},
	Usage:    "quote the parameters for GRUB's linux line (grub.cfg)",
	entry:    grubEntry,
	via:      "GRUB linux",
	undone:   "GRUB's quotes undone, ",
	script:   grubScript,
}

// grubLinux are GRUB's commands that load a Linux kernel: the words after
// the kernel's path are its command line.
var grubLinux = map[string]bool{"linux": true, "linuxefi": true, "linux16": true}

// grubEntry finds the kernel command line a grub.cfg (or a line of one)
// hands the kernel, when it names corium.config=: the one linux line
// naming it, or the whole text when it is one line of parameters as
// cmdline --grub prints them. at is the line it is on, 0 for the whole
// text; ok is false when the text holds no such line. Two linux lines naming
// corium.config= are an error: which one boots is GRUB's menu's choice.
func grubEntry(data []byte) (line string, at int, ok bool, err error) {
	text := string(data)
	lines := strings.Split(text, "\n")
	if len(strings.Fields(text)) > 0 && len(nonBlank(lines)) == 1 {
		words := grubWords(strings.TrimSpace(text))
		if len(words) > 1 && grubLinux[words[0]] {
			words = words[2:]
		}
		kernel := kernelLineOf(words)
		if _, named := parseCmdline(kernel).get(ParamConfig); named {
			return kernel, 0, true, nil
		}
		return "", 0, false, nil
	}
	for i, l := range lines {
		words := grubWords(strings.TrimSpace(l))
		if len(words) < 2 || !grubLinux[words[0]] {
			continue
		}
		kernel := kernelLineOf(words[2:])
		if _, named := parseCmdline(kernel).get(ParamConfig); !named {
			continue
		}
		if ok {
			return "", 0, false, fmt.Errorf("lines %d and %d: two GRUB linux lines name %s=, and which one boots is the menu's choice; check a file with one boot entry", at, i+1, ParamConfig)
		}
		line, at, ok = kernel, i+1, true
	}
	return line, at, ok, nil
}

func nonBlank(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// kernelLineOf joins words as GRUB builds the kernel's command line: a word
// holding a blank goes in double quotes, which the kernel splits on.
func kernelLineOf(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, " \t") {
			w = `"` + w + `"`
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

// grubWords splits one line of a GRUB script into the words of its first
// command, quotes and escapes undone: inside single quotes every character
// is literal; inside double quotes a backslash escapes $, ", \ and a
// newline; outside quotes it escapes any character. An unquoted ; | & ends
// the command, and a word starting with an unquoted # is a comment.
func grubWords(line string) []string {
	var (
		words []string
		cur   strings.Builder
		inTok bool
		quote rune // ' or ", 0 outside quotes
		esc   bool
	)
	flush := func() {
		if inTok {
			words = append(words, cur.String())
			cur.Reset()
			inTok = false
		}
	}
	for _, r := range line {
		switch {
		case esc:
			if quote == '"' && !strings.ContainsRune("$\"\\\n", r) {
				cur.WriteRune('\\')
			}
			cur.WriteRune(r)
			esc = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			esc, inTok = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inTok = r, true
		case r == ' ' || r == '\t':
			flush()
		case r == ';' || r == '|' || r == '&':
			flush()
			return words
		case r == '#' && !inTok:
			return words
		default:
			cur.WriteRune(r)
			inTok = true
		}
	}
	flush()
	return words
}
