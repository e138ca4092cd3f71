package testutil

import (
	"os"
	"strings"
)

// CleanEnv is the test's environment without what a run under systemd would
// set (NOTIFY_SOCKET, CREDENTIALS_DIRECTORY, JOURNAL_STREAM) or a trust store
// override, so a test adds exactly what it means to.
func CleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "NOTIFY_SOCKET", "CREDENTIALS_DIRECTORY", "SSL_CERT_FILE", "SSL_CERT_DIR", "JOURNAL_STREAM":
			continue
		}
		out = append(out, kv)
	}
	return out
}
