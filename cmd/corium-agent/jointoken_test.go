package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// badToken is what went into /etc/k0s/join-token before tokens were
// checked: any bytes. Its parts are searched for in every output.
const badToken = "FAKE-9f3c71d2ab64e05f"

// validate refuses an inline join.token that is not k0s's shape by its
// field and without quoting it; a well-formed fake passes.
func TestValidateRefusesAJoinTokenOfAnotherShape(t *testing.T) {
	doc := "role: worker\njoin:\n  token: %s\n"
	bad := writeConfig(t, "bad.yaml", strings.Replace(doc, "%s", badToken, 1))
	code, out, errOut := runCLI(t, "validate", bad)
	if code != exitFailed || !strings.Contains(out+errOut, "join.token: is not a k0s join token") || !strings.Contains(out+errOut, "k0s token create --role=worker") {
		t.Errorf("validate: exit %d\n%s%s", code, out, errOut)
	}
	noTokenPart(t, map[string]string{"stdout": out, "stderr": errOut})
	good := writeConfig(t, "good.yaml", strings.Replace(doc, "%s", fixture.JoinToken(""), 1))
	if code, out, errOut := runCLI(t, "validate", good); code != exitOK {
		t.Errorf("validate of a well-formed fake token: exit %d\n%s%s", code, out, errOut)
	}
}

// apply refuses a token read from join.tokenFrom that is not k0s's shape
// before it writes anything, naming the field and never the value.
func TestApplyRefusesAResolvedJoinTokenOfAnotherShape(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	if err := os.WriteFile(filepath.Join(root, "run/corium/secrets/join-token"), []byte(badToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, demoArgs("apply", root)...)
	if code != exitFailed || !strings.Contains(errOut, "join.tokenFrom: the token read from /run/corium/secrets/join-token is not a k0s join token") {
		t.Fatalf("apply with a token of another shape: exit %d\n%s%s", code, out, errOut)
	}
	st, raw := readStatus(t, root)
	if st.Outcome != status.Failed || !strings.Contains(st.Error, "join.tokenFrom") {
		t.Errorf("status: %s", raw)
	}
	if r := rootfs.New(root); r.Exists(status.MarkerPath) || r.Exists("/etc/k0s/join-token") || r.Exists("/etc/wireguard/wg0.conf") {
		t.Error("a run refusing its token wrote files")
	}
	noTokenPart(t, map[string]string{"stdout": out, "stderr": errOut, "status": raw})
}

// noTokenPart fails on any 8 characters of badToken in an output.
func noTokenPart(t *testing.T, outputs map[string]string) {
	t.Helper()
	for name, text := range outputs {
		for i := 0; i+8 <= len(badToken); i++ {
			if strings.Contains(text, badToken[i:i+8]) {
				t.Errorf("%s quotes the token (%q):\n%s", name, badToken[i:i+8], text)
				break
			}
		}
	}
}
