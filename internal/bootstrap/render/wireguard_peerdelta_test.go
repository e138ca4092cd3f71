package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestAgainPeerDelta: which change of a running interface on an again run becomes
// which step. Whole peers added and removed, the rest the same, are added
// and removed alone (wireguard-peers); a change beside them reloads, as a
// change of the peers that stay must be set by syncconf; a change that
// needs a route restarts, as before.
func TestAgainPeerDelta(t *testing.T) {
	psk := secret.NewValue(fixture.GenKey(t).String())
	rotated := secret.NewValue(fixture.GenKey(t).String())
	peerB := schema.Peer{PublicKey: testPubB, AllowedIPs: []string{"10.10.0.3/32"}}
	peerD := schema.Peer{PublicKey: testPubD, AllowedIPs: []string{"10.10.0.4/32"}, PresharedKey: &psk}
	for _, c := range []struct {
		name string
		was  func(*schema.Config) // the applied document, from twoInterfaceConfig
		edit func(*schema.Config, Secrets)
		want []string // wg0's actions but the verify, with their OnChange
	}{
		{"a peer added", nil, func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, peerB)
		}, peersActions("wg0 add=" + testPubB)},
		{"a peer with a preshared key added", nil, func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, peerD)
		}, peersActions("wg0 add=" + testPubD)},
		{"a peer removed", withPeers(peerB), func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers = c.WireGuard[0].Peers[:1]
		}, peersActions("wg0 remove=" + testPubB)},
		{"one added and one removed at once", withPeers(peerB), func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers = []schema.Peer{c.WireGuard[0].Peers[0], peerD}
		}, peersActions("wg0 add=" + testPubD + " remove=" + testPubB)},
		{"a peer replaced by another key with its allowed IPs", withPeers(peerB), func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers[1].PublicKey = testPubD
		}, peersActions("wg0 add=" + testPubD + " remove=" + testPubB)},
		{"a peer added and the other's endpoint changed", nil, func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers[0].Endpoint = "192.0.2.77:51820"
			c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, peerB)
		}, reloadActions},
		{"a peer added and the other's allowed IPs grown", nil, func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers[0].AllowedIPs = []string{"10.10.0.2/32", "10.10.0.9/32"}
			c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, peerB)
		}, reloadActions},
		{"a peer added and the listen port changed", nil, func(c *schema.Config, _ Secrets) {
			port := 51999
			c.WireGuard[0].ListenPort = &port
			c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, peerB)
		}, reloadActions},
		{"a peer removed and the private key changed", withPeers(peerB), func(c *schema.Config, _ Secrets) {
			key := secret.NewValue(testPrivD)
			c.WireGuard[0].PrivateKey = &key
			c.WireGuard[0].Peers = c.WireGuard[0].Peers[:1]
		}, reloadActions},
		{"a peer added whose allowed IPs need a route", nil, func(c *schema.Config, _ Secrets) {
			c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, schema.Peer{PublicKey: testPubB, AllowedIPs: []string{"10.99.0.0/16"}})
		}, restartActions},
		{"nothing changed", nil, func(*schema.Config, Secrets) {}, reloadActions},
		{"the peers reordered", withPeers(peerB), func(c *schema.Config, _ Secrets) {
			p := c.WireGuard[0].Peers
			c.WireGuard[0].Peers = []schema.Peer{p[1], p[0]}
		}, reloadActions},
	} {
		t.Run(c.name, func(t *testing.T) {
			applied := twoInterfaceConfig(schema.RoleWorker)
			if c.was != nil {
				c.was(applied)
			}
			next := twoInterfaceConfig(schema.RoleWorker)
			if c.was != nil {
				c.was(next)
			}
			secrets := twoInterfaceSecrets()
			c.edit(next, secrets)
			steps, err := RenderOverlay(Inputs{Config: next, Secrets: secrets, Previous: previousOf(t, applied)})
			if err != nil {
				t.Fatal(err)
			}
			got := actionsOf(steps[0], "wg0")
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("wg0's actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			// wg1 is unchanged: its file is the same, its reload never runs.
			if got := actionsOf(steps[0], "wg1"); strings.Join(got, "\n") != strings.Join(reloadActionsOf("wg1"), "\n") {
				t.Errorf("wg1's actions:\n%s", strings.Join(got, "\n"))
			}
			js, _ := json.Marshal(steps)
			var text []string
			for _, a := range steps[0].Actions {
				text = append(text, a.String())
			}
			for _, v := range []string{psk.Reveal(), testPSK, testPrivA, testPrivD} {
				if strings.Contains(string(js)+strings.Join(text, "\n"), v) {
					t.Errorf("the plan's actions hold a secret (%s...)", v[:4])
				}
			}
		})
	}

	// A preshared key rotated in its source changes the file and not the
	// document: the peer is a changed one, and syncconf sets the new key.
	t.Run("a preshared key rotated beside a peer added", func(t *testing.T) {
		applied, next := twoInterfaceConfig(schema.RoleWorker), twoInterfaceConfig(schema.RoleWorker)
		next.WireGuard[1].Peers = append(next.WireGuard[1].Peers, schema.Peer{PublicKey: testPubD, AllowedIPs: []string{"fd20::5/128"}})
		secrets := twoInterfaceSecrets()
		secrets["wireguard[1].peers[0].presharedKeyFrom"] = rotated
		steps, err := RenderOverlay(Inputs{Config: next, Secrets: secrets, Previous: previousOf(t, applied)})
		if err != nil {
			t.Fatal(err)
		}
		if got := actionsOf(steps[0], "wg1"); strings.Join(got, "\n") != strings.Join(reloadActionsOf("wg1"), "\n") {
			t.Errorf("wg1's actions:\n%s\nwant a reload", strings.Join(got, "\n"))
		}
		// The control: the same addition with the key as it was.
		steps, err = RenderOverlay(Inputs{Config: next, Secrets: twoInterfaceSecrets(), Previous: previousOf(t, applied)})
		if err != nil {
			t.Fatal(err)
		}
		if got := actionsOf(steps[0], "wg1"); !slicesHasPrefix(got, "wireguard-peers wg-quick@wg1.service wg1 add="+testPubD) {
			t.Errorf("wg1's actions with the key unchanged:\n%s\nwant wireguard-peers", strings.Join(got, "\n"))
		}
	})

	// Without the last run's file there is nothing to compare: a reload.
	t.Run("no file from the last run", func(t *testing.T) {
		applied, next := twoInterfaceConfig(schema.RoleWorker), twoInterfaceConfig(schema.RoleWorker)
		next.WireGuard[0].Peers = append(next.WireGuard[0].Peers, peerB)
		prev := previousOf(t, applied)
		delete(prev.Confs, "wg0")
		steps, err := RenderOverlay(Inputs{Config: next, Secrets: twoInterfaceSecrets(), Previous: prev})
		if err != nil {
			t.Fatal(err)
		}
		if got := actionsOf(steps[0], "wg0"); slicesHasPrefix(got, "wireguard-peers") {
			t.Errorf("wg0's actions without the last file:\n%s", strings.Join(got, "\n"))
		}
	})
}

func withPeers(peers ...schema.Peer) func(*schema.Config) {
	return func(c *schema.Config) { c.WireGuard[0].Peers = append(c.WireGuard[0].Peers, peers...) }
}

func peersActions(words string) []string {
	return []string{
		"start wg-quick@wg0.service ",
		"wireguard-peers wg-quick@wg0.service " + words + " /etc/wireguard/wg0.conf",
	}
}

var (
	reloadActions  = reloadActionsOf("wg0")
	restartActions = []string{
		"restart wg-quick@wg0.service /etc/wireguard/wg0.conf",
		"start wg-quick@wg0.service ",
	}
)

func reloadActionsOf(iface string) []string {
	return []string{
		"start wg-quick@" + iface + ".service ",
		"reload wg-quick@" + iface + ".service /etc/wireguard/" + iface + ".conf",
	}
}

// actionsOf is the step's actions on iface's unit but its verify, each with
// what it depends on.
func actionsOf(s plan.Step, iface string) []string {
	var out []string
	for _, a := range s.Actions {
		if a.Unit == plan.WgQuickUnit(iface) && a.Kind != plan.ActionVerifyDevice {
			out = append(out, a.String()+" "+strings.Join(a.OnChange, ","))
		}
	}
	return out
}

func slicesHasPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
