package host

import (
	"os/exec"
	"testing"
)

// RequireCommands skips (or, under RequireEnv, fails) a test that needs the
// named commands but not root: the test command installs them, so in CI a
// missing one is a broken setup, not a reason to pass.
func RequireCommands(t testing.TB, commands ...string) {
	t.Helper()
	for _, c := range commands {
		if _, err := exec.LookPath(c); err != nil {
			skipOrFail(t, "needs "+c+" on PATH; the test command installs it (make test)")
		}
	}
}
