package schema

import (
	"os/exec"
	"strings"
	"testing"
)

// The schema promises no network: a workstation validates with it, and it
// holds the secret types, so it must not link an HTTP client or TLS.
func TestSchemaLinksNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "net/http", "crypto/tls":
			t.Errorf("the schema package links %s", dep)
		}
	}
}
