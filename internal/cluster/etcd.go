package cluster

import (
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// minEvenMembers is the smallest even etcd cluster reported. Two members
// tolerate no failure, as one does, but a set of two controllers is how
// many clusters grow to three, so only four and more are reported.
const minEvenMembers = 4

// etcdMembers: etcd needs a majority of its members, so an even number
// tolerates no more failures than one member fewer, and adds one more
// machine that can fail. Every controller with storage etcd is a member.
func (c *check) etcdMembers() {
	var members []*node
	for _, n := range c.set {
		if isController(n) && n.eff.Storage.Type == schema.StorageEtcd {
			members = append(members, n)
		}
	}
	k := len(members)
	if k < minEvenMembers || k%2 != 0 {
		return
	}
	names := make([]string, k)
	related := make([]Place, 0, k-1)
	for i, n := range members {
		names[i] = n.File
		if i < k-1 {
			related = append(related, n.at("role"))
		}
	}
	last := members[k-1]
	c.warnf(last, "role", related,
		"makes %d etcd members (%s): %d tolerate %d failed, as %d do, and one more can fail; run an odd number of controllers (or make this one a worker)",
		k, strings.Join(names, ", "), k, (k-1)/2, k-1)
}
