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

// Interface is the [Interface] section. Each field's `wg:"Key"` tag is the
// one place its key is spelled: Marshal writes the fields in this order
// under those keys, and Parse reads them back by them (keys.go says what
// the options mean). The keys wg-quick handles itself (wireguard-tools
// src/wg-quick/linux.bash, parse_options) are tagged quick; the rest are
// wg's (src/config.c, process_line). A field left at its zero value is a
// key the file does not state.
type Interface struct {
	Address []string `wg:"Address,quick"`
	// MTUComment is the comment render writes above the MTU line, where
	// the value came from: "# MTU: " and this text.
	MTUComment string `wg:"MTU,comment"`
	MTU        int    `wg:"MTU,quick"`

	ListenPort *int         `wg:"ListenPort"`
	PrivateKey secret.Value `wg:"PrivateKey" secret:"wireguard-key"`
	FwMark     string       `wg:"FwMark"`

	DNS      []string `wg:"DNS,quick"`
	Table    string   `wg:"Table,quick"`
	PreUp    []string `wg:"PreUp,quick,each"`
	PostUp   []string `wg:"PostUp,quick,each"`
	PreDown  []string `wg:"PreDown,quick,each"`
	PostDown []string `wg:"PostDown,quick,each"`
	// SaveConfig is "true" or "false" as the file spells it, "" unset.
	SaveConfig string `wg:"SaveConfig,quick,bool"`
}

// Peer is one [Peer] section, as wg reads it; its tags as Interface's.
type Peer struct {
	PublicKey    wgtypes.Key  `wg:"PublicKey,required"`
	PresharedKey secret.Value `wg:"PresharedKey" secret:"wireguard-key"`
	Endpoint     string       `wg:"Endpoint"`
	AllowedIPs   []string     `wg:"AllowedIPs"`
	// PersistentKeepalive is nil when unset; "off" reads as 0.
	PersistentKeepalive *int `wg:"PersistentKeepalive,off"`
}
