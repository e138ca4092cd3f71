package k0s

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/k0s/config"
)

//go:generate go run ../schema/gen firewall ../../docs/firewall.md

// Listener is one socket that k0s v1.36.3+k0s.0, or a component it
// starts, opens on a node, or can be told to open: a row of the table the
// guard's port set is computed from (Listeners) and docs/firewall.md shows.
type Listener struct {
	// Component is the process or pod that listens.
	Component string
	// Port and Proto are its default port ("tcp" or "udp"); Port is 0 for
	// a port the component picks itself.
	Port  int
	Proto string
	// Bind is where it listens by default: "every address", a loopback
	// address, a unix socket, or "off".
	Bind string
	// Role is the role that runs it: RoleController, or RoleWorker (a
	// worker, or a controller with a kubelet).
	Role string
	// When is the condition under which it runs ("" always).
	When string
	// Handling is what the guard does with it.
	Handling Handling
	// Follows names the settings that move it which the guard follows
	// ("" when none).
	Follows string
	// Refuses are the settings that move or rebind it where the guard
	// cannot follow: a document that sets one is refused by name.
	Refuses []Setting
	// Instead says what to do instead of a refused setting.
	Instead string
	// Source is where k0s (or the component) says so: file and line at
	// the tag of the release k0s v1.36.3+k0s.0 runs.
	Source string

	// port is the port it listens on at every address in a configuration,
	// 0 where it does not run or does not answer there; set for followed
	// rows only.
	port func(Input, config.Network) int
}

// The roles of a Listener.
const (
	RoleController = "controller"
	RoleWorker     = "worker"
)

// Handling is what the guard does with a listener.
type Handling string

const (
	// Followed: the guard's port set is computed from the effective
	// configuration, so a moved port is guarded where it moved.
	Followed Handling = "followed"
	// Loopback: bound to loopback (or a unix socket) by k0s, nothing to
	// guard; a setting that rebinds it elsewhere is refused.
	Loopback Handling = "loopback"
	// Refused: off by default; a setting that turns it on is refused.
	Refused Handling = "refused"
)

// SettingKind is how a refused setting is spelled in a ClusterConfig.
type SettingKind int

const (
	// Arg is a flag a component takes from its block's extraArgs (a key)
	// and rawArgs (--key=value or --key value).
	Arg SettingKind = iota
	// ProfileValue is a key of a worker profile's kubelet configuration
	// (spec.workerProfiles[*].values), which every profile may set: one
	// named default replaces the default for every worker.
	ProfileValue
	// EnvVar is an environment variable of a block's envVars.
	EnvVar
)

// Setting is a ClusterConfig setting that moves or rebinds a listener.
type Setting struct {
	Kind SettingKind
	// Block is the dotted ClusterConfig path of the component's block
	// ("spec.controllerManager"); unused for ProfileValue.
	Block string
	// Key is the flag's name without dashes, the profile key, or the
	// variable's name.
	Key string
}

func (s Setting) String() string { return strings.Join(s.Spellings(), ", ") }

// Spellings are the ways a document sets s.
func (s Setting) Spellings() []string {
	switch s.Kind {
	case ProfileValue:
		return []string{"spec.workerProfiles[*].values." + s.Key}
	case EnvVar:
		return []string{s.Block + ".envVars." + s.Key}
	}
	return []string{s.Block + ".extraArgs." + s.Key, s.Block + ".rawArgs --" + s.Key}
}

// Runs says whether the role of in runs the listener's role's processes.
func (l Listener) Runs(in Input) bool {
	if l.Role == RoleController {
		return in.Controller
	}
	return in.Kubelet
}

// PortIn is the port the listener answers on at every address in the
// effective configuration e, 0 when it is not a followed listener that
// runs there.
func (l Listener) PortIn(e Effective) int {
	if l.Handling != Followed || l.port == nil || !l.Runs(e.Input) {
		return 0
	}
	return l.port(e.Input, e.Network)
}

// Name is the listener's name in a sentence: its component and default
// port.
func (l Listener) Name() string {
	if l.Port == 0 {
		return l.Component
	}
	return fmt.Sprintf("%s on %d/%s", l.Component, l.Port, l.Proto)
}

// Listeners is the table: every listener k0s v1.36.3+k0s.0 starts or can
// be told to open on a node, with what the guard does with it. A new
// listener is a new row, and the tests walk every row.
func Listeners() []Listener { return append([]Listener(nil), table...) }

// ListenerOf names the followed listener of e that answers on port/proto at
// every address, "" when none does.
func ListenerOf(e Effective, port int, proto string) string {
	var names []string
	for _, l := range table {
		if l.Proto == proto && l.PortIn(e) == port {
			names = append(names, l.Component)
		}
	}
	return strings.Join(names, ", ")
}
