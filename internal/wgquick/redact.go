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
	out := f
	out.Interface.PrivateKey = redact(f.Interface.PrivateKey)
	out.Peers = slices.Clone(f.Peers)
	for i := range out.Peers {
		out.Peers[i].PresharedKey = redact(out.Peers[i].PresharedKey)
	}
	return out
}

// Secrets are the secrets f states, for masking them where else they may
// show (a tool's error quoting a line).
func (f File) Secrets() []secret.Value {
	var out []secret.Value
	for _, v := range append([]secret.Value{f.Interface.PrivateKey}, peerKeys(f.Peers)...) {
		if !v.IsZero() {
			out = append(out, v)
		}
	}
	return out
}

func peerKeys(peers []Peer) []secret.Value {
	out := make([]secret.Value, 0, len(peers))
	for _, p := range peers {
		out = append(out, p.PresharedKey)
	}
	return out
}

func redact(v secret.Value) secret.Value {
	if v.IsZero() {
		return v
	}
	return secret.NewValue(secret.Redacted)
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
