package report

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/schema"
)

// fileBehind says how the rendered guard falls short of what this agent
// renders from the applied configuration: a file an agent wrote before the
// pod masquerade and the cluster endpoint's rule keeps its version, since
// an older agent must still read the files that need neither, so only the
// configuration tells that it lacks them. "" when they agree.
func fileBehind(g firewall.Guard, cfg *schema.Config, eff k0s.Effective) string {
	const again = "; run corium-agent apply --again to render it again"
	want, err := firewall.Render(cfg, eff)
	if err != nil {
		return fmt.Sprintf("this agent renders no guard from the applied configuration: %v; correct the configuration and run corium-agent apply --again", err)
	}
	if reflect.DeepEqual(want, g) {
		return ""
	}
	var lacks []string
	if want.Masquerade && !g.Masquerade {
		lacks = append(lacks, "it does not masquerade pods' packets to other nodes' addresses over the overlay, which the peers' WireGuard drops")
	}
	if e := want.Endpoint; e != nil && g.Endpoint == nil {
		lacks = append(lacks, fmt.Sprintf("it does not admit %s addressed to cluster.endpoint %s, so the clients that reach the cluster there (joining controllers, konnectivity agents, kubelets) are dropped", portList(e.Ports), e.Address))
	}
	if len(lacks) == 0 {
		return firewall.FilePath + " is not what this agent renders from the applied configuration" + again
	}
	return firewall.FilePath + " was rendered by an older agent or from another configuration: " + strings.Join(lacks, ", and ") + again
}

func portList(ps []firewall.Port) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}
