package wgquick

import (
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/secret"
)

// Redacted is f with each secret it states replaced by secret.Redacted,
// the form a plan shows and diffs: Marshal of it spells every key line of
// the file, and no key. f is left as it was.
func (f File) Redacted() File {
	return secret.RedactedIn(f)
}

// Secrets are the secrets f states (secret.In), for masking them where
// else they may show (a tool's error quoting a line).
func (f File) Secrets() []secret.Value {
	return secret.In(f)
}

// SecretValues are the values of every line of data that wg reads under a
// secret key, in any section, well-formed or not, as wg reads them (blanks
// removed): what a tool that read the file may quote, and what a file that
// does not parse may hold, to be masked where it could show.
func SecretValues(data []byte) []string {
	var out []string
	for _, raw := range strings.Split(string(data), "\n") {
		name, value, ok := strings.Cut(wgReading(raw), "=")
		if ok && value != "" && slices.ContainsFunc(SecretKeys, func(k string) bool { return strings.EqualFold(k, name) }) {
			out = append(out, value)
		}
	}
	return out
}
