package vm

import (
	"fmt"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The test's private network. TEST-NET-1 for the underlay, as the other
// tests use; the frames never leave QEMU's sockets. The gateway is no
// machine: it gives each node the default route a real one has (and with
// it the route back that reverse-path filtering asks of a forged source).
const (
	underlayC1, underlayW1 = "192.0.2.1", "192.0.2.2"
	underlayF1, underlayD1 = "192.0.2.3", "192.0.2.4"
	gateway                = "192.0.2.254"
	overlayC1, overlayW1   = "10.77.0.1", "10.77.0.2"
	macC1, macW1           = "52:54:00:c0:00:01", "52:54:00:c0:00:02"
	macF1, macD1           = "52:54:00:c0:00:03", "52:54:00:c0:00:04"
	// forgedSource is in the default pod network, 10.244.0.0/16.
	forgedSource = "10.244.77.7"
	// The SMBIOS credentials the agent's unit imports (ImportCredential=corium.*).
	wgCredential, joinCredential = "corium.wg0", "corium.join"
)

// vmCluster is the two-node cluster's secrets. None is in any document:
// each reaches its machine as an SMBIOS credential.
type vmCluster struct {
	c1Key, w1Key wgtypes.Key
	joinToken    string
}

func newCluster(t testing.TB) vmCluster {
	t.Helper()
	return vmCluster{c1Key: fixture.GenKey(t), w1Key: fixture.GenKey(t), joinToken: fixture.JoinToken("vmtest." + fixture.RandHex(16))}
}

func (c vmCluster) secrets() []string {
	return []string{c.c1Key.String(), c.w1Key.String(), c.joinToken}
}

// controllerConfig is c1's document, for the kernel command line: the first
// controller, running workloads too, its k0s ports guarded but the API's.
func controllerConfig(c vmCluster) string { return controllerNamed("c1", c.w1Key) }

// controllerNamed is c1's document for a node named name, with peer as its
// one peer (w1's key for c1).
func controllerNamed(name string, peer wgtypes.Key) string {
	return fmt.Sprintf(`role: controller+worker
cluster:
  name: vmtest
node:
  name: %s
wireguard:
  - name: wg0
    address: %s/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom:
      credential: %s
    peers:
      - publicKey: %s
        endpoint: %s:51820
        allowedIPs: [%s/32]
firewall:
  clusterPorts: overlay
  publicPorts: [6443]
`, name, overlayC1, wgCredential, peer.PublicKey(), underlayW1, overlayW1)
}

// credentialJoin is w1's join: block with the token from its credential.
var credentialJoin = "  join:\n    tokenFrom:\n      credential: " + joinCredential + "\n"

// workerUserData is w1's user-data: the document as the corium: key of a
// cloud-config, its key and join token from credentials.
func workerUserData(c vmCluster) string { return workerUserDataJoin(c, credentialJoin) }

// workerUserDataJoin is workerUserData with another join: block.
func workerUserDataJoin(c vmCluster, join string) string {
	return fmt.Sprintf(`#cloud-config
corium:
  role: worker
  cluster:
    name: vmtest
  node:
    name: w1
%s  wireguard:
    - name: wg0
      address: %s/24
      listenPort: 51820
      nodeAddress: true
      privateKeyFrom:
        credential: %s
      peers:
        - publicKey: %s
          endpoint: %s:51820
          allowedIPs: [%s/32]
  firewall:
    clusterPorts: overlay
`, join, overlayW1, wgCredential, c.c1Key.PublicKey(), underlayC1, overlayC1)
}

// workerNetworkConfig is w1's NoCloud network-config.
func workerNetworkConfig() string { return seedNetworkConfig(macW1, underlayW1) }

// seedNetworkConfig is a NoCloud network-config: a static underlay (there
// is no DHCP on the test's network), which cloud-init renders for
// NetworkManager.
func seedNetworkConfig(mac, addr string) string {
	return fmt.Sprintf(`version: 2
ethernets:
  underlay:
    match:
      macaddress: "%s"
    addresses: [%s/24]
    routes:
      - to: 0.0.0.0/0
        via: %s
`, mac, addr, gateway)
}

// nmKeyfile is a static underlay for NetworkManager, for a machine whose
// network does not come from cloud-init.
func nmKeyfile(mac, addr string) string {
	return fmt.Sprintf(`[connection]
id=underlay
type=ethernet
autoconnect=true

[ethernet]
mac-address=%s

[ipv4]
method=manual
address1=%s/24,%s

[ipv6]
method=disabled
`, strings.ToUpper(mac), addr, gateway)
}

// noMetadata is a machine without a cloud-init datasource (PXE, bare
// metal): its underlay through NetworkManager, and cloud-init told to leave
// the network alone (with no datasource it renders a DHCP fallback for the
// NIC) and to look for no metadata service. The image's datasource_list
// names network datasources (Ec2, OpenStack, ...) that, on a machine with
// none, keep cloud-init's network stage, and the agent after it, waiting
// for 240 s; this machine's own file narrows the list as an operator would.
func noMetadata(mac, addr string) func(*staging) {
	return func(s *staging) {
		s.WriteFile("/etc/NetworkManager/system-connections/underlay.nmconnection", []byte(nmKeyfile(mac, addr)), 0o600)
		s.WriteFile("/etc/cloud/cloud.cfg.d/90-no-metadata.cfg",
			[]byte("# This machine has no metadata service and a static network.\ndatasource_list: [NoCloud, None]\nnetwork: {config: disabled}\n"), 0o644)
	}
}

// fileConfig is f1's /etc/corium/config.yaml: a one-node cluster without an
// overlay.
func fileConfig() string {
	return "role: single\nnode:\n  name: f1\n"
}

// defaultConfig is d1's image default, /usr/share/corium/config.yaml, as a
// derived image bakes it: a one-node cluster without an overlay.
func defaultConfig() string {
	return "role: single\nnode:\n  name: d1\n"
}
