package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// A CNI MTU k0s.patch sets larger than the overlay lets a pod's packet have
// is refused with one verdict by validate (against a stated mtu), validate
// --facts, plan and apply (against the MTU the wg-quick file states,
// derived on the facts when unset), naming the patch's field and the most
// it may be; one that fits passes all of them.
func TestPatchedCNIMTUOverTheOverlay(t *testing.T) {
	base, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The demo's facts with a default route of MTU 1400: wg0, the node
	// address's interface, derives 1320, and kube-router's IP-in-IP takes
	// 20 more, so pods may have 1300.
	facts := writeConfig(t, "facts.json", `{"interfaces": [{"name": "eth0", "addresses": ["192.0.2.11/24"]}, {"name": "wg0", "addresses": ["10.10.0.1/24"]}, {"name": "wg1", "addresses": ["10.20.0.1/24"]}],
"defaultRoute": {"interface": "eth0", "source": "192.0.2.11", "mtu": 1400}}`)
	field := patchPath("spec.network.kuberouter.mtu") + ": "
	for _, c := range []struct {
		name   string
		stated bool // wg0 states mtu: 1400 (kube-router may have 1380)
		mtu    string
		// want is the refusal; "" when all pass. validateAlone is whether
		// validate without facts knows it (only against a stated mtu).
		want          string
		validateAlone bool
	}{
		{name: "stated mtu, too large", stated: true, mtu: "1390", validateAlone: true,
			want: field + "is 1390, larger than the 1380 a pod's packet may have over the overlay: wireguard[0].mtu, 1400, less 20 for kube-router's IP-in-IP between nodes; set it to at most 1380, or remove it from k0s.patch and the agent derives it\n"},
		{name: "derived mtu, too large", mtu: "1350",
			want: field + "is 1350, larger than the 1300 a pod's packet may have over the overlay: wg0's MTU, 1320, less 20 for kube-router's IP-in-IP between nodes; set it to at most 1300, or remove it from k0s.patch and the agent derives it (wg0's MTU, unset, is the default route's MTU, 1400, less 80 (no peer endpoint is an address with a route))\n"},
		{name: "derived mtu, fits", mtu: "1300"},
		{name: "stated mtu, fits", stated: true, mtu: "1380"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := string(base)
			if c.stated {
				doc = strings.Replace(doc, "    nodeAddress: true\n", "    nodeAddress: true\n    mtu: 1400\n", 1)
			}
			config := writeConfig(t, "config.yaml", doc+"k0s:\n  patch:\n    spec: {network: {kuberouter: {mtu: "+c.mtu+"}}}\n")
			check := func(what string, code int, out string, refuses bool) {
				t.Helper()
				switch {
				case refuses && (code != exitFailed || !strings.Contains(out, c.want)):
					t.Errorf("%s: exit %d, want the refusal %q:\n%s", what, code, c.want, out)
				case !refuses && code != exitOK:
					t.Errorf("%s: exit %d, want it to pass:\n%s", what, code, out)
				}
			}
			refused := c.want != ""
			code, out, errOut := runCLI(t, "validate", config)
			check("validate", code, out+errOut, refused && c.validateAlone)
			code, out, errOut = runCLI(t, "validate", "--facts", facts, config)
			check("validate --facts", code, out+errOut, refused)
			for _, cmd := range []string{"plan", "apply"} {
				code, out, errOut := runCLI(t, cmd, "--root", fixture.DemoRoot(t, demo), "--config", config, "--facts", facts)
				check(cmd, code, out+errOut, refused)
			}
		})
	}
}
