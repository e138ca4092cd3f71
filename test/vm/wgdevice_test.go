package vm

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wgConf is a wg(8) configuration as its sections' keys: the interface's
// and each peer's by public key, allowed IPs as a sorted set.
type wgConf struct {
	iface map[string]string
	peers map[string]map[string]string
}

// parseWGConf reads `wg showconf` or `wg-quick strip` output.
func parseWGConf(text string) wgConf {
	c := wgConf{iface: map[string]string{}, peers: map[string]map[string]string{}}
	var cur map[string]string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case l == "[Interface]":
			cur = c.iface
		case l == "[Peer]":
			cur = map[string]string{}
		default:
			k, v, ok := strings.Cut(l, "=")
			if !ok || cur == nil {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if k == "AllowedIPs" {
				ips := strings.Split(strings.ReplaceAll(v, " ", ""), ",")
				slices.Sort(ips)
				v = strings.Join(ips, ",")
			}
			cur[k] = v
			if k == "PublicKey" {
				c.peers[v] = cur
			}
		}
	}
	return c
}

// secretKeys are compared but never shown.
var secretKeys = map[string]bool{"PrivateKey": true, "PresharedKey": true}

// wgDiff names every difference between the device and the file, by
// field, never with a key's value.
func wgDiff(device, file wgConf) []string {
	var d []string
	field := func(where, k, dv, fv string) {
		if dv == fv {
			return
		}
		if secretKeys[k] {
			d = append(d, fmt.Sprintf("%s %s differs (set on the device: %t, in the file: %t)", where, k, dv != "", fv != ""))
			return
		}
		d = append(d, fmt.Sprintf("%s %s: device %q, file %q", where, k, dv, fv))
	}
	for _, k := range []string{"ListenPort", "PrivateKey", "FwMark"} {
		field("interface", k, device.iface[k], file.iface[k])
	}
	for pk, fp := range file.peers {
		dp, ok := device.peers[pk]
		if !ok {
			d = append(d, "peer "+pk+" is in the file, not on the device")
			continue
		}
		for _, k := range []string{"PresharedKey", "AllowedIPs", "Endpoint", "PersistentKeepalive"} {
			field("peer "+pk, k, dp[k], fp[k])
		}
	}
	for pk := range device.peers {
		if _, ok := file.peers[pk]; !ok {
			d = append(d, "peer "+pk+" is on the device, not in the file (a leftover)")
		}
	}
	slices.Sort(d)
	return d
}

// deviceVsFile compares wg0's kernel state with /etc/wireguard/wg0.conf.
func deviceVsFile(t *testing.T, m *Machine) []string {
	t.Helper()
	return wgDiff(parseWGConf(m.MustExec("wg", "showconf", "wg0")), parseWGConf(m.MustExec("wg-quick", "strip", "wg0")))
}

// TestWGDiff checks the comparison without a VM: a leftover peer, a moved
// port and endpoint and a preshared key set on one side only are named, and
// no key's value is shown.
func TestWGDiff(t *testing.T) {
	file := parseWGConf("[Interface]\nListenPort = 51821\nPrivateKey = PRIV\n[Peer]\nPublicKey = A\nPresharedKey = PSK\nAllowedIPs = 10.0.0.2/32, 10.0.1.0/24\nEndpoint = 192.0.2.2:51820\n")
	same := parseWGConf("[Interface]\nPrivateKey = PRIV\nListenPort = 51821\n\n[Peer]\nPublicKey = A\nPresharedKey = PSK\nAllowedIPs = 10.0.1.0/24,10.0.0.2/32\nEndpoint = 192.0.2.2:51820\n")
	if d := wgDiff(same, file); len(d) != 0 {
		t.Errorf("the same configuration: %q, want no difference", d)
	}
	dev := parseWGConf("[Interface]\nListenPort = 51820\nPrivateKey = PRIV\n[Peer]\nPublicKey = A\nAllowedIPs = 10.0.0.2/32, 10.0.1.0/24\nEndpoint = 192.0.2.9:51820\n[Peer]\nPublicKey = B\nAllowedIPs = 10.0.0.3/32\n")
	d := strings.Join(wgDiff(dev, file), "\n")
	for _, want := range []string{"interface ListenPort", "peer A Endpoint", "peer A PresharedKey differs", "peer B is on the device"} {
		if !strings.Contains(d, want) {
			t.Errorf("differences %q lack %q", d, want)
		}
	}
	if strings.Contains(d, "PSK") || strings.Contains(d, "PRIV") {
		t.Errorf("differences show a key: %q", d)
	}
}
