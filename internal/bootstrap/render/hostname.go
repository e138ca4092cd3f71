package render

import (
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// HostnamePath is the static hostname file.
const HostnamePath = "/etc/hostname"

// HostnameFacts is what the hostname derivation reads from the machine.
type HostnameFacts struct {
	// Current is the hostname now ("" when unknown).
	Current string `json:"current,omitempty"`
	// MachineID is /etc/machine-id ("" when missing or uninitialized).
	MachineID string `json:"machineID,omitempty"`
}

// Hostname is the hostname decision.
type Hostname struct {
	// Name is the hostname; "" when it is decided at boot.
	Name string `json:"name,omitempty"`
	// Source says where Name came from: "node.name", "node.name's first
	// label" (HostnameOf), "current", "machine-id", or "decided at boot".
	Source string `json:"source"`
}

// HostnameDecidedAtBoot is the Source of a name that cannot be known offline.
const HostnameDecidedAtBoot = "decided at boot"

// DecideHostname applies the contract: node.name, else the current hostname
// unless it is generic, else "corium-" and the first 8 characters of the
// machine-id.
func DecideHostname(cfg *schema.Config, f HostnameFacts) Hostname {
	switch {
	case cfg.Node.Name != "":
		if h := HostnameOf(cfg.Node.Name); h != cfg.Node.Name {
			return Hostname{Name: h, Source: "node.name's first label"}
		}
		return Hostname{Name: cfg.Node.Name, Source: "node.name"}
	case !isGenericHostname(f.Current):
		return Hostname{Name: f.Current, Source: "current"}
	case len(f.MachineID) >= 8:
		return Hostname{Name: "corium-" + strings.ToLower(f.MachineID[:8]), Source: "machine-id"}
	}
	return Hostname{Source: HostnameDecidedAtBoot}
}

func isGenericHostname(h string) bool {
	switch strings.ToLower(strings.TrimSpace(h)) {
	case "", "localhost", "localhost.localdomain", "fedora":
		return true
	}
	return false
}

// MaxHostnameLen is the kernel's limit on the hostname (__NEW_UTS_LEN):
// sethostname refuses a longer one, and hostname -F with it.
const MaxHostnameLen = 64

// HostnameOf is the hostname a node name is written as: the whole name when
// it fits the kernel's limit (a name with dots is a legal hostname, for
// hostname -F and systemd alike), else its first label, which the schema
// holds to 63 characters. The Kubernetes node name stays the whole name
// (KubeletHostnameOverride).
func HostnameOf(nodeName string) string {
	if len(nodeName) <= MaxHostnameLen {
		return nodeName
	}
	first, _, _ := strings.Cut(nodeName, ".")
	return first
}

// KubeletHostnameOverride is the kubelet flag that keeps node.name the
// Kubernetes node name when the hostname is only its first label (k0s and
// the kubelet take the node name from the hostname otherwise, k0s
// v1.36.3+k0s.0 cmd/worker/worker.go:159-160, pkg/node/nodename.go), or ""
// when the hostname is the name.
func KubeletHostnameOverride(cfg *schema.Config) string {
	if name := cfg.Node.Name; name != "" && HostnameOf(name) != name {
		return "--hostname-override=" + name
	}
	return ""
}
