package secret_test

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The header says the key and the PCRs, read from base64 as systemd-creds
// prints it (wrapped or not) or from the binary form; the base64 handed
// back is one line. What no systemd key names is not sealed.
func TestReadSealed(t *testing.T) {
	text := fixture.SealedCredential(fixture.SealedTPM2, []int{7, 11}, 300)
	oneLine := strings.TrimSpace(string(text))
	var wrapped strings.Builder
	for i := 0; i < len(oneLine); i += 64 {
		wrapped.WriteString(oneLine[i:min(i+64, len(oneLine))] + "\n")
	}
	raw, _ := base64.StdEncoding.DecodeString(oneLine)
	for name, in := range map[string][]byte{"one line": text, "wrapped": []byte(wrapped.String()), "binary": raw} {
		s, b64, err := secret.ReadSealed(in)
		if err != nil || s.Key != "tpm2" || !s.TPM2 || s.Host || !slices.Equal(s.PCRs, []int{7, 11}) || b64 != oneLine {
			t.Errorf("%s: %+v, %v; base64 the same: %v", name, s, err, b64 == oneLine)
		}
	}
	if s, _, err := secret.ReadSealed(fixture.SealedCredential(fixture.SealedHostTPM2, nil, 200)); err != nil || !s.Host || !s.TPM2 || len(s.PCRs) != 0 {
		t.Errorf("host+tpm2: %+v, %v", s, err)
	}
	for _, clear := range []string{"", "a-join-token.0123456789abcdef", base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 44)))} {
		if _, _, err := secret.ReadSealed([]byte(clear)); !errors.Is(err, secret.ErrNotSealed) {
			t.Errorf("%q: %v, want ErrNotSealed", clear, err)
		}
	}
}
