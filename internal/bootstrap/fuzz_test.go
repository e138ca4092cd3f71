package bootstrap

import (
	"encoding/base64"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/secret"
)

// messageAlphabet is text an error may hold whatever the key: a fuzzed value
// made only of it is no evidence of a leak.
var messageAlphabet = regexp.MustCompile(`^[a-z0-9 .,:;'()/_\-\[\]]*$`)

// nonCanonicalKey decodes to 32 bytes with Go's lenient base64 but has
// non-zero bits after the last byte: wg (and so wg-quick) refuses it.
const nonCanonicalKey = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmn="

// FuzzWireGuardKey: a key render accepts is one wg accepts (canonical
// base64 of 32 bytes, after trimming), and a refused key is never quoted in
// the error.
func FuzzWireGuardKey(f *testing.F) {
	for _, s := range []string{
		"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
		" yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n",
		"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk",
		"yAnz5TF-lXXJte14tji3zlMNq-hd2rYUIgJBgB3fBmk=",
		nonCanonicalKey,
		"c8d5f3b2e1a9c7d5f3b2e1a9c7d5f3b2e1a9c7d5f3b2e1a9c7d5f3b2e1a9c7d5",
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"====",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := wireGuardKey(Secrets{"k": secret.NewValue(s)}, "k", nil, true)
		if err != nil {
			probe := strings.TrimSpace(s)
			if len(probe) >= 8 && !messageAlphabet.MatchString(probe) && strings.Contains(err.Error(), probe) {
				t.Fatalf("the error quotes the key: %v", err)
			}
			return
		}
		raw, derr := base64.StdEncoding.Strict().DecodeString(v.Reveal())
		if derr != nil || len(raw) != 32 {
			t.Fatalf("accepted %q, which wg refuses (not canonical base64 of 32 bytes)", s)
		}
		if v.Reveal() != strings.TrimSpace(s) {
			t.Fatalf("accepted %q as a different key", s)
		}
	})
}

// TestNonCanonicalKeyIsWhatWgRefuses checks the fuzz oracle against the real
// tool: wg itself refuses the key Go's lenient base64 would take.
func TestNonCanonicalKeyIsWhatWgRefuses(t *testing.T) {
	wg, err := exec.LookPath("wg")
	if err != nil {
		if os.Getenv("CORIUM_REQUIRE_PRIVILEGED") == "1" {
			t.Fatal("wg (wireguard-tools) is not installed; scripts/deps.sh installs it")
		}
		t.Skip("wg (wireguard-tools) is not installed")
	}
	for key, wantOK := range map[string]bool{
		"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=": true,
		nonCanonicalKey: false,
	} {
		cmd := exec.Command(wg, "pubkey")
		cmd.Stdin = strings.NewReader(key + "\n")
		_, err := cmd.Output()
		if (err == nil) != wantOK {
			t.Errorf("wg pubkey on %s: error %v, want accepted=%v", key, err, wantOK)
		}
		_, rerr := wireGuardKey(Secrets{"k": secret.NewValue(key)}, "k", nil, true)
		if (rerr == nil) != wantOK {
			t.Errorf("render on %s: error %v, want accepted=%v (as wg)", key, rerr, wantOK)
		}
	}
}
