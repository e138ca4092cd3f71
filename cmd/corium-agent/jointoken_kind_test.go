package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// A token of the wrong kind is well formed: the refusal says which kind it
// is and which the role wants, and quotes no part of it, inline at
// validate nor read from join.tokenFrom at apply.
func TestJoinTokenOfTheOtherKindIsRefusedUnquoted(t *testing.T) {
	worker := fixture.JoinToken("fake00.kindrefusal00000")
	controller := fixture.ControllerJoinToken("fake00.kindrefusal00000")
	for _, c := range []struct{ role, token, want string }{
		{"controller", worker, "join.token: is a worker's join token, but this node is a controller"},
		{"controller+worker", worker, "k0s token create --role=controller"},
		{"worker", controller, "join.token: is a controller's join token, but this node is a worker"},
	} {
		doc := "role: " + c.role + "\ncluster: {endpoint: 192.0.2.100}\njoin:\n  token: " + c.token + "\n"
		code, out, errOut := runCLI(t, "validate", writeConfig(t, "node.yaml", doc))
		if code != exitFailed || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s: validate: exit %d\n%s%s", c.role, code, out, errOut)
		}
		noWindowOf(t, c.token, map[string]string{"stdout": out, "stderr": errOut})
	}

	root := fixture.DemoRoot(t, demo) // a controller+worker
	if err := os.WriteFile(filepath.Join(root, "run/corium/secrets/join-token"), []byte(worker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, demoArgs("apply", root)...)
	if code != exitFailed || !strings.Contains(errOut, "join.tokenFrom: the token read from /run/corium/secrets/join-token is a worker's join token") {
		t.Fatalf("apply with a worker's token: exit %d\n%s%s", code, out, errOut)
	}
	_, raw := readStatus(t, root)
	noWindowOf(t, worker, map[string]string{"stdout": out, "stderr": errOut, "status": raw})
}

// noWindowOf fails on any 12 characters of token in an output, as the leak
// tests search for a secret.
func noWindowOf(t *testing.T, token string, outputs map[string]string) {
	t.Helper()
	for name, text := range outputs {
		for i := 0; i+12 <= len(token); i++ {
			if strings.Contains(text, token[i:i+12]) {
				t.Errorf("%s quotes the token (%q):\n%s", name, token[i:i+12], text)
				break
			}
		}
	}
}
