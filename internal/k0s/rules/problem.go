package rules

import (
	"sort"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// Problems is every refusal found, in a fixed order, each one finding
// (package finding's one type). Its Path is where: a path into the
// ClusterConfig built with finding.Path (spec.network.podCIDR,
// spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances[0].authPass),
// a flag (--single), or the command ("install"). Message is lowercase and
// never carries a secret's value. Source is the k0s v1.36.3+k0s.0 file and
// line the rule comes from. Severity is always finding.Error: k0s refuses.
// As an error it reads as k0s's own would: one line per problem.
type Problems []finding.Finding

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// err is nil for no problems, so callers can return it as an error without
// the typed-nil trap.
func (ps Problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// problems collects findings as the rules walk a document or a command line.
type problems struct {
	list Problems
}

func (c *problems) add(path finding.Path, source, msg string) {
	c.list = append(c.list, finding.Finding{Path: path.String(), Message: msg, Source: source})
}

// sorted orders findings by path, keeping the rules' order within a path,
// so output does not depend on the order the rules ran in.
func (c *problems) sorted() Problems {
	sort.SliceStable(c.list, func(i, j int) bool { return c.list[i].Path < c.list[j].Path })
	return c.list
}
