package bootstrap

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// provisionedDemo is a demo root after a first boot.
func provisionedDemo(t *testing.T) rootfs.Root {
	t.Helper()
	root := newDemoRoot(t)
	if _, err := Run(context.Background(), demoOptions(root, nil)); err != nil {
		t.Fatal(err)
	}
	return root
}

// editedDemoConfig is the demo config with each old→new replacement made.
func editedDemoConfig(t *testing.T, edits ...string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(demoDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("demo config lacks %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func again(t *testing.T, root rootfs.Root, config string) (*status.Status, *applytest.RecordingLive, error) {
	t.Helper()
	o := demoOptions(root, nil)
	o.ConfigFile, o.Again = config, true
	live := &applytest.RecordingLive{}
	o.Live, o.LiveUnderRoot = live, true
	st, err := Run(context.Background(), o)
	return st, live, err
}

// An endpoint change is carried by a reload: a restart of wg-quick@wg1
// would restart k0s too, which Requires= it.
func TestAgainEndpointChangeReloadsOnlyThatInterface(t *testing.T) {
	root := provisionedDemo(t)
	before := snapshot(t, root)
	st, live, err := again(t, root, editedDemoConfig(t, "endpoint: 203.0.113.7:51821", "endpoint: 203.0.113.8:51821"))
	if err != nil || st.Outcome != status.Converged {
		t.Fatalf("again: %v (%s)", err, st.Outcome)
	}
	after := snapshot(t, root)
	changed := map[string]bool{}
	for p, b := range before {
		if after[p] != b {
			changed[p] = true
		}
	}
	if !changed["/etc/wireguard/wg1.conf"] || !strings.Contains(after["/etc/wireguard/wg1.conf"].Content, "Endpoint = 203.0.113.8:51821") {
		t.Errorf("wg1.conf not rewritten with the new endpoint")
	}
	delete(changed, "/etc/wireguard/wg1.conf")
	delete(changed, status.AppliedPath) // records the new document
	delete(changed, status.DevicesPath) // records what wg1 must now be
	if len(changed) > 0 {
		t.Errorf("the again run rewrote more than the changed interface: %v", changed)
	}
	text := live.Text()
	if !strings.Contains(text, "start wg-quick@wg1.service\nreload wg-quick@wg1.service\n") {
		t.Errorf("wg1 not reloaded:\n%s", text)
	}
	for _, never := range []string{"restart ", "reload wg-quick@wg0.service", "k0s-install", "queue-start", "daemon-reload", "firewall", "hostname", "stop "} {
		if strings.Contains(text, never) {
			t.Errorf("the again run performed %q:\n%s", never, text)
		}
	}
	if root.Exists(status.MarkerPath) != true {
		t.Error("marker gone after the again run")
	}
}

func TestAgainPublicPortsConvergeTheGuard(t *testing.T) {
	root := provisionedDemo(t)
	st, live, err := again(t, root, editedDemoConfig(t, "publicPorts: [6443]", "publicPorts: [6443, 10250]"))
	if err != nil || st.Outcome != status.Converged {
		t.Fatalf("again: %v", err)
	}
	g, _ := root.ReadFile(firewall.FilePath)
	if !strings.Contains(string(g), "10250") {
		t.Errorf("guard file not updated:\n%s", g)
	}
	if !strings.Contains(live.Text(), "firewall\n") || strings.Contains(live.Text(), "restart ") {
		t.Errorf("want the guard re-programmed and no restart:\n%s", live.Text())
	}
}

func TestAgainRefusesAndChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edits  []string
		fields []string
	}{
		{"role", []string{"role: controller+worker", "role: controller"}, []string{"role"}},
		{"cluster.name", []string{"name: demo\n", "name: other\n"}, []string{"cluster.name"}},
		{"both", []string{"role: controller+worker", "role: controller", "name: demo\n", "name: other\n"}, []string{"role", "cluster.name"}},
		{"node address", []string{"address: 10.10.0.1/24", "address: 10.10.0.9/24"}, []string{"wireguard[0].address[0]"}},
		{"network", []string{"join:", "network: {podCIDR: 10.250.0.0/16}\njoin:"}, []string{"network.podCIDR"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := provisionedDemo(t)
			before := snapshot(t, root)
			st, live, err := again(t, root, editedDemoConfig(t, tc.edits...))
			if err == nil || st.Outcome != status.Refused {
				t.Fatalf("not refused: %v (%s)", err, st.Outcome)
			}
			for _, f := range tc.fields {
				if !strings.Contains(err.Error(), f) {
					t.Errorf("error does not name %s: %v", f, err)
				}
			}
			if len(st.Refusals) != len(tc.fields) {
				t.Errorf("refusals %v, want one per field %v", st.Refusals, tc.fields)
			}
			if live.Text() != "" {
				t.Errorf("a refused run acted:\n%s", live.Text())
			}
			after := snapshot(t, root)
			for p, b := range before {
				if after[p] != b {
					t.Errorf("%s changed by a refused run", p)
				}
			}
			if len(after) != len(before) {
				t.Errorf("a refused run added files")
			}
		})
	}
}

func TestAgainNeedsAProvisionedNode(t *testing.T) {
	root := newDemoRoot(t)
	st, _, err := again(t, root, filepath.Join(demoDir, "config.yaml"))
	if err == nil || !strings.Contains(err.Error(), "not provisioned") || st.Outcome != status.Failed {
		t.Fatalf("again on a fresh node: %v", err)
	}
}
