package cluster

import (
	"net/netip"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// Node is one file of the set as validate read it.
type Node struct {
	// File is the file as it was named.
	File string
	// Delivery is how the document came out of the file.
	Delivery *source.Delivery
	// Doc is the parsed document; a file whose Doc holds no configuration
	// takes no part in the checks (its own findings say why).
	Doc *schema.Document
	// Findings are the file's own, so that a value its field rules refused
	// is never quoted here: it may be anything pasted there, a secret too.
	Findings schema.Findings
	// Facts are the node's host network (validate --cluster --facts DIR),
	// nil when not given: the checks that need them (facts.go) are then
	// not run for this node.
	Facts *hostfacts.Facts
}

// node is a file taking part: its configuration as written and with
// defaults, and its interfaces.
type node struct {
	Node
	order int
	cfg   *schema.Config
	eff   schema.Config
	// k0s is what k0s will do with the document, as validation computed it
	// (schema.Document.K0s).
	k0s    k0s.Effective
	ifaces []*iface
	// bad are the paths the file's own findings name.
	bad map[string]bool
}

// iface is one wireguard interface of a node.
type iface struct {
	n     *node
	i     int
	wg    schema.WireGuard
	key   wgtypes.Key
	known bool // key is known: an inline private key, or publicKey
	addrs []netip.Prefix
	peers []*entry
	// byIntent are peers sorted by what they intend (reverse.go).
	byIntent []*entry
}

// entry is one peer entry of an interface, and what it is found to name.
type entry struct {
	in      *iface
	j       int
	p       *schema.Peer // the node's own, not a copy: a set holds many
	key     wgtypes.Key
	keyOK   bool // the key parses and is no secret of the set
	allowed []netip.Prefix
	// byKey is the interface of another file whose key it lists; byAddr the
	// one interface of another file whose address its allowedIPs hold.
	byKey, byAddr *iface
	// target is the interface it stands for: byKey, or byAddr when that
	// interface's key is not known; nil when it names none of the set.
	target *iface
	// mismatched: its key and its addresses name two different interfaces,
	// already reported, so the addresses are not reported again.
	mismatched bool
	// elsewhere is the node of the set whose address the entry's endpoint
	// is, when that is not the node it stands for (endpoint_owner.go): the
	// findings about where the target is dialled follow from it.
	elsewhere *node
	// atVIP: the entry dials its target at the virtual IP, reported by
	// the HA check; nor is it counted among where the target is dialled.
	atVIP bool
}

func newNode(order int, in Node) *node {
	n := &node{Node: in, order: order, cfg: in.Doc.Config, bad: map[string]bool{}}
	n.eff = *n.cfg
	schema.ApplyDefaults(&n.eff)
	n.k0s = *in.Doc.K0s
	for _, f := range in.Findings {
		n.bad[f.Path] = true
	}
	for i, wg := range n.cfg.WireGuard {
		f := &iface{n: n, i: i, wg: wg}
		f.key, f.known = schema.OwnPublicKey(wg)
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil {
				f.addrs = append(f.addrs, p)
			}
		}
		// The interface's entries and their prefixes are allocated
		// together, one array each: a full mesh has a node's square of them.
		entries := make([]entry, len(wg.Peers))
		prefixes := make([]netip.Prefix, 0, allowedCount(wg.Peers))
		f.peers = make([]*entry, 0, len(wg.Peers))
		for j := range wg.Peers {
			p := &wg.Peers[j]
			e := &entries[j]
			e.in, e.j, e.p = f, j, p
			e.key, e.keyOK = parseKey(p.PublicKey)
			start := len(prefixes)
			for _, a := range p.AllowedIPs {
				if pre, err := netip.ParsePrefix(a); err == nil {
					prefixes = append(prefixes, pre.Masked())
				}
			}
			if len(prefixes) > start {
				e.allowed = prefixes[start:len(prefixes):len(prefixes)]
			}
			f.peers = append(f.peers, e)
		}
		n.ifaces = append(n.ifaces, f)
	}
	return n
}

// allowedCount is how many allowedIPs the peers list.
func allowedCount(peers []schema.Peer) int {
	n := 0
	for _, p := range peers {
		n += len(p.AllowedIPs)
	}
	return n
}

// parseKey reads a key as the schema's field rule accepts it; what the rule
// refused is left out of the checks here.
func parseKey(s string) (wgtypes.Key, bool) {
	k, err := wgtypes.ParseKey(s)
	return k, err == nil && k.String() == s
}

// at is a place in the node's file.
func (n *node) at(path string) Place {
	line, col := n.Doc.Position(path)
	file, line, col := n.Delivery.Where(n.File, line, col)
	return Place{File: file, Path: path, Line: line, Col: col}
}

func (f *iface) path() finding.Path { return finding.Path("wireguard").Index(f.i) }

// String names the interface in a message: the node, where its document
// names it, then file and field path ("a1 (a1.yaml wireguard[0])").
func (f *iface) String() string {
	where := f.n.File + " " + f.path().String()
	if name := f.n.name(); name != "" {
		return name + " (" + where + ")"
	}
	return where
}

// name is node.name as written, when its rules took it.
func (n *node) name() string {
	if n.bad["node.name"] {
		return ""
	}
	return n.cfg.Node.Name
}

func (e *entry) path() finding.Path { return e.in.path().Field("peers").Index(e.j) }

// holds says whether the entry's allowedIPs hold a.
func (e *entry) holds(a netip.Addr) bool {
	for _, p := range e.allowed {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
