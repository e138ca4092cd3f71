package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestGoldenConfsComeUp brings every rendered wg-quick file of the golden
// scenarios up with the real wg-quick (userspace wireguard-go), each in a
// namespace of its own, and verifies the live device against the plan's
// expectation: the files are not only stable, wg-quick takes them as meant.
func TestGoldenConfsComeUp(t *testing.T) {
	host.RequireRoot(t, "wg-quick", "wg", "wireguard-go", "ip")
	wg := netns.WireGuardClient(t)
	for _, s := range loadScenarios(t) {
		step, err := renderScenario(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range step.Actions {
			if a.Kind != plan.ActionVerifyDevice {
				continue
			}
			e := *a.Device
			t.Run(s.name+"/"+e.Name, func(t *testing.T) {
				conf := fileAt(t, step, WireGuardConfPath(e.Name))
				// A name of its own: UAPI sockets are shared by all namespaces.
				e.Name = "cg" + fixture.RandHex(6)
				path := filepath.Join(t.TempDir(), e.Name+".conf")
				if err := os.WriteFile(path, conf.Content, conf.Mode); err != nil {
					t.Fatal(err)
				}
				ns := netns.New(t, "cg")
				ns.WgQuickUp(t, path)
				v := apply.Verifier{Devices: wg, Links: ns.Netlink(t), AddressWait: 2 * time.Second}
				if err := v.Verify(context.Background(), e); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(conf.Content), "MTU = ") {
					out := ns.Run(t, "ip", "link", "show", e.Name)
					if !strings.Contains(out, "mtu "+mtuOf(string(conf.Content))) {
						t.Errorf("MTU not applied: %s", out)
					}
				}
			})
		}
	}
}

func mtuOf(conf string) string {
	for _, line := range strings.Split(conf, "\n") {
		if v, ok := strings.CutPrefix(line, "MTU = "); ok {
			return v
		}
	}
	return ""
}
