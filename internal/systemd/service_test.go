package systemd

import "testing"

// The exit statuses are systemd 257's, by the names systemctl prints:
// 243 is a start whose credentials could not be read or decrypted.
func TestServiceRunExitStatus(t *testing.T) {
	for _, c := range []struct {
		run   ServiceRun
		want  string
		setup bool
	}{
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 243}, "243/CREDENTIALS", true},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 200}, "200/CHDIR", true},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 203}, "203/EXEC", true},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 224}, "224/PAM", true},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 235}, "235/CHOWN", true},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 245}, "245/KSM", true},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 223}, "223", false},
		{ServiceRun{ExecMainCode: 1, ExecMainStatus: 1}, "1", false},
		{ServiceRun{ExecMainCode: 2, ExecMainStatus: 243}, "243", false}, // signal 243 is no exit status
	} {
		if got := c.run.ExitStatus(); got != c.want || c.run.SetupFailed() != c.setup {
			t.Errorf("%+v: %q (set-up failed %v), want %q (%v)", c.run, got, c.run.SetupFailed(), c.want, c.setup)
		}
	}
}
