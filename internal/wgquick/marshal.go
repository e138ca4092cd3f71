package wgquick

import (
	"reflect"
	"strings"
)

// Marshal writes f in wg-quick's format: the header, the [Interface]'s
// keys in the order of Interface's fields (wg-quick's own keys around
// those `wg-quick strip` hands to wg), then each [Peer] after a blank
// line, one `Key = value` line per key, each key as its field's tag
// spells it (keys.go). A file Parse read back marshals to the same value.
func Marshal(f File) []byte {
	var b strings.Builder
	b.WriteString(f.Header)
	b.WriteString("[Interface]\n")
	writeKeys(&b, reflect.ValueOf(f.Interface), interfaceKeys())
	b.Write(MarshalPeers(f.Peers, "\n"))
	return []byte(b.String())
}

// MarshalPeers writes peers alone, each [Peer] after sep: a file `wg
// addconf` reads without setting any field of the device.
func MarshalPeers(peers []Peer, sep string) []byte {
	var b strings.Builder
	for _, p := range peers {
		b.WriteString(sep + "[Peer]\n")
		writeKeys(&b, reflect.ValueOf(p), peerKeys())
	}
	return []byte(b.String())
}
