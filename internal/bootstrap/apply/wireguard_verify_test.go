package apply_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
)

// TestVerifyComparesWhatTheFileStates changes one thing at a time on devices
// that match the two-interface worker's files, and checks the verifier
// names it: what a reload could leave behind is caught where wgctrl shows it.
func TestVerifyComparesWhatTheFileStates(t *testing.T) {
	step := workerStep(t)
	psk, err := wgtypes.ParseKey(rendertest.PSK)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		iface string
		edit  func(*wgtypes.Device, *applytest.Links)
		want  string // "" when the device still matches
	}{
		{"matching", "wg0", func(*wgtypes.Device, *applytest.Links) {}, ""},
		{"keepalive left on", "wg1", func(d *wgtypes.Device, _ *applytest.Links) { d.Peers[0].PersistentKeepaliveInterval = 25 * time.Second },
			"persistent keepalive is 25s, want off"},
		{"keepalive off", "wg0", func(d *wgtypes.Device, _ *applytest.Links) { d.Peers[0].PersistentKeepaliveInterval = 0 },
			"persistent keepalive is off, want 25s"},
		{"an allowed IP too many", "wg0", func(d *wgtypes.Device, _ *applytest.Links) {
			d.Peers[0].AllowedIPs = append(d.Peers[0].AllowedIPs, net.IPNet{IP: net.IPv4(10, 99, 0, 0).To4(), Mask: net.CIDRMask(16, 32)})
		}, "allowed IPs are 10.10.0.2/32, 10.99.0.0/16, want 10.10.0.2/32"},
		{"a preshared key left on", "wg0", func(d *wgtypes.Device, _ *applytest.Links) { d.Peers[0].PresharedKey = psk },
			"has a preshared key, and the file sets none"},
		{"the preshared key missing", "wg1", func(d *wgtypes.Device, _ *applytest.Links) { d.Peers[0].PresharedKey = wgtypes.Key{} },
			"has no preshared key, and the file sets one"},
		{"another endpoint before any handshake", "wg0", func(d *wgtypes.Device, _ *applytest.Links) {
			d.Peers[0].Endpoint = &net.UDPAddr{IP: net.IPv4(192, 0, 2, 99), Port: 51820}
		}, "endpoint is 192.0.2.99:51820, want 192.0.2.2:51820"},
		{"no endpoint", "wg0", func(d *wgtypes.Device, _ *applytest.Links) { d.Peers[0].Endpoint = nil },
			"endpoint is none, want 192.0.2.2:51820"},
		{"an endpoint roamed after a handshake", "wg0", func(d *wgtypes.Device, _ *applytest.Links) {
			d.Peers[0].Endpoint = &net.UDPAddr{IP: net.IPv4(198, 51, 100, 7), Port: 40000}
			d.Peers[0].LastHandshakeTime = time.Now()
		}, ""},
		{"another MTU", "wg1", func(_ *wgtypes.Device, l *applytest.Links) { l.MTU["wg1"] = 1500 },
			"link MTU is 1500, want 1420"},
	} {
		t.Run(c.name, func(t *testing.T) {
			devs, links := applytest.LiveDevicesFor(t, step)
			c.edit(devs[c.iface], links)
			var e plan.Device
			for _, a := range step.Actions {
				if a.Kind == plan.ActionVerifyDevice && a.Device.Name == c.iface {
					e = *a.Device
				}
			}
			err := apply.Verifier{Devices: devs, Links: links, AddressWait: 150 * time.Millisecond}.Verify(context.Background(), e)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("a matching device failed: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want it to say %q", err, c.want)
			}
			if err != nil && strings.Contains(err.Error(), rendertest.PSK) {
				t.Error("the error shows the preshared key")
			}
		})
	}
}
