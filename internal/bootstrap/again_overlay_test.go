package bootstrap

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/status"
)

func TestAgainRestartsWhatAReloadCannotCarry(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []string
	}{
		{"mtu", []string{"mtu: 1380", "mtu: 1280"}},
		{"address", []string{"address: 10.20.0.1/24", "address: 10.20.0.9/24"}},
		{"a routed allowed IP", []string{"allowedIPs: [10.20.0.0/24]", "allowedIPs: [10.20.0.0/24, 10.99.0.0/16]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := provisionedDemo(t)
			st, live, err := again(t, root, editedDemoConfig(t, tc.edits...))
			if err != nil || st.Outcome != status.Converged {
				t.Fatalf("again: %v (%s)", err, st.Outcome)
			}
			text := live.Text()
			if !strings.Contains(text, "restart wg-quick@wg1.service\n") || strings.Contains(text, "reload wg-quick@") || strings.Contains(text, "restart wg-quick@wg0") {
				t.Errorf("want only wg1 restarted, nothing reloaded:\n%s", text)
			}
		})
	}
}

// wg1's block of the demo, from its name to the firewall.
func demoWithoutWg1(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(demoDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, "  - name: wg1\n"), strings.Index(s, "firewall:")
	if i < 0 || j < i {
		t.Fatal("demo config changed shape: no wg1 block before firewall")
	}
	return editedDemoConfig(t, s[i:j], "")
}

func TestAgainRemovesADroppedInterface(t *testing.T) {
	root := provisionedDemo(t)
	config := demoWithoutWg1(t)
	st, live, err := again(t, root, config)
	if err != nil || st.Outcome != status.Converged {
		t.Fatalf("again: %v (%s)", err, st.Outcome)
	}
	wants := "/etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service"
	for _, gone := range []string{"/etc/wireguard/wg1.conf", wants} {
		if root.Exists(gone) {
			t.Errorf("%s still there", gone)
		}
	}
	dropIn, _ := root.ReadFile("/etc/systemd/system/k0scontroller.service.d/10-corium-wireguard.conf")
	if strings.Contains(string(dropIn), "wg1") {
		t.Errorf("k0s still requires wg1:\n%s", dropIn)
	}
	applied, _ := root.ReadFile(status.AppliedPath)
	if strings.Contains(string(applied), "wg1") {
		t.Error("the record still names wg1")
	}
	text := live.Text()
	reload, stop := strings.Index(text, "daemon-reload "), strings.Index(text, "stop wg-quick@wg1.service\n")
	if reload < 0 || stop < 0 || reload > stop || strings.Count(text, "daemon-reload") != 1 {
		t.Errorf("want systemd reloaded once, with the new drop-in, before wg1 is stopped:\n%s", text)
	}
	if strings.Contains(text, "restart ") || strings.Contains(text, "queue-start") {
		t.Errorf("removing wg1 restarted or started something:\n%s", text)
	}
	var removed []string
	for _, s := range st.Steps {
		for _, f := range s.Files {
			if f.Change == plan.ChangeRemoved {
				removed = append(removed, s.Name+" "+f.Path)
			}
		}
	}
	if strings.Join(removed, ",") != render.StepWireGuardRemoved+" /etc/wireguard/wg1.conf,"+render.StepWireGuardRemoved+" "+wants+","+
		render.StepWireGuardRemoved+" "+render.WgQuickK0sDropInPath("wg1") {
		t.Errorf("status reports removed %v", removed)
	}

	js, _ := json.Marshal(st)
	for _, v := range demoSecrets(t) {
		if strings.Contains(string(js)+text, v) {
			t.Errorf("the again run's status or actions hold a secret value (%s...)", v[:4])
		}
	}

	// Converged: the same document again changes and stops nothing.
	before := snapshot(t, root)
	_, live, err = again(t, root, config)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(live.Text(), "wg1") || strings.Contains(live.Text(), "restart") {
		t.Errorf("second run acted:\n%s", live.Text())
	}
	sameTree(t, before, snapshot(t, root))
}
