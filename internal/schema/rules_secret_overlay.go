package schema

import (
	"net/netip"
	"net/url"

	"github.com/corium/corium-agent/internal/finding"
)

// secretsBehindOverlay: apply resolves every SecretSource before it brings
// up the node's WireGuard interfaces, so a secret served at an address on
// the node's own overlay (inside the network of one of its wireguard
// addresses) is fetched while nothing on the node routes there: the fetch
// fails, is retried for waitFor, and the run stops. A host name cannot be
// judged offline (it may resolve to the underlay) and is left alone. The
// message names the address, never the URL, whose userinfo and query may
// grant access.
func (v *crossCheck) secretsBehindOverlay() {
	type overlayNet struct {
		path string
		p    netip.Prefix
	}
	var nets []overlayNet
	for i, wg := range v.cfg.WireGuard {
		for j, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil {
				nets = append(nets, overlayNet{finding.Path("wireguard").Index(i).Field("address").Index(j).String(), p.Masked()})
			}
		}
	}
	if len(nets) == 0 {
		return
	}
	for _, f := range v.secrets() {
		if f.From == nil || f.From.URL == "" {
			continue
		}
		u, err := url.Parse(f.From.URL)
		if err != nil {
			continue // secretSource refuses it
		}
		host, err := netip.ParseAddr(u.Hostname())
		if err != nil {
			continue // a name, or no host
		}
		host = host.WithZone("").Unmap()
		for _, n := range nets {
			if !n.p.Contains(host) {
				continue
			}
			then := "fails at its one attempt"
			if f.From.WaitFor != "" {
				then = "is retried for waitFor, and the run stops"
			}
			v.errorf(finding.Path(f.FromPath()).Field("url").String(), "is at %s, on this node's overlay (the network of %s, %s): the agent fetches secrets before it brings the overlay up, so the fetch reaches nothing and %s; serve the secret at an address outside the overlay, or take it from a file or a systemd credential",
				host, n.path, n.p, then)
			break
		}
	}
}
