package vm

import (
	"fmt"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// pskFile is where each node keeps the c1-w1 preshared key on an again run: a
// file the test writes through guestd's standard input, so the key is on
// no command line.
const pskFile = "/etc/corium/psk-c1-w1"

// againDocs is what an operator changes for an again run in the two documents.
type againDocs struct {
	c1Port     int         // c1's listenPort (w1's endpoint for c1 follows it)
	w1Endpoint string      // c1's endpoint for w1
	extraPeer  wgtypes.Key // zero: none; else a third node at 10.77.0.3
	psk        bool        // both sides read pskFile
	c1MTU      int         // 0: derived
	// w1Join is w1's join: block, unchanged since its first boot (a
	// joined node refuses a new one); "" for the credential.
	w1Join string
}

func initialAgainDocs() againDocs {
	return againDocs{c1Port: 51820, w1Endpoint: underlayW1 + ":51820"}
}

func (d againDocs) pskLine(indent string) string {
	if !d.psk {
		return ""
	}
	return fmt.Sprintf("%spresharedKeyFrom:\n%s  file: %s\n", indent, indent, pskFile)
}

// c1Doc is c1's document on an again run: controllerConfig's, changed.
func (d againDocs) c1Doc(c vmCluster) string {
	var b strings.Builder
	fmt.Fprintf(&b, `role: controller+worker
cluster:
  name: vmtest
node:
  name: c1
wireguard:
  - name: wg0
    address: %s/24
    listenPort: %d
`, overlayC1, d.c1Port)
	if d.c1MTU != 0 {
		fmt.Fprintf(&b, "    mtu: %d\n", d.c1MTU)
	}
	fmt.Fprintf(&b, `    nodeAddress: true
    privateKeyFrom:
      credential: %s
    peers:
      - publicKey: %s
        endpoint: %s
        allowedIPs: [%s/32]
%s`, wgCredential, c.w1Key.PublicKey(), d.w1Endpoint, overlayW1, d.pskLine("        "))
	if d.extraPeer != (wgtypes.Key{}) {
		fmt.Fprintf(&b, `      - publicKey: %s
        endpoint: 192.0.2.3:51820
        allowedIPs: [10.77.0.3/32]
`, d.extraPeer.PublicKey())
	}
	b.WriteString("firewall:\n  clusterPorts: overlay\n  publicPorts: [6443]\n")
	return b.String()
}

// w1Doc is w1's document on an again run, as a plain file (the seed's corium:
// block, changed).
func (d againDocs) w1Doc(c vmCluster) string {
	join := d.w1Join
	if join == "" {
		join = "join:\n  tokenFrom:\n    credential: " + joinCredential + "\n"
	}
	return fmt.Sprintf(`role: worker
cluster:
  name: vmtest
node:
  name: w1
%swireguard:
  - name: wg0
    address: %s/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom:
      credential: %s
    peers:
      - publicKey: %s
        endpoint: %s:%d
        allowedIPs: [%s/32]
%sfirewall:
  clusterPorts: overlay
`, join, overlayW1, wgCredential, c.c1Key.PublicKey(), underlayC1, d.c1Port, overlayC1, d.pskLine("        "))
}
