package main

import (
	"strings"
	"testing"
)

// The last line validate prints is the verdict, and it is true: a run that
// fails ends in "invalid" with what failed it (errors, or warnings under
// --strict), never in a finding or a "valid"; the cluster's line too.
func TestValidateVerdictIsTheLastLine(t *testing.T) {
	warn := writeConfig(t, "warn.yaml", "role: worker\njoin: {tokenFrom: {file: /run/t}}\nwireguard:\n  - name: wg0\n    address: 10.10.0.5/24\n    privateKeyFrom: {credential: c}\n    peers:\n      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=\n        endpoint: 192.0.2.1:51820\n        allowedIPs: [10.10.0.0/24]\n")
	bad := writeConfig(t, "bad.yaml", "role: worker\nversion: 2\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		last string
	}{
		{"warnings", []string{"validate", warn}, exitOK, warn + ": valid"},
		{"warnings under --strict", []string{"validate", "--strict", warn}, exitFailed, warn + ": invalid with --strict: 1 warning"},
		{"an error", []string{"validate", bad}, exitFailed, bad + ": invalid: 2 errors"},
		{"an error under --strict", []string{"validate", "--strict", bad}, exitFailed, bad + ": invalid: 2 errors"},
		{"the cluster under --strict", append([]string{"validate", "--strict", "--cluster"}, threeNodes[0], threeNodes[1], threeNodes[1]), exitFailed, "cluster of 3 files: invalid: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, _ := runCLI(t, tc.args...)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if last := lines[len(lines)-1]; code != tc.code || !strings.HasPrefix(last, tc.last) {
				t.Errorf("exit %d ending %q, want %d ending %q\n%s", code, last, tc.code, tc.last, out)
			}
		})
	}
}
