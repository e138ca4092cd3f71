package nft

import (
	"net/netip"

	"github.com/google/nftables"
	"github.com/google/nftables/expr"
)

// The pod masquerade's chain and its comment.
const (
	natChainName      = "postrouting"
	commentMasquerade = "pod to a node address over the overlay"
)

func natChain(t *nftables.Table) *nftables.Chain {
	return &nftables.Chain{
		Name:     natChainName,
		Table:    t,
		Type:     nftables.ChainTypeNAT,
		Hooknum:  nftables.ChainHookPostrouting,
		Priority: nftables.ChainPriorityNATSource,
		Policy:   policyRef(nftables.ChainPolicyAccept),
	}
}

// masqueradeRule is `oifname @overlay_ifaces ip saddr POD ip daddr != POD
// counter masquerade`: a pod's packet leaving through the overlay to
// anything but another pod takes the address of the interface it leaves
// by, the node address the peer's allowedIPs hold. Pod to pod stays as it
// is: kube-router carries it in its own tunnels, and NetworkPolicy sees the
// pod. lo is in the set only with the guard on; no pod packet leaves by it,
// since a packet to a local address is delivered, never routed out.
func masqueradeRule(pod netip.Prefix) []expr.Any {
	return concat(oifnameIn(setIfaces), podSource(pod), addrCompare(pod, dstAddr, expr.CmpOpNeq),
		[]expr.Any{&expr.Counter{}, &expr.Masq{}})
}
