package agree

import (
	"crypto/rand"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// applyOnly are the refusals only a resolved secret can answer, as apply
// words them: docs/first-boot.md lists each ("What only apply can check").
// With well-formed fakes in place, apply may refuse a document plan
// accepts for these alone.
var applyOnly = []string{
	"is not the public key of the private key read from",
	"is the private key read from",
	"is the secret read for",
	"is this interface's own public key, derived from the private key read from",
	"not a base64 32-byte wireguard key; check the value's source",
	"the password read from",
	"the datasource read from",
	"(the keys as the resolved private keys derive them)",
	"gives this interface the same key pair as",
	"is not a k0s join token",
}

// applies runs apply on a document plan accepted, with a well-formed fake
// for every secret it reads from a file or a credential: WireGuard keys,
// k0s-shaped join tokens, keepalived-sized passwords. A document stating
// the publicKey of a key it reads is skipped (no fake derives a given
// public key), and so is one reading a secret from a URL. It says whether
// apply ran.
func applies(t *testing.T, a agent, d document) bool {
	t.Helper()
	res, err := chain.Find(t.Context(), chain.Options{Root: rootfs.New(t.TempDir()), ConfigFile: d.file, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatalf("plan read it, the test cannot: %v", err)
	}
	doc, _, err := schema.LoadTree(t.Context(), res.Tree, bootstrap.ChecksFor(res)...)
	if err != nil {
		t.Fatalf("plan validated it, the test cannot: %v", err)
	}
	cfg := doc.Config
	for _, wg := range cfg.WireGuard {
		if wg.PublicKey != "" && wg.PrivateKeyFrom != nil {
			t.Logf("apply not run: wireguard %s states the publicKey of a key it reads, which no fake derives", wg.Name)
			return false
		}
	}
	root, creds := t.TempDir(), t.TempDir()
	for _, f := range schema.SecretFields(cfg) {
		switch {
		case f.From == nil:
		case f.From.URL != "":
			t.Logf("apply not run: %s is read from a URL", f.FromPath())
			return false
		case f.From.File != "":
			write(t, filepath.Join(root, f.From.File), fake(t, f.Kind, cfg.Role))
		case f.From.Credential != "":
			write(t, filepath.Join(creds, f.From.Credential), fake(t, f.Kind, cfg.Role))
		}
	}
	code, out, errOut := a.run(t, []string{"CREDENTIALS_DIRECTORY=" + creds}, "apply", "--root", root, "--config", d.file, "--facts", d.facts)
	if code == 0 {
		return true
	}
	for _, m := range applyOnly {
		if strings.Contains(errOut, m) {
			t.Logf("apply alone refuses, as only a resolved secret can tell: %s", m)
			return true
		}
	}
	t.Errorf("plan accepts, apply with well-formed secrets refuses: exit %d\n%s%s", code, out, errOut)
	return true
}

// fake is a well-formed secret of the kind, for a node of role r: a join
// token is of the kind k0s wants for the role.
func fake(t *testing.T, kind schema.SecretKind, r schema.Role) string {
	switch kind {
	case schema.SecretWireGuardKey:
		return fixture.GenKey(t).String() + "\n"
	case schema.SecretPassword:
		return "Fake%pw8\n" // keepalived's 8 characters
	case schema.SecretDataSource:
		return "postgres://k0s:Fake-pw@db.example:5432/k0s\n" // kine's shared database
	}
	bearer := "fake00." + strings.ToLower(rand.Text()[:16])
	if r.IsController() {
		return fixture.ControllerJoinToken(bearer) + "\n"
	}
	return fixture.JoinToken(bearer) + "\n" // k0s's shape
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Each refusal the test tolerates of apply alone is listed in the docs.
func TestApplyOnlyChecksAreDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repo, "docs/first-boot.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range applyOnly {
		if !strings.Contains(string(doc), m) {
			t.Errorf("docs/first-boot.md does not list %q among the checks only apply makes", m)
		}
	}
}
