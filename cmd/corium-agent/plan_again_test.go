package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// demoAgain is the demo config with wg0's first peer moved and wg1 dropped.
func demoAgain(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, "  - name: wg1\n"), strings.Index(s, "firewall:")
	if i < 0 || j < i || !strings.Contains(s, "endpoint: 192.0.2.12:51820") {
		t.Fatal("demo config changed shape")
	}
	s = strings.Replace(s[:i]+s[j:], "endpoint: 192.0.2.12:51820", "endpoint: 192.0.2.22:51820", 1)
	p := filepath.Join(t.TempDir(), "again.yaml")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlanAgainShowsReloadAndRemoval(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	if code, out, errOut := runCLI(t, demoArgs("apply", root)...); code != exitOK {
		t.Fatalf("apply: %d\n%s%s", code, out, errOut)
	}
	before := mtimes(t, root)
	args := []string{"plan", "--again", "--root", root, "--config", demoAgain(t), "--facts", filepath.Join(demo, "facts.json")}
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("plan --again: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"action    reload wg-quick@wg0.service",
		"step wireguard-removed\n",
		"removed   /etc/wireguard/wg1.conf\n",
		"removed   /etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service\n",
		"removed   /etc/systemd/system/wg-quick@wg1.service.d/10-corium-k0s.conf\n",
		"action    stop wg-quick@wg1.service",
		"action    daemon-reload wg-quick@wg0.service k0scontroller.service",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan --again lacks %q:\n%s", want, out)
		}
	}
	for _, never := range []string{"restart wg-quick", "k0s-install", "queue-start", "step marker"} {
		if strings.Contains(out, never) {
			t.Errorf("plan --again shows %q, which an again run never does:\n%s", never, out)
		}
	}
	noDemoSecrets(t, fixture.DemoSecrets(t, demo), map[string]string{"stdout": out, "stderr": errOut})
	after := mtimes(t, root)
	for p, m := range before {
		if !after[p].Equal(m) {
			t.Errorf("plan touched %s", p)
		}
	}
	if len(after) != len(before) {
		t.Error("plan added or removed files")
	}

	// A fresh node has no again run.
	fresh := fixture.DemoRoot(t, demo)
	if code, _, errOut := runCLI(t, "plan", "--again", "--root", fresh, "--config", filepath.Join(demo, "config.yaml")); code != exitFailed || !strings.Contains(errOut, "not provisioned") {
		t.Errorf("plan --again on a fresh node: exit %d, %s", code, errOut)
	}
}
