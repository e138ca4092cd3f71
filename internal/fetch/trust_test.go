package fetch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// The system store is read once per process, so SSL_CERT_FILE is proved in a
// child process: the test binary itself, which TestMain turns into a one-shot
// fetch.
func TestSystemTrustStoreHonoursSSLCertFile(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "trusted"})
	ca := tlsserver.CAFile(t, srv.Server)
	for _, tc := range []struct {
		certFile string
		want     string
	}{
		{ca, "body: trusted"},
		{"/dev/null", "certificate"},
	} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "CORIUM_FETCH_HELPER_URL="+srv.URL, "SSL_CERT_FILE="+tc.certFile, "SSL_CERT_DIR=/nonexistent")
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("SSL_CERT_FILE=%s: output lacks %q:\n%s", tc.certFile, tc.want, out)
		}
	}
}

func TestMain(m *testing.M) {
	if u := os.Getenv("CORIUM_FETCH_HELPER_URL"); u != "" {
		body, err := New().Get(context.Background(), Request{URL: u})
		if err != nil {
			fmt.Println("error:", err)
		} else {
			fmt.Println("body:", string(body))
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
