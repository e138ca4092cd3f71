package yamlfast

import "gopkg.in/yaml.v3"

// slab hands out nodes and Content slices from a few large allocations
// instead of one allocation per node.
type slab struct {
	nodes []yaml.Node
	ptrs  []*yaml.Node
	chunk int
}

func (s *slab) init(est int) {
	s.chunk = est
	s.nodes = make([]yaml.Node, est)
	s.ptrs = make([]*yaml.Node, est)
}

func (s *slab) node() *yaml.Node {
	if len(s.nodes) == 0 {
		s.nodes = make([]yaml.Node, s.chunk/4+16)
	}
	n := &s.nodes[0]
	s.nodes = s.nodes[1:]
	return n
}

// carve moves (*stack)[base:] into a Content slice whose capacity equals
// its length, so a caller appending to one node's Content reallocates
// instead of overwriting its neighbour's.
func (s *slab) carve(stack *[]*yaml.Node, base int) []*yaml.Node {
	k := len(*stack) - base
	if k == 0 {
		return nil
	}
	if len(s.ptrs) < k {
		s.ptrs = make([]*yaml.Node, max(k, s.chunk/4+16))
	}
	c := s.ptrs[:k:k]
	s.ptrs = s.ptrs[k:]
	copy(c, (*stack)[base:])
	clear((*stack)[base:])
	*stack = (*stack)[:base]
	return c
}
