package cluster

import (
	"path/filepath"
	"strings"

	"github.com/corium/corium-agent/internal/hostfacts"
)

// Each node of a set runs on its own host, so the checks that need the
// host's network (the route MTU under a stated mtu, the VRRP interface's
// family and network, whose address an endpoint is) take each node's own
// facts: validate --cluster --facts DIR reads them from DIR/NAME.json.

// FactsNames are the names node n's facts file may have, less .json, in
// the order tried: its node.name, then its file's name less its extension
// (c2-user-data.yaml: c2-user-data).
func FactsNames(n Node) []string {
	var out []string
	if n.Doc != nil && n.Doc.Config != nil && n.Doc.Config.Node.Name != "" {
		out = append(out, n.Doc.Config.Node.Name)
	}
	base := filepath.Base(n.File)
	if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem != "" && (len(out) == 0 || out[0] != stem) {
		out = append(out, stem)
	}
	return out
}

// FactsFor is n's facts among byName (facts by file name less .json), and
// the name they were found by; nil and "" when none is n's.
func FactsFor(n Node, byName map[string]*hostfacts.Facts) (*hostfacts.Facts, string) {
	for _, name := range FactsNames(n) {
		if f, ok := byName[name]; ok {
			return f, name
		}
	}
	return nil, ""
}
