package report

import (
	"time"

	"github.com/corium/corium-agent/internal/status"
)

// Report is everything status prints. Its types carry public keys, addresses,
// names and states only: there is deliberately no field for a private or
// preshared key, so none can leak through it.
type Report struct {
	Verdict   Verdict   `json:"verdict"`
	CheckedAt time.Time `json:"checkedAt"`
	Root      string    `json:"root"`
	// Provisioned is true when the marker is present.
	Provisioned bool `json:"provisioned"`
	// Applied describes the applied configuration; nil when it is absent.
	Applied *Applied `json:"applied,omitempty"`
	// LastRun is the last agent run as the status file records it; nil when
	// the file is absent (it lives in /run and does not survive a reboot).
	LastRun *LastRun `json:"lastRun,omitempty"`
	// AgentUnit is the agent's unit when its last start failed and left no
	// record of the agent's: nil otherwise.
	AgentUnit *AgentUnit `json:"agentUnit,omitempty"`
	// Provenance is where the configuration of the last run came from.
	Provenance  *status.Provenance `json:"provenance,omitempty"`
	NodeAddress *NodeAddress       `json:"nodeAddress,omitempty"`
	Route       *Route             `json:"route,omitempty"`
	Interfaces  []Interface        `json:"interfaces"`
	Firewall    *Firewall          `json:"firewall,omitempty"`
	K0s         *K0s               `json:"k0s,omitempty"`
	// Listeners is what answers the underlay, judged against the guard;
	// nil when the sockets could not be read (see Unknown).
	Listeners *Listeners `json:"listeners,omitempty"`
	// Unknown lists what could not be checked, each with why.
	Unknown []string `json:"unknown,omitempty"`
}

// State is the first word of the verdict.
type State string

const (
	OK            State = "ok"
	Degraded      State = "degraded"
	Failed        State = "failed"
	Unprovisioned State = "unprovisioned"
)

// Layers, bottom-up; the verdict names the lowest one that is broken.
const (
	LayerRoute    = "route"
	LayerTunnel   = "tunnel"
	LayerFirewall = "firewall"
	LayerK0s      = "k0s"
)

// Verdict is the one-line answer.
type Verdict struct {
	State State `json:"state"`
	// Layer is the broken layer (degraded) or the failed step (failed).
	Layer  string `json:"layer,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Line is the verdict as printed first by the text form.
	Line string `json:"line"`
}

// Applied is the applied configuration, as far as status uses it.
type Applied struct {
	Path       string   `json:"path"`
	Role       string   `json:"role"`
	Cluster    string   `json:"cluster,omitempty"`
	Interfaces []string `json:"interfaces"`
	// Guard is the firewall.clusterPorts setting.
	Guard string `json:"guard,omitempty"`
}

// LastRun is the last run of the agent.
type LastRun struct {
	Command    string         `json:"command"`
	Outcome    status.Outcome `json:"outcome"`
	StartedAt  time.Time      `json:"startedAt"`
	FinishedAt time.Time      `json:"finishedAt"`
	// FailedStep is the step that failed ("" unless the run failed).
	FailedStep string   `json:"failedStep,omitempty"`
	Error      string   `json:"error,omitempty"`
	Refusals   []string `json:"refusals,omitempty"`
	// Unfinished is the run before it, which began to change the node and
	// never ended (a power cut, a kill); nil when there was none.
	Unfinished *status.Unfinished `json:"unfinished,omitempty"`
}

// NodeAddress is the address the node registered with, and how it was
// decided.
type NodeAddress struct {
	// Address is the recorded node address ("" when none was recorded).
	Address string `json:"address,omitempty"`
	// Decision is the decision with its candidates: as recorded by the last
	// run, or made again now from the live links (Recomputed).
	Decision   *status.NodeAddress `json:"decision,omitempty"`
	Recomputed bool                `json:"recomputed,omitempty"`
}

// Route is the underlay: whether the node address is still where it was
// decided to be, and whether every configured peer endpoint has a route.
type Route struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
	// DefaultRoute is "IFACE via source ADDR", "" when the host has none.
	DefaultRoute string `json:"defaultRoute,omitempty"`
	// Endpoints lists the route to each configured peer endpoint.
	Endpoints []EndpointRoute `json:"endpoints,omitempty"`
}

// EndpointRoute is the route to one peer endpoint.
type EndpointRoute struct {
	Interface string `json:"interface"`
	Endpoint  string `json:"endpoint"`
	// Via is the link the route leaves by; "" when there is none.
	Via string `json:"via,omitempty"`
	// Problem says why the endpoint has no route, or why it was not
	// looked up (a host name is not resolved here).
	Problem string `json:"problem,omitempty"`
}

// Interface is one configured WireGuard interface.
type Interface struct {
	Name string `json:"name"`
	// Unit is the wg-quick unit and its state ("unknown: why" when unread).
	Unit      string `json:"unit"`
	UnitState string `json:"unitState"`
	// Device is "present", "absent" or "unknown: why".
	Device     string   `json:"device"`
	PublicKey  string   `json:"publicKey,omitempty"`
	ListenPort int      `json:"listenPort,omitempty"`
	Addresses  []string `json:"addresses,omitempty"`
	// Drift names each field where the device differs from the applied
	// configuration.
	Drift []Drift `json:"drift,omitempty"`
	Peers []Peer  `json:"peers"`
}

// Drift is one field of the device that differs from the configuration.
type Drift struct {
	Field string `json:"field"`
	Want  string `json:"want"`
	Have  string `json:"have"`
}

// Class is a peer's reachability.
type Class string

const (
	// Reachable: a handshake within HandshakeFresh.
	Reachable Class = "reachable"
	// Stale: the last handshake is older; not reachable.
	Stale Class = "stale"
	// Never: on the device, no handshake yet.
	Never Class = "never"
	// Missing: configured, absent from the device.
	Missing Class = "missing"
)

// HandshakeFresh is the age past which a handshake no longer proves the peer
// reachable: WireGuard re-handshakes every two minutes while traffic flows,
// and gives a session up after three.
const HandshakeFresh = 180 * time.Second

// Peer is one configured peer.
type Peer struct {
	PublicKey string `json:"publicKey"`
	// Address is the overlay address it is named by, from its allowedIPs
	// (peername.go); absent when they hold none.
	Address string `json:"address,omitempty"`
	// Endpoint is the configured endpoint; LiveEndpoint the device's.
	Endpoint     string   `json:"endpoint,omitempty"`
	LiveEndpoint string   `json:"liveEndpoint,omitempty"`
	AllowedIPs   []string `json:"allowedIPs"`
	RxBytes      int64    `json:"rxBytes"`
	TxBytes      int64    `json:"txBytes"`
	// LatestHandshake is zero (omitted) when there was none.
	LatestHandshake time.Time `json:"latestHandshake,omitzero"`
	// HandshakeAgeSeconds is -1 when there was no handshake.
	HandshakeAgeSeconds int64 `json:"handshakeAgeSeconds"`
	Class               Class `json:"class"`
}

// Firewall is table inet corium: the cluster-port guard and the pod
// masquerade.
type Firewall struct {
	// Status is current, stale, missing, off, or "unknown: why".
	Status string `json:"status"`
	Reason string `json:"reason"`
	// Holds is what the rendered table is for: "the guard", "the pod
	// masquerade", both, or "" for no table.
	Holds string `json:"holds,omitempty"`
	// FileProblem is what is wrong with the rendered guard itself, whatever
	// the kernel holds: a file that cannot be used, one an older agent
	// wrote whose guard leaves pods out, or one that is not what this agent
	// renders from the applied configuration. "" when there is nothing.
	FileProblem string `json:"fileProblem,omitempty"`
}

// K0s is the k0s service and the address it was installed with.
type K0s struct {
	Unit      string `json:"unit"`
	UnitState string `json:"unitState"`
	// InstalledAddress is the address k0s was installed with; Via says where
	// that was read.
	InstalledAddress string `json:"installedAddress,omitempty"`
	Via              string `json:"via,omitempty"`
	// AddressOnHost says whether a live interface carries the installed
	// address; nil when the links could not be read.
	AddressOnHost *bool `json:"addressOnHost,omitempty"`
}
