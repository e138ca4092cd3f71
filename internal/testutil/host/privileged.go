package host

import (
	"os"
	"os/exec"
	"testing"
)

// RequireEnv is set by the test command in CI; with it, a privileged test that
// cannot run fails instead of skipping, so a green run means it ran.
const RequireEnv = "CORIUM_REQUIRE_PRIVILEGED"

// RequireRoot skips (or, under RequireEnv, fails) a test that needs root and
// the named commands.
func RequireRoot(t testing.TB, commands ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		skipOrFail(t, "needs root (network namespaces, nftables, systemd-nspawn)")
	}
	for _, c := range commands {
		if _, err := exec.LookPath(c); err != nil {
			skipOrFail(t, "needs "+c+" on PATH; the test command installs it (make test)")
		}
	}
}

func skipOrFail(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("privileged test cannot run: %s", why)
	}
	t.Skip(why)
}
