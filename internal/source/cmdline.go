package source

import (
	"strings"
)

// Kernel command line parameters the agent reads.
const (
	ParamConfig = "corium.config"
	ParamWait   = "corium.config.wait"
	ParamSHA256 = "corium.config.sha256"
)

// kernelArgs holds the last occurrence of each parameter (the kernel's own
// rule: a later argument overrides an earlier one, so a boot loader entry can
// override a default appended before it).
type kernelArgs map[string]string

// parseCmdline splits a kernel command line the way the kernel does: on
// whitespace outside double quotes, with the quotes removed.
func parseCmdline(line string) kernelArgs {
	args := kernelArgs{}
	for _, tok := range splitCmdline(line) {
		key, val, _ := strings.Cut(tok, "=")
		args[key] = val
	}
	return args
}

func splitCmdline(line string) []string { return splitWords(line, `"`) }

// splitWords splits a line on blanks outside quotes, the quotes removed:
// quotes are the characters that open one, each closed by itself (the
// kernel's "; PID 1's ' and " both), an unclosed one running to the end.
func splitWords(line, quotes string) []string {
	var (
		words []string
		cur   strings.Builder
		quote byte
		in    bool
	)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case strings.IndexByte(quotes, c) >= 0:
			quote, in = c, true
		case strings.IndexByte(" \t\n\r", c) >= 0:
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

func (a kernelArgs) get(key string) (string, bool) {
	v, ok := a[key]
	return v, ok
}
