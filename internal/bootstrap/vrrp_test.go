package bootstrap

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
)

// twoNICs is a host with two NICs: the default route leaves through eth0,
// and eth1 is on lan; without a default route when lan is "".
func twoNICs(lan string) string {
	if lan == "" {
		return `{"interfaces": [{"name": "eth0", "addresses": ["203.0.113.50/24"]}, {"name": "eth1", "addresses": ["198.51.100.11/24"]}]}`
	}
	return `{"interfaces": [{"name": "eth0", "addresses": ["203.0.113.50/24"]}, {"name": "eth1", "addresses": ["` + lan + `"]}],
  "defaultRoute": {"interface": "eth0", "source": "203.0.113.50"}}`
}

// demoUnsetVRRP is the demo with ha.interface unset, on a host of facts.
func demoUnsetVRRP(t *testing.T, facts string) (cfgPath, factsPath string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(demoDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const at = "  interface: eth0\n"
	if !bytes.Contains(data, []byte(at)) {
		t.Fatal("the demo no longer names ha.interface eth0")
	}
	dir := t.TempDir()
	cfgPath, factsPath = filepath.Join(dir, "config.yaml"), filepath.Join(dir, "facts.json")
	if err := os.WriteFile(cfgPath, bytes.Replace(data, []byte(at), nil, 1), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(factsPath, []byte(facts), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfgPath, factsPath
}

// plan says which interface the agent chose for VRRP and the source, and
// apply writes it into k0s.yaml.
func TestVRRPInterfaceChosenFromThePeers(t *testing.T) {
	root := newDemoRoot(t)
	o := demoOptions(root, nil)
	o.ConfigFile, o.FactsFile = demoUnsetVRRP(t, twoNICs("192.0.2.11/24"))
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	const note = "ha: ha.interface is unset; eth1 reaches ha.unicastPeers (its network holds them); keepalived runs there and sends from 192.0.2.11"
	if !slices.Contains(rep.Notes, note) {
		t.Errorf("plan notes %q, want %q", rep.Notes, note)
	}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	conf, err := root.ReadFile("/etc/k0s/k0s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"interface: eth1\n", "unicastSourceIP: 192.0.2.11\n", "unicastPeers:\n              - 192.0.2.12\n              - 192.0.2.13\n"} {
		if !strings.Contains(string(conf), want) {
			t.Errorf("k0s.yaml lacks %q:\n%s", want, conf)
		}
	}
}

// Peers that no interface of the host reaches (no network holds them, no
// default route) fail the run before anything is written, naming the first
// of them.
func TestVRRPUnreachablePeersWriteNothing(t *testing.T) {
	root := newDemoRoot(t)
	before := snapshot(t, root)
	o := demoOptions(root, nil)
	o.ConfigFile, o.FactsFile = demoUnsetVRRP(t, twoNICs(""))
	live := &applytest.RecordingLive{}
	o.Live, o.LiveUnderRoot = live, true
	_, err := Run(context.Background(), o)
	const want = "rendering the node: ha.unicastPeers[0]: no interface of this host reaches it"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	sameTree(t, before, snapshot(t, root))
	if live.Text() != "" {
		t.Errorf("live actions ran:\n%s", live.Text())
	}
}
