package wgquick

import (
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/secret"
)

// File is one wg-quick file: the comment lines above its [Interface]
// (render's managed-by line), the interface, and its peers in file order.
type File struct {
	// Header is the comment lines before the first section, each ending
	// in a line break, written as they are.
	Header    string
	Interface Interface
	Peers     []Peer
}

// Interface is the [Interface] section. The keys wg-quick handles itself
// (wireguard-tools src/wg-quick/linux.bash, parse_options) come first; the
// rest are wg's (src/config.c, process_line). A field left at its zero
// value is a key the file does not state.
type Interface struct {
	Address []string
	// MTUComment is the comment render writes above the MTU line, where
	// the value came from: "# MTU: " and this text.
	MTUComment string
	MTU        int
	DNS        []string
	Table      string
	PreUp      []string
	PostUp     []string
	PreDown    []string
	PostDown   []string
	// SaveConfig is "true" or "false" as the file spells it, "" unset.
	SaveConfig string

	ListenPort *int
	FwMark     string
	PrivateKey secret.Value
}

// Peer is one [Peer] section, as wg reads it.
type Peer struct {
	PublicKey    wgtypes.Key
	PresharedKey secret.Value
	Endpoint     string
	AllowedIPs   []string
	// PersistentKeepalive is nil when unset; "off" reads as 0.
	PersistentKeepalive *int
}

// The key names the format gives its secrets: the one place they are
// spelled. SecretKeys lists them for what must name them (a plan file's
// secret keys).
const (
	keyPrivateKey   = "PrivateKey"
	keyPresharedKey = "PresharedKey"
)

// SecretKeys are the keys of the format whose values are secrets.
var SecretKeys = []string{keyPrivateKey, keyPresharedKey}
