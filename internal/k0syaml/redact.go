package k0syaml

import "github.com/corium/corium-agent/internal/secret"

// Redacted is n with each secret it states replaced by secret.Redacted:
// Tree of it holds every key of n, and no secret. n is left as it was.
func (n Node) Redacted() Node {
	return secret.RedactedIn(n)
}

// Secrets are the secrets n states, found by type (secret.In): every
// non-zero secret.Value field.
func (n Node) Secrets() []secret.Value {
	return secret.In(n)
}
