package render

import (
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

// The test keys and the two-interface worker are rendertest's, which apply's
// tests share.
const (
	testPrivA = rendertest.PrivA
	testPubA  = rendertest.PubA
	testPrivB = rendertest.PrivB
	testPubB  = rendertest.PubB
	testPubC  = rendertest.PubC
	testPSK   = rendertest.PSK
	testPrivD = rendertest.PrivD
	testPubD  = rendertest.PubD
	testPubE  = rendertest.PubE
)

func twoInterfaceConfig(role schema.Role) *schema.Config { return rendertest.TwoInterfaceConfig(role) }

func twoInterfaceSecrets() Secrets { return rendertest.TwoInterfaceSecrets() }

// readPrevious is what package ondisk's ReadPrevious finds under root after
// a run applied applied. It is ondisk's loop again, since this package's
// tests cannot import ondisk (it imports render).
func readPrevious(root rootfs.Root, applied *schema.Config) *Previous {
	p := &Previous{Applied: applied, Confs: map[string][]byte{}}
	for _, wg := range applied.WireGuard {
		if data, err := root.ReadFile(WireGuardConfPath(wg.Name)); err == nil {
			p.Confs[wg.Name] = data
		}
	}
	return p
}
