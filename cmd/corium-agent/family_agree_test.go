package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

const (
	dualStackPatch = "k0s:\n  patch:\n    spec:\n      network:\n        dualStack: {enabled: true, IPv6podCIDR: \"fd00::/108\", IPv6serviceCIDR: \"fd01::/108\"}\n"
	// bothFamiliesFacts is a host with a default route of each family.
	bothFamiliesFacts = `{"interfaces":[{"name":"eth0","addresses":["192.0.2.11/24","2001:db8::11/64"]}],
  "defaultRoute":{"interface":"eth0","source":"192.0.2.11"},
  "defaultRoute6":{"interface":"eth0","source":"2001:db8::11"}}`
	ipv4RouteFacts = `{"interfaces":[{"name":"eth0","addresses":["192.0.2.11/24","2001:db8::11/64"]}],
  "defaultRoute":{"interface":"eth0","source":"192.0.2.11"}}`
)

// Dual-stack calico, which k0s runs only in mode bird, is refused by
// validate with the message plan and apply refuse it with, before any
// write: on the overlay, where the agent makes calico vxlan and the guard
// does not follow a second pod range, and on the host's address, where
// calico keeps k0s's default vxlan. Each message says what to do.
func TestDualStackCalicoValidateAndApplyAgree(t *testing.T) {
	overlay := `wireguard:
  - name: wg0
    address: 10.10.0.1/24
    nodeAddress: true
    privateKey: AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.2/32]
`
	for name, tc := range map[string]struct{ doc, says string }{
		"on the overlay": {"role: single\nnetwork: {cni: calico}\n" + overlay + dualStackPatch, "use one address family"},
		"on the host":    {"role: single\nnetwork: {cni: calico}\n" + dualStackPatch, "set spec.network.calico.mode to bird in k0s.patch, or use one address family"},
	} {
		t.Run(name, func(t *testing.T) {
			config := writeConfig(t, "config.yaml", tc.doc)
			facts := writeConfig(t, "facts.json", bothFamiliesFacts)
			code, out, _ := runCLI(t, "validate", config)
			out, _, _ = strings.Cut(out, "\n") // the finding, not the verdict
			_, msg, ok := strings.Cut(strings.TrimSpace(out), ": k0s.patch")
			if code != exitFailed || !ok || !strings.Contains(msg, tc.says) {
				t.Fatalf("validate: exit %d, want a refusal at k0s.patch saying %q:\n%s", code, tc.says, out)
			}
			msg = "k0s.patch" + msg
			for _, cmd := range []string{"plan", "apply"} {
				root := t.TempDir()
				code, out, errOut := runCLI(t, cmd, "--root", root, "--config", config, "--facts", facts)
				if code != exitFailed || !strings.Contains(errOut, "validating the configuration: "+msg) {
					t.Errorf("%s: exit %d, want validate's refusal %q:\n%s\n%s", cmd, code, msg, out, errOut)
				}
				if rootfs.New(root).Exists(status.MarkerPath) || rootfs.New(root).Exists("/etc/k0s/k0s.yaml") {
					t.Errorf("%s: a refused run wrote files", cmd)
				}
			}
		})
	}
}

// An IPv6 single-stack cluster on a host that also has IPv4 registers its
// IPv6 address; without an IPv6 default route, plan and apply refuse before
// any write, naming the missing route (a host fact, so validate cannot).
func TestIPv6ClusterNodeAddressAtPlanAndApply(t *testing.T) {
	config := writeConfig(t, "config.yaml", "role: single\nnetwork: {podCIDR: \"fd00:244::/108\", serviceCIDR: \"fd00:96::/108\"}\n")
	code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", config, "--facts", writeConfig(t, "facts.json", bothFamiliesFacts))
	if code != 0 || !strings.Contains(out, "--kubelet-extra-args=--node-ip=2001:db8::11 ") || !strings.Contains(out, "address: 2001:db8::11") {
		t.Errorf("plan: exit %d, want the IPv6 address as api.address and --node-ip:\n%s\n%s", code, out, errOut)
	}
	facts := writeConfig(t, "facts.json", ipv4RouteFacts)
	for _, cmd := range []string{"plan", "apply"} {
		root := t.TempDir()
		code, out, errOut := runCLI(t, cmd, "--root", root, "--config", config, "--facts", facts)
		if code != exitFailed || !strings.Contains(errOut, "deciding the node address: network.podCIDR and serviceCIDR are IPv6") || !strings.Contains(errOut, "no IPv6 default route") {
			t.Errorf("%s: exit %d, want a refusal naming the missing IPv6 default route:\n%s\n%s", cmd, code, out, errOut)
		}
		if rootfs.New(root).Exists(filepath.Join("/etc/k0s", "k0s.yaml")) {
			t.Errorf("%s: a refused run wrote k0s.yaml", cmd)
		}
	}
}

// Dual stack over an overlay of one family is refused by validate, plan
// and apply in the same words, naming the interface's address and saying
// what to do, before any write; with an address of each family on the
// overlay, all three accept it and plan renders both addresses to the
// kubelet and the guard's two pod ranges.
func TestDualStackOverlayValidatePlanApplyAgree(t *testing.T) {
	doc := `role: controller+worker
wireguard:
  - name: wg0
    address: %s
    nodeAddress: true
    privateKey: AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.2/32, "fd10::2/128"]
firewall: {clusterPorts: overlay, publicPorts: [6443]}
` + dualStackPatch
	facts := writeConfig(t, "facts.json", bothFamiliesFacts)
	oneFamily := writeConfig(t, "one.yaml", strings.Replace(doc, "%s", "10.10.0.1/24", 1))
	const says = `k0s.patch["spec"]["network"]["dualStack"]["enabled"]: turns on dual stack, but wireguard[0].address (wg0, which holds the node address) has no IPv6 address`
	if code, out, _ := runCLI(t, "validate", oneFamily); code != exitFailed || !strings.Contains(out, says) || !strings.Contains(out, "add an IPv6 address to wireguard[0].address") {
		t.Fatalf("validate: exit %d, want %q:\n%s", code, says, out)
	}
	for _, cmd := range []string{"plan", "apply"} {
		root := t.TempDir()
		code, out, errOut := runCLI(t, cmd, "--root", root, "--config", oneFamily, "--facts", facts)
		if code != exitFailed || !strings.Contains(errOut, "validating the configuration: "+says) {
			t.Errorf("%s: exit %d, want validate's refusal:\n%s\n%s", cmd, code, out, errOut)
		}
		if rootfs.New(root).Exists(status.MarkerPath) || rootfs.New(root).Exists("/etc/k0s/k0s.yaml") {
			t.Errorf("%s: a refused run wrote files", cmd)
		}
	}
	both := writeConfig(t, "both.yaml", strings.Replace(doc, "%s", `[10.10.0.1/24, "fd10::1/64"]`, 1))
	if code, out, _ := runCLI(t, "validate", both); code != 0 {
		t.Fatalf("validate refuses an overlay of both families: exit %d\n%s", code, out)
	}
	if code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", both, "--facts", facts); code != 0 || !strings.Contains(out, "--node-ip=10.10.0.1,fd10::1") {
		t.Errorf("plan: exit %d, want --node-ip with both addresses:\n%s\n%s", code, out, errOut)
	}
	root := t.TempDir()
	if code, out, errOut := runCLI(t, "apply", "--root", root, "--config", both, "--facts", facts); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errOut)
	}
	for path, want := range map[string]string{"/etc/k0s/k0s.yaml": "- fd10::1\n", "/var/lib/corium/firewall.json": `"ipv6PodCIDR": "fd00::/108"`} {
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("apply wrote %s without %q (%v):\n%s", path, want, err, data)
		}
	}
}
