package cluster

import (
	"unique"

	"github.com/corium/corium-agent/internal/schema"
)

// Compact drops what a node read by Read keeps only to be read again, for a
// set held whole until Check: the parsed trees of its document
// (schema.Document.Forget) and of its delivery (source.Delivery.Forget),
// most of a large document's memory, and the copies of strings that other
// files of the set hold too (a full mesh lists each node's key, endpoint
// and address in every other file). What the checks take (the
// configuration, what k0s makes of it, the findings) stays as it was; a
// finding's place parses the document again, once for the file.
func (n *Node) Compact() {
	if n.Doc != nil && n.Delivery != nil {
		n.Doc.Forget(n.Delivery.Tree)
	}
	n.Delivery.Forget()
	if n.Doc != nil && n.Doc.Config != nil {
		shareStrings(n.Doc.Config)
	}
}

// shareStrings replaces the peer entries' strings by one copy of each value
// for the whole process (unique.Make): equal strings, so nothing reads
// differently.
func shareStrings(cfg *schema.Config) {
	for i := range cfg.WireGuard {
		for j := range cfg.WireGuard[i].Peers {
			p := &cfg.WireGuard[i].Peers[j]
			p.PublicKey = unique.Make(p.PublicKey).Value()
			p.Endpoint = unique.Make(p.Endpoint).Value()
			for k := range p.AllowedIPs {
				p.AllowedIPs[k] = unique.Make(p.AllowedIPs[k]).Value()
			}
		}
	}
}
