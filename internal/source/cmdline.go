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

func splitCmdline(line string) []string {
	var (
		toks    []string
		cur     strings.Builder
		inQuote bool
		inTok   bool
	)
	for _, r := range line {
		switch {
		case r == '"':
			inQuote, inTok = !inQuote, true
		case !inQuote && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			if inTok {
				toks = append(toks, cur.String())
				cur.Reset()
				inTok = false
			}
		default:
			cur.WriteRune(r)
			inTok = true
		}
	}
	if inTok {
		toks = append(toks, cur.String())
	}
	return toks
}

func (a kernelArgs) get(key string) (string, bool) {
	v, ok := a[key]
	return v, ok
}
