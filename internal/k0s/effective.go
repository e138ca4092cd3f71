package k0s

import (
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// Input is what the effective configuration takes from a node document,
// its defaults applied, as plain values (schema.K0s fills it in).
type Input struct {
	// BaseInput is what the agent's own part of the ClusterConfig takes.
	config.BaseInput
	// Controller says the role runs the control plane, Kubelet that it
	// runs a kubelet (a worker, or a controller with one).
	Controller, Kubelet bool
	// Guarded says firewall.clusterPorts is overlay: the settings that move
	// a listener where the guard cannot follow are then refused (see
	// Listeners).
	Guarded bool
	// Patch is k0s.patch as the document gives it.
	Patch map[string]any
}

// Effective is what k0s will do with a node document.
type Effective struct {
	// Input is what it was computed from.
	Input Input
	// Base is the ClusterConfig the agent derives from the document alone
	// (config.Base), before the node's part and k0s.patch.
	Base map[string]any
	// Config is Base with k0s.patch merged over it: the ClusterConfig as
	// far as the document decides it.
	Config map[string]any
	// Network is Config's network as k0s will run it (config.ReadNetwork);
	// Problems are what of it the agent cannot work with, and the settings
	// that move a listener where the guard cannot follow (Listeners), at
	// ClusterConfig paths.
	Network  config.Network
	Problems []finding.Finding
	// Ports are the role's ports, from Network.
	Ports Ports
}

// Of computes the effective configuration of a document.
func Of(in Input) Effective {
	e := Effective{Input: in, Base: config.Base(in.BaseInput)}
	e.Config = e.withPatch(e.Base)
	e.Network, e.Problems = config.ReadNetwork(e.Config)
	e.Problems = append(e.Problems, spellingProblems(e.Config)...)
	e.Problems = append(e.Problems, refusals(in, e.Config)...)
	e.Ports = portsOf(in, e.Network)
	return e
}

// Node is the ClusterConfig a node runs: the node's own part (render's:
// its addresses, MTUs, VRRP instance and secrets) over Base, and k0s.patch
// over both. The node's part sets none of the fields Network is read from
// (render's tests hold it to that), so the file's network is Network.
func (e Effective) Node(part map[string]any) map[string]any {
	return e.withPatch(config.Merge(e.Base, part))
}

// withPatch merges k0s.patch over doc: the one place the patch is merged.
func (e Effective) withPatch(doc map[string]any) map[string]any {
	if len(e.Input.Patch) == 0 {
		return doc
	}
	return config.Merge(doc, e.Input.Patch)
}
