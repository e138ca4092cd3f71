package nft

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// wgNode is one end of a real userspace WireGuard overlay in a namespace.
type wgNode struct {
	ns      *netns.Netns
	name    string // unique: the UAPI sockets in /run/wireguard are shared
	key     wgtypes.Key
	addr    string // the overlay address with its prefix, e.g. 10.10.0.1/24
	port    int    // 0: nobody dials it
	underIP string // its underlay address, where a peer dials it
}

// wgPeerOf is how a peer lists n: its key, its endpoint when it listens,
// and allowedIPs that hold n's node addresses only, as the agent renders.
type wgPeerOf struct {
	node       *wgNode
	allowedIPs []string
	keepalive  bool
}

func newWGNode(t *testing.T, ns *netns.Netns, prefix, addr, underIP string, port int) *wgNode {
	t.Helper()
	key, err := wgtypes.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return &wgNode{ns: ns, name: prefix + hex.EncodeToString(b), key: key, addr: addr, port: port, underIP: underIP}
}

// up starts wireguard-go for n in the foreground, as a child of the test
// (killed by its pid when the test ends), and configures it with wg and ip
// as wg-quick would: key, port, peers, addresses, link up.
func (n *wgNode) up(t *testing.T, peers ...wgPeerOf) {
	t.Helper()
	cmd := exec.Command("ip", "netns", "exec", n.ns.Name, "wireguard-go", "-f", n.name)
	cmd.Env = append(os.Environ(), "WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting wireguard-go for %s: %v", n.name, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	sock := "/var/run/wireguard/" + n.name + ".sock"
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("wireguard-go for %s: no %s after 5 s", n.name, sock)
		}
	}
	keyFile := filepath.Join(t.TempDir(), n.name+".key")
	if err := os.WriteFile(keyFile, []byte(n.key.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"wg", "set", n.name, "private-key", keyFile}
	if n.port != 0 {
		args = append(args, "listen-port", fmt.Sprint(n.port))
	}
	for _, p := range peers {
		args = append(args, "peer", p.node.key.PublicKey().String(), "allowed-ips", strings.Join(p.allowedIPs, ","))
		if p.node.port != 0 {
			args = append(args, "endpoint", hostPort(p.node.underIP, p.node.port))
		}
		if p.keepalive {
			args = append(args, "persistent-keepalive", "1")
		}
	}
	n.ns.Run(t, args...)
	addAddrs(t, n.ns, n.name, n.addr)
	n.ns.Run(t, "ip", "link", "set", n.name, "up")
}
