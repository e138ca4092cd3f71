package listen

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/shown"
)

// Class is what a listener that answers the underlay is, against the guard.
type Class string

const (
	// Unguarded: the cluster's, and neither the guard nor
	// firewall.publicPorts holds its port: it answers the underlay though
	// clusterPorts: overlay promises it does not.
	Unguarded Class = "unguarded"
	// Guarded: the guard holds its port.
	Guarded Class = "guarded"
	// Public: the cluster's, on a port firewall.publicPorts leaves open.
	Public Class = "public"
	// Open: the cluster's, with clusterPorts: open (no guard, by choice).
	Open Class = "open"
	// WireGuardPort: a WireGuard interface's listen port, which the
	// underlay must reach.
	WireGuardPort Class = "wireguard"
	// HealthCheckNodePort: kube-proxy's or kube-router's listener for a
	// LoadBalancer Service's health check, in the service node-port range,
	// which the guard leaves to Kubernetes (healthCheckNodePort).
	HealthCheckNodePort Class = "healthCheckNodePort"
	// UnknownHolder: no process holds it and it is no WireGuard, VXLAN or
	// FOU device's, on a cluster port (one the guard holds, or one k0s's
	// table lists): what answers there instead of the cluster's own
	// listener cannot be told. A socket passed between processes over
	// SCM_RIGHTS is held by none while it is in flight, so "no process"
	// does not make a socket the kernel's.
	UnknownHolder Class = "unknownHolder"
	// Host: another service of the host, a kernel device's socket on a
	// port the guard does not hold, or a socket whose holder is unknown
	// on a port that is not the cluster's; information only, the guard
	// leaves them alone on purpose.
	Host Class = "host"
)

// Node is what the sockets are judged against: the guard the agent
// rendered and the overlay it configured.
type Node struct {
	// Guard is the rendered guard; On false for clusterPorts: open.
	Guard firewall.Guard
	// PublicPorts is firewall.publicPorts.
	PublicPorts []int
	WireGuard   []WireGuard
	// Component names the listener of k0s's table (k0s.Listeners) that
	// answers at every address on a port, "" for none; nil names none.
	Component func(port int, proto string) string
}

// WireGuard is one overlay interface: a socket bound to it, or to one of
// its addresses, does not answer the underlay.
type WireGuard struct {
	Name       string
	Addresses  []netip.Addr
	ListenPort int // 0 when none is known
}

// Listener is one socket that answers the underlay, with its verdict. It
// names the process by comm and cgroup only.
type Listener struct {
	Proto string `json:"proto"`
	// Address is the bound address ("0.0.0.0" and "::" for a wildcard).
	Address string `json:"address"`
	Port    int    `json:"port"`
	// Device is the link it is bound to, "" for none.
	Device string `json:"device,omitempty"`
	// Process is the holder's comm; "" for a socket no process holds.
	Process string `json:"process,omitempty"`
	PID     int    `json:"pid,omitempty"`
	// Kernel is the kernel's device that holds a socket no process holds;
	// zero when a process holds it or none is known to.
	Kernel Kernel `json:"kernel,omitzero"`
	// HolderUnknown says no process holds it, none could have been missed
	// (Unread), and it is no kernel device's that status knows.
	HolderUnknown bool `json:"holderUnknown,omitempty"`
	// Unit is the k0s unit or the pod's cgroup for the cluster's, the
	// systemd unit (when there is one) for a host service.
	Unit  string `json:"unit,omitempty"`
	Class Class  `json:"class"`
	// Component is the listener of k0s's table that the configuration
	// puts on this port (docs/firewall.md, "Every listener k0s opens"),
	// "" when none does: what the port is for, whoever holds it.
	Component string `json:"component,omitempty"`
	// Unread says its holder could not be read, so whether it is the
	// cluster's is not known (it reads as a host service).
	Unread bool `json:"unread,omitempty"`
}

// Endpoint is the listener as "6443/tcp on 0.0.0.0". The device's name is
// the host's, shown as package shown shows outside text.
func (l Listener) Endpoint() string {
	s := fmt.Sprintf("%d/%s on %s", l.Port, l.Proto, l.Address)
	if l.Device != "" {
		s += "%" + shown.Text(l.Device)
	}
	return s
}

// Holder is who holds the socket: "kube-apiserver (pid 42) in
// k0scontroller.service", "the kernel's VXLAN device vxlan.calico",
// "holder unknown ...". The comm and the cgroup's unit are the process's
// own to choose (a comm may hold a line break or a terminal's escape
// sequence), so they are shown as package shown shows outside text.
func (l Listener) Holder() string {
	switch {
	case l.Unread:
		return "a process that could not be read"
	case l.PID == 0 && l.Process == "" && l.Kernel.Kind != "":
		return l.Kernel.String()
	case l.PID == 0 && l.Process == "":
		return "holder unknown (no process holds it, and it is no WireGuard, VXLAN or FOU device's)"
	}
	s := fmt.Sprintf("%s (pid %d)", shown.Text(l.Process), l.PID)
	if l.Unit != "" {
		s += " in " + shown.Text(l.Unit)
	}
	return s
}

// Classify keeps the sockets that answer the underlay and judges each; the
// others (loopback, the overlay's) are left out. The result is sorted by
// port, protocol and address, each socket once.
func Classify(socks []Socket, n Node) []Listener {
	var out []Listener
	seen := map[Listener]bool{}
	for _, s := range socks {
		if !answersUnderlay(s, n) {
			continue
		}
		l := Listener{Proto: s.Proto, Address: s.Addr.String(), Port: s.Port, Device: s.Device, Unread: s.Unread}
		if o := s.Owner; o != nil {
			l.Process, l.PID = o.Comm, o.PID
		}
		l.Kernel = kernelOf(s, n)
		l.HolderUnknown = s.Owner == nil && !s.Unread && l.Kernel == (Kernel{})
		if n.Component != nil {
			l.Component = n.Component(s.Port, s.Proto)
		}
		l.Unit, l.Class = judge(s, n, l)
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b Listener) int {
		return cmp.Or(cmp.Compare(a.Port, b.Port), cmp.Compare(a.Proto, b.Proto), cmp.Compare(a.Address, b.Address), cmp.Compare(a.PID, b.PID))
	})
	return out
}

// answersUnderlay: bound to a wildcard or an address of no overlay link,
// and to no loopback or overlay device.
func answersUnderlay(s Socket, n Node) bool {
	a := s.Addr.Unmap()
	if a.IsLoopback() || s.Device == "lo" {
		return false
	}
	for _, wg := range n.WireGuard {
		if s.Device == wg.Name || slices.ContainsFunc(wg.Addresses, func(w netip.Addr) bool { return w.Unmap() == a }) {
			return false
		}
	}
	return true
}

// judge says whose the socket is and what the guard makes of it; l is the
// listener so far, its holder and component named.
func judge(s Socket, n Node, l Listener) (string, Class) {
	if s.Proto == "udp" && slices.ContainsFunc(n.WireGuard, func(w WireGuard) bool { return w.ListenPort == s.Port }) {
		return "", WireGuardPort
	}
	guarded := n.Guard.On && slices.Contains(n.Guard.Ports, firewall.Port{Number: s.Port, Proto: s.Proto})
	if s.Owner == nil {
		switch {
		case l.HolderUnknown && (guarded || l.Component != ""):
			// Something nobody can name sits on a port of the
			// cluster's: the cluster's own listener cannot bind it, or
			// it is the cluster's passed away and not yet taken.
			return "", UnknownHolder
		case guarded:
			// A kernel device's (a CNI's VXLAN device), or an unknown
			// holder's (Unread) that the guard holds.
			return "", Guarded
		}
		return "", Host
	}
	unit, ours := clusterUnit(s.Owner.Cgroups)
	switch {
	case !ours:
		return hostUnit(s.Owner.Cgroups), Host
	case !n.Guard.On:
		return unit, Open
	case guarded:
		return unit, Guarded
	case slices.Contains(n.PublicPorts, s.Port):
		return unit, Public
	case healthCheckNodePort(s):
		return unit, HealthCheckNodePort
	}
	return unit, Unguarded
}

// nodePortFirst and nodePortLast bound the service node-port range as
// kube-apiserver has it by default (--service-node-port-range, Kubernetes
// v1.36.3 pkg/kubeapiserver/options/options.go:27), from which a
// Service's healthCheckNodePort is allocated.
const nodePortFirst, nodePortLast = 30000, 32767

// healthCheckNodePort is whether a cluster socket is a health-check node
// port: kube-proxy (and kube-router, when it runs as the service proxy)
// listens on one, over HTTP, for each LoadBalancer Service with
// externalTrafficPolicy: Local, on every address unless kube-proxy's
// nodePortAddresses narrows it. It is there for a load balancer on the
// underlay to ask which nodes hold the Service's endpoints, and it answers
// only that (the Service's name, its local endpoint count), so the guard
// leaves the range to Kubernetes as it leaves NodePorts (docs/firewall.md).
// A range moved by the API server's flags is not followed: a health check
// outside this one reads as unguarded, loud rather than passed.
func healthCheckNodePort(s Socket) bool {
	return s.Proto == "tcp" && s.Port >= nodePortFirst && s.Port <= nodePortLast &&
		(s.Owner.Comm == "kube-proxy" || s.Owner.Comm == "kube-router")
}
