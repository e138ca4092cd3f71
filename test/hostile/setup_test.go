package hostile

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// runSetup is what every run of the agent against the corpus shares: the
// agent, the secrets and the https server that serves some of them, the
// host facts, an environment with the credentials and the server's CA, and
// the baseline document with its placeholders filled in.
type runSetup struct {
	bin       string
	secrets   map[string]secret
	srv       *httptest.Server
	work      string
	factsFile string
	env       []string
	base      string
}

func newRunSetup(t *testing.T) runSetup {
	t.Helper()
	r := runSetup{bin: agentbin.Path(t), secrets: newSecrets(t), work: t.TempDir()}
	r.srv = secretServer(t, r.secrets)
	ca := tlsserver.CAFile(t, r.srv)
	creds := fixture.CredentialsDir(t, map[string]string{"corium.wg1": r.secrets["CRED_KEY"].value + "\n"})
	r.factsFile = filepath.Join(r.work, "facts.json")
	write(t, r.factsFile, facts, 0o644)
	r.env = append(fixture.CleanEnv(), "CREDENTIALS_DIRECTORY="+creds, "SSL_CERT_FILE="+ca, "SSL_CERT_DIR=/nonexistent")
	template, err := os.ReadFile(filepath.Join(corpus, baseline))
	if err != nil {
		t.Fatal(err)
	}
	r.base = expand(string(template), r.secrets, r.srv.URL)
	return r
}
