package vm

import (
	"fmt"
	"strings"
	"testing"
)

// Secrets are the test's secret values: the WireGuard private keys and the
// join token. They reach a guest only as SMBIOS credentials; everything the
// test prints from a guest goes through Redact, so a secret that shows up
// anywhere fails the test instead of being printed.
type Secrets struct{ values []string }

func (s *Secrets) Add(v ...string) { s.values = append(s.values, v...) }

// Redact is text with every secret value replaced, failing the test for
// each one it had to replace.
func (s *Secrets) Redact(t testing.TB, text string) string {
	t.Helper()
	for _, v := range s.values {
		if v != "" && strings.Contains(text, v) {
			t.Errorf("a secret value appeared in the guest's output; it is replaced by [secret] here")
			text = strings.ReplaceAll(text, v, "[secret]")
		}
	}
	return text
}

// Logf logs through Redact.
func (s *Secrets) Logf(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Log(s.Redact(t, fmt.Sprintf(format, args...)))
}

// Absent checks that none of the secrets is in text, naming where it looked.
func (s *Secrets) Absent(t testing.TB, where, text string) {
	t.Helper()
	for _, v := range s.values {
		if v != "" && strings.Contains(text, v) {
			t.Errorf("%s contains a secret value", where)
		}
	}
}
