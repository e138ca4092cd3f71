package plan

import (
	"io/fs"
	"strings"
)

// Plan is what render decides and apply carries out: files, links and live
// actions, in the order they must happen. It holds no I/O.
type Plan struct {
	Steps []Step `json:"steps"`
}

// Step is one named stage of the first-boot sequence (overlay, k0s, guard,
// ...), so status can report each with its outcome and duration.
type Step struct {
	Name    string   `json:"name"`
	Files   []File   `json:"files,omitempty"`
	Links   []Link   `json:"links,omitempty"`
	Actions []Action `json:"actions,omitempty"`
	// Removes are node paths deleted after the actions (a file a stopped
	// unit no longer needs); one already gone is not an error.
	Removes []string `json:"removes,omitempty"`
}

// File is one file under the root.
type File struct {
	Path    string      `json:"path"`
	Mode    fs.FileMode `json:"mode"`
	DirMode fs.FileMode `json:"dirMode,omitempty"`
	Content []byte      `json:"-"`
	// Secret marks content holding resolved secrets: plans never show it and
	// diffs mask it. SecretKeys names the keys whose values are the secrets,
	// spelled as SecretSyntax says, so a plan can read the values out of
	// both sides of a diff, also one that is only in the file on disk, and
	// mask them wherever they show; a Secret file without SecretKeys is
	// secret as a whole.
	Secret       bool     `json:"secret,omitempty"`
	SecretKeys   []string `json:"secretKeys,omitempty"`
	SecretSyntax Syntax   `json:"secretSyntax,omitempty"`
}

// Syntax is how a file spells its keys and values.
type Syntax string

const (
	// SyntaxINI is a wg-quick file, read and shown through package
	// wgquick, its secret keys read whatever their spelling.
	SyntaxINI Syntax = "ini"
	// SyntaxYAML is YAML, where one value may span lines (a block scalar,
	// a quoted or plain scalar folded over several) or be escaped.
	SyntaxYAML Syntax = "yaml"
	// SyntaxK0s is a k0s.yaml, read and shown through package k0syaml:
	// the agent's own secrets are known by their place in the typed
	// document, whatever the spelling of their keys; SecretKeys are those
	// of the text the codec does not model (k0s.patch's values), read as
	// YAML.
	SyntaxK0s Syntax = "k0s"
)

// Link is a symlink under the root, as `systemctl --root enable` makes them.
type Link struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// ActionKind names a live action.
type ActionKind string

const (
	// ActionDaemonReload reloads systemd when one of its Units is loaded
	// behind what is on disk (see RenderUnits).
	ActionDaemonReload ActionKind = "daemon-reload"
	ActionStart        ActionKind = "start"       // started and waited for
	ActionRestart      ActionKind = "restart"     // restarted and waited for
	ActionReload       ActionKind = "reload"      // reloaded and waited for; never a restart
	ActionStop         ActionKind = "stop"        // stopped and waited for
	ActionQueueStart   ActionKind = "queue-start" // start job queued, not waited for
	ActionK0sInstall   ActionKind = "k0s-install" // Args is the full argument list
	ActionFirewall     ActionKind = "firewall"    // program the guard
	ActionHostname     ActionKind = "hostname"    // Args[0] is the name
	ActionVerifyDevice ActionKind = "verify-wireguard"
	// ActionWireGuardPeers adds and removes whole peers of a running
	// device, as Peers says, and touches no other peer.
	ActionWireGuardPeers ActionKind = "wireguard-peers"
)

// Action is a live action on the host; under a root other than "/" it is
// listed as skipped, never performed.
type Action struct {
	Kind ActionKind `json:"kind"`
	Unit string     `json:"unit,omitempty"`
	Args []string   `json:"args,omitempty"`
	// Device is what the verify action checks the live device against.
	Device *Device `json:"device,omitempty"`
	// Peers is what a wireguard-peers action adds and removes.
	Peers *PeerChange `json:"peers,omitempty"`
	// Units are the units a reload is for: it runs only when systemd has
	// one of them loaded from files older than the disk's.
	Units []string `json:"units,omitempty"`
	// When names the condition for the action ("changed" restarts only when
	// one of OnChange changed).
	OnChange []string `json:"onChange,omitempty"`
}

// Words is the action's arguments as plans, logs and the status file show
// them: its Args, the device a verify action checks, the peers a
// wireguard-peers action adds and removes, or the units a reload is for.
func (a Action) Words() []string {
	switch {
	case a.Device != nil:
		return a.Device.Words()
	case a.Peers != nil:
		return a.Peers.Words()
	case len(a.Units) > 0:
		return a.Units
	}
	return a.Args
}

// String is the action as one line of text, for logs, plans and fakes.
func (a Action) String() string {
	parts := []string{string(a.Kind)}
	if a.Unit != "" {
		parts = append(parts, a.Unit)
	}
	parts = append(parts, a.Words()...)
	return strings.Join(parts, " ")
}
