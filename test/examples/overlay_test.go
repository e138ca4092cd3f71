package examples

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

// overlayNodes are the nodes of one overlay, spread over several examples:
// the three controllers of two sites and the worker that joins them by PXE.
var overlayNodes = map[string]string{
	"c1": "examples/ha-overlay-two-sites/c1.yaml",
	"c2": "examples/ha-overlay-two-sites/c2.yaml",
	"c3": "examples/ha-overlay-two-sites/c3.yaml",
	"w1": "examples/worker-pxe/config.yaml",
}

type overlayNode struct {
	name string
	addr netip.Addr
	port int // 0: nobody dials it
	wg   schema.WireGuard
}

// TestOverlayExamplesAgree checks what validate cannot, since it sees one
// document at a time: that the nodes' documents describe one overlay. Each
// peer entry must be another node (its allowedIPs hold that node's address),
// every node must name a given node by the same public key and endpoint,
// an endpoint's port must be the port that node listens on, a node listed by
// one side must list that side too, and one of each pair must dial.
func TestOverlayExamplesAgree(t *testing.T) {
	for _, p := range overlayProblems(loadOverlay(t)) {
		t.Error(p)
	}
}

// TestOverlayCheckCatchesAWrongKey is the control: c1 naming c2 by another
// key must be caught.
func TestOverlayCheckCatchesAWrongKey(t *testing.T) {
	nodes := loadOverlay(t)
	nodes[0].wg.Peers[0].PublicKey = "gN65BkIKy1eCE9pP1wdc8ROUtkHLF2PfAqYdyYBz6EA="
	if len(overlayProblems(nodes)) == 0 {
		t.Error("c1 naming a peer by a key no other node uses was not caught")
	}
}

// overlayProblems describes every way the nodes disagree about their overlay.
func overlayProblems(nodes []overlayNode) []string {
	var problems []string
	keyOf := map[string]string{}      // node -> the public key others list for it
	endpointOf := map[string]string{} // node -> the endpoint others dial it at
	lists := map[[2]string]bool{}     // {a, b}: a has b as a peer
	dials := map[[2]string]bool{}     // {a, b}: a has b's endpoint
	for _, a := range nodes {
		for i, p := range a.wg.Peers {
			b := peerNode(nodes, p)
			if b == nil {
				problems = append(problems, fmt.Sprintf("%s: peers[%d] (%s) is none of the overlay's nodes", a.name, i, p.PublicKey))
				continue
			}
			lists[[2]string{a.name, b.name}] = true
			if k, seen := keyOf[b.name]; seen && k != p.PublicKey {
				problems = append(problems, fmt.Sprintf("%s lists %s with key %s; another node lists it with %s", a.name, b.name, p.PublicKey, k))
			}
			keyOf[b.name] = p.PublicKey
			if p.Endpoint == "" {
				continue
			}
			dials[[2]string{a.name, b.name}] = true
			if e, seen := endpointOf[b.name]; seen && e != p.Endpoint {
				problems = append(problems, fmt.Sprintf("%s dials %s at %s; another node dials it at %s", a.name, b.name, p.Endpoint, e))
			}
			endpointOf[b.name] = p.Endpoint
			ap, err := netip.ParseAddrPort(p.Endpoint)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: peer %s: endpoint %s is not IP:port", a.name, b.name, p.Endpoint))
			} else if int(ap.Port()) != b.port {
				problems = append(problems, fmt.Sprintf("%s dials %s on port %d, but %s listens on %s", a.name, b.name, ap.Port(), b.name, portText(b.port)))
			}
		}
	}
	for pair := range lists {
		a, b := pair[0], pair[1]
		if !lists[[2]string{b, a}] {
			problems = append(problems, fmt.Sprintf("%s lists %s as a peer, but %s does not list %s: the handshake is refused", a, b, b, a))
		}
		if !dials[pair] && !dials[[2]string{b, a}] {
			problems = append(problems, fmt.Sprintf("neither %s nor %s has the other's endpoint: nobody opens the tunnel", a, b))
		}
	}
	seen := map[string]string{}
	for n, k := range keyOf {
		if other, dup := seen[k]; dup {
			problems = append(problems, fmt.Sprintf("%s and %s are listed with the same public key", n, other))
		}
		seen[k] = n
	}
	if len(keyOf) != len(nodes) {
		problems = append(problems, fmt.Sprintf("only %d of %d nodes are anyone's peer", len(keyOf), len(nodes)))
	}
	return problems
}

// loadOverlay reads the overlay's nodes, sorted by name.
func loadOverlay(t *testing.T) []overlayNode {
	t.Helper()
	var nodes []overlayNode
	for name, rel := range overlayNodes {
		cfg := load(t, readRepo(t, rel))
		if len(cfg.WireGuard) != 1 || cfg.WireGuard[0].Name != "wg0" {
			t.Fatalf("%s: expected one interface wg0", rel)
		}
		wg := cfg.WireGuard[0]
		p, err := netip.ParsePrefix(wg.Address[0])
		if err != nil {
			t.Fatal(err)
		}
		n := overlayNode{name: name, addr: p.Addr(), wg: wg}
		if wg.ListenPort != nil {
			n.port = *wg.ListenPort
		}
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].name < nodes[j].name })
	return nodes
}

// peerNode is the node whose overlay address the peer's allowedIPs hold.
func peerNode(nodes []overlayNode, p schema.Peer) *overlayNode {
	for i := range nodes {
		for _, a := range p.AllowedIPs {
			if pfx, err := netip.ParsePrefix(a); err == nil && pfx.Contains(nodes[i].addr) {
				return &nodes[i]
			}
		}
	}
	return nil
}

func portText(p int) string {
	if p == 0 {
		return "no port"
	}
	return "port " + strconv.Itoa(p)
}
