package ondisk

import (
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

// ReadPrevious reads the wg-quick files of the interfaces applied names: on
// an again run, render.Inputs.Previous.
func ReadPrevious(root rootfs.Root, applied *schema.Config) *render.Previous {
	p := &render.Previous{Applied: applied, Confs: map[string][]byte{}}
	for _, wg := range applied.WireGuard {
		if data, err := root.ReadFile(render.WireGuardConfPath(wg.Name)); err == nil {
			p.Confs[wg.Name] = data
		}
	}
	return p
}
