package render

import (
	"github.com/corium/corium-agent/internal/schema"
)

// Previous is what the last run left on a provisioned node, read by
// ondisk.ReadPrevious before an again run's render so that render stays pure: the
// configuration it applied (status.AppliedPath) and the wg-quick file of each
// interface that configuration names, as found on disk.
type Previous struct {
	Applied *schema.Config
	// Confs holds the files by interface name; an interface whose file is
	// not on disk has no entry.
	Confs map[string][]byte
}

// iface is the applied interface called name, nil when there is none.
func (p *Previous) iface(name string) *schema.WireGuard {
	if p == nil || p.Applied == nil {
		return nil
	}
	for i := range p.Applied.WireGuard {
		if p.Applied.WireGuard[i].Name == name {
			return &p.Applied.WireGuard[i]
		}
	}
	return nil
}

// Foreign lists the interfaces the last run applied, that the current
// configuration drops, and whose wg-quick file no longer carries the
// managed-by header: someone else owns them now, and an again run leaves them
// alone.
func (p *Previous) Foreign(cfg *schema.Config) []string {
	var out []string
	for _, wg := range p.Removed(cfg) {
		if _, ok := p.Confs[wg.Name]; ok && !p.managedConf(wg.Name) {
			out = append(out, wg.Name)
		}
	}
	return out
}

// Removed lists the applied interfaces cfg no longer names: an again run removes
// them, and their enable links are read for that.
func (p *Previous) Removed(cfg *schema.Config) []schema.WireGuard {
	if p == nil || p.Applied == nil {
		return nil
	}
	var out []schema.WireGuard
	for _, old := range p.Applied.WireGuard {
		found := false
		for _, wg := range cfg.WireGuard {
			found = found || wg.Name == old.Name
		}
		if !found {
			out = append(out, old)
		}
	}
	return out
}
