package firewall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"

	"github.com/corium/corium-agent/internal/schema"
)

// The rendered guard lives here, under the root, so the boot-time unit can
// re-apply it without the config or its secrets.
const (
	FilePath = "/var/lib/corium/firewall.json"
	FileMode = 0o600
	DirMode  = 0o700
)

// fileVersion changes when the file's meaning changes.
const fileVersion = 1

// Guard is what the firewall enforces, derived from the config and nothing
// else. The zero Guard is "off": no table.
type Guard struct {
	// On is true for clusterPorts: overlay.
	On bool `json:"on"`
	// Ports are the guarded ports: the role's set minus PublicPorts.
	Ports []Port `json:"ports,omitempty"`
	// Interfaces may reach the guarded ports: lo and the WireGuard interfaces.
	Interfaces []string `json:"interfaces,omitempty"`
	// PublicPorts are the role's ports the operator left reachable from anywhere.
	PublicPorts []Port `json:"publicPorts,omitempty"`
	// PodCIDR is the pod network, accepted when it passes the reverse-path check.
	PodCIDR string `json:"podCIDR,omitempty"`
}

// Port is a transport port as the guard's file spells it.
type Port struct {
	Number int    `json:"port"`
	Proto  string `json:"proto"` // "tcp" or "udp"
}

func (p Port) String() string { return fmt.Sprintf("%d/%s", p.Number, p.Proto) }

// file is the on-disk shape: the guard plus a version, so a later agent can
// tell an old file from a corrupt one.
type file struct {
	Version int `json:"version"`
	Guard
}

// Render derives the guard from a validated config with defaults applied.
func Render(cfg *schema.Config) (Guard, error) {
	if cfg.Firewall.ClusterPorts != schema.ClusterPortsOverlay {
		return Guard{}, nil
	}
	if len(cfg.WireGuard) == 0 {
		return Guard{}, errors.New("firewall.clusterPorts: overlay needs at least one wireguard interface; add one or set clusterPorts: open")
	}
	g := Guard{On: true, Interfaces: []string{"lo"}}
	for _, wg := range cfg.WireGuard {
		g.Interfaces = append(g.Interfaces, wg.Name)
	}
	public := map[int]bool{}
	for _, p := range cfg.Firewall.PublicPorts {
		public[p] = true
	}
	for _, rp := range schema.RolePorts(cfg) {
		p := Port{Number: rp.Number, Proto: rp.Proto}
		if public[p.Number] {
			g.PublicPorts = append(g.PublicPorts, p)
		} else {
			g.Ports = append(g.Ports, p)
		}
	}
	if len(g.Ports) == 0 {
		// A table that loads and polices nothing reads as "guard on" while
		// every port is open; refuse it rather than report a guard that isn't.
		return Guard{}, errors.New("firewall.publicPorts: exempts every port of the role, so the guard would police nothing; set clusterPorts: open instead")
	}
	prefix, err := netip.ParsePrefix(cfg.Network.PodCIDR)
	if err != nil {
		return Guard{}, fmt.Errorf("network.podCIDR: %q is not a CIDR: %w", cfg.Network.PodCIDR, err)
	}
	g.PodCIDR = prefix.Masked().String()
	return g, g.check()
}

// check refuses a guard that cannot be programmed as written, whether it came
// from Render or from a file edited by hand.
func (g Guard) check() error {
	if !g.On {
		if len(g.Ports)+len(g.Interfaces)+len(g.PublicPorts) > 0 || g.PodCIDR != "" {
			return errors.New("guard is off but lists ports, interfaces or a pod network")
		}
		return nil
	}
	if len(g.Ports) == 0 {
		return errors.New("ports: empty; a guard that polices nothing is refused")
	}
	seen := map[string]int{}
	for i, p := range g.Ports {
		if p.Number < 1 || p.Number > 65535 || (p.Proto != "tcp" && p.Proto != "udp") {
			return fmt.Errorf("ports[%d]: %d/%s is not a tcp or udp port", i, p.Number, p.Proto)
		}
		if first, dup := seen[p.String()]; dup {
			return fmt.Errorf("ports[%d]: duplicates ports[%d] (%s)", i, first, p)
		}
		seen[p.String()] = i
	}
	if !slices.Contains(g.Interfaces, "lo") {
		return errors.New("interfaces: lo is missing; the node would lose its own cluster ports")
	}
	names := map[string]int{}
	for i, name := range g.Interfaces {
		if name == "" || len(name) > 15 {
			return fmt.Errorf("interfaces[%d]: %q is not an interface name", i, name)
		}
		if first, dup := names[name]; dup {
			return fmt.Errorf("interfaces[%d]: duplicates interfaces[%d] (%s)", i, first, name)
		}
		names[name] = i
	}
	if _, err := netip.ParsePrefix(g.PodCIDR); err != nil {
		return fmt.Errorf("podCIDR: %w", err)
	}
	return nil
}

// File is the guard as written to FilePath: indented JSON, fields in a fixed
// order, so an unchanged guard rewrites to identical bytes.
func (g Guard) File() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(file{Version: fileVersion, Guard: g}); err != nil {
		panic(err) // plain strings and ints always encode
	}
	return buf.Bytes()
}

// ParseFile reads a guard written by File, refusing unknown fields and an
// unknown version rather than guessing at a partial guard.
func ParseFile(data []byte) (Guard, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return Guard{}, fmt.Errorf("decoding the guard: %w", err)
	}
	if f.Version != fileVersion {
		return Guard{}, fmt.Errorf("version %d is not %d; re-render it with this agent (corium-agent firewall apply --config FILE)", f.Version, fileVersion)
	}
	if err := f.Guard.check(); err != nil {
		return Guard{}, err
	}
	return f.Guard, nil
}
