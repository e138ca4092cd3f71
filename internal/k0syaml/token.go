package k0syaml

import (
	"strings"

	"github.com/corium/corium-agent/internal/secret"
)

// TokenFile is the join token file render hands `k0s install
// --token-file`: one secret, the whole of its content.
type TokenFile struct {
	Token secret.Value `secret:"token"`
}

// Marshal writes the token on one line, the blanks around it trimmed.
func (f TokenFile) Marshal() []byte {
	return []byte(strings.TrimSpace(f.Token.Reveal()) + "\n")
}

// ParseToken reads a token file as Marshal writes it: its content, the
// blanks around it trimmed.
func ParseToken(data []byte) TokenFile {
	return TokenFile{Token: secret.NewValue(strings.TrimSpace(string(data)))}
}

// Redacted is f with its token replaced by secret.Redacted.
func (f TokenFile) Redacted() TokenFile {
	return secret.RedactedIn(f)
}

// Secrets are the secrets f states: its token, unless it is empty.
func (f TokenFile) Secrets() []secret.Value {
	return secret.In(f)
}
