package cluster

import "fmt"

// A value every node must share is compared with the one most nodes have:
// the node whose value differs from what every other node has is the one
// named, at its own field, not every node that is right (a mixed CNI
// names the one node with calico, not the six with kube-router, compared
// with whichever file came first).

// reference is the node whose value the others are compared with: of the
// values the nodes have, the one most of them have; of values as many
// nodes have, the first in file order. holders is how many nodes have it;
// ref is nil when no node has a value.
func (c *check) reference(value func(*node) (string, bool)) (ref *node, want string, holders int) {
	count := map[string]int{}
	for _, n := range c.set {
		if v, ok := value(n); ok {
			count[v]++
		}
	}
	for _, n := range c.set {
		v, ok := value(n)
		if ok && (ref == nil || count[v] > count[want]) {
			ref, want = n, v
		}
	}
	return ref, want, count[want]
}

// alsoHeld says, after "REF has VALUE", how many other nodes have it too,
// so the message shows why this node is the one named.
func alsoHeld(holders int) string {
	switch holders {
	case 0, 1:
		return ""
	case 2:
		return ", as does 1 other file"
	}
	return fmt.Sprintf(", as do %d other files", holders-1)
}
