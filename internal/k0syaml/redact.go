package k0syaml

import (
	"reflect"

	"github.com/corium/corium-agent/internal/secret"
)

// Redacted is n with each secret it states replaced by secret.Redacted:
// Tree of it holds every key of n, and no secret. n is left as it was.
func (n Node) Redacted() Node {
	out := n
	redactIn(reflect.ValueOf(&out).Elem())
	return out
}

// Secrets are the secrets n states, found by type: every non-zero
// secret.Value field.
func (n Node) Secrets() []secret.Value {
	var out []secret.Value
	secretsOf(reflect.ValueOf(n), &out)
	return out
}
