package render

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

func BenchmarkRenderWireGuard(b *testing.B) {
	cfg, secrets := twoInterfaceConfig(schema.RoleControllerWorker), twoInterfaceSecrets()
	for b.Loop() {
		if _, err := RenderWireGuard(cfg, secrets); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSelectNodeAddress(b *testing.B) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	cfg.WireGuard[0].NodeAddress = false
	f, err := hostfacts.Parse([]byte(`{"interfaces":[{"name":"lo","addresses":["127.0.0.1/8"]},
		{"name":"eth0","addresses":["192.0.2.5/24","2001:db8::5/64"]},{"name":"wg0","addresses":["10.10.0.1/24"]},
		{"name":"kube-bridge","addresses":["10.244.0.1/24"]}],"defaultRoute":{"interface":"eth0","source":"192.0.2.5"}}`))
	if err != nil {
		b.Fatal(err)
	}
	eff := schema.Effective(cfg) // computed once per document, as the run does
	for b.Loop() {
		if d := SelectNodeAddress(cfg, eff, f); !d.Address.IsValid() {
			b.Fatal(d.Reason)
		}
	}
}

// BenchmarkOverlayUpAndVerify measures what the first boot waits for per
// interface: the real wg-quick bringing a rendered file up (userspace
// wireguard-go here; the image uses the kernel module), then the agent's
// verification, then wg-quick down.
func BenchmarkOverlayUpAndVerify(b *testing.B) {
	host.RequireRoot(b, "wg-quick", "wireguard-go")
	cfg := twoInterfaceConfig(schema.RoleWorker)
	cfg.WireGuard = cfg.WireGuard[:1]
	step, err := RenderWireGuard(cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	var e plan.Device
	for _, a := range step.Actions {
		if a.Kind == plan.ActionVerifyDevice {
			e = *a.Device
		}
	}
	e.Name = "cbench" + fixture.RandHex(6)
	conf := filepath.Join(b.TempDir(), e.Name+".conf")
	for _, f := range step.Files {
		if f.Path == WireGuardConfPath("wg0") {
			if err := os.WriteFile(conf, f.Content, f.Mode); err != nil {
				b.Fatal(err)
			}
		}
	}
	ns := netns.New(b, "cbench")
	wg := netns.WireGuardClient(b)
	v := apply.Verifier{Devices: wg, Links: ns.Netlink(b), AddressWait: 5 * time.Second}
	b.Cleanup(func() { netns.KillWireGuardGo(e.Name) })
	for b.Loop() {
		if out, err := ns.WgQuick("up", conf); err != nil {
			b.Fatalf("wg-quick up: %v\n%s", err, out)
		}
		if err := v.Verify(context.Background(), e); err != nil {
			b.Fatal(err)
		}
		if out, err := ns.WgQuick("down", conf); err != nil {
			b.Fatalf("wg-quick down: %v\n%s", err, out)
		}
	}
}
