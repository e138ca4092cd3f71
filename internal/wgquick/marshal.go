package wgquick

import (
	"strconv"
	"strings"

	"github.com/corium/corium-agent/internal/secret"
)

// Marshal writes f in wg-quick's format: the header, the [Interface] with
// wg-quick's own keys before those `wg-quick strip` hands to wg, then each
// [Peer] after a blank line, one `Key = value` line per key. A file Parse
// read back marshals to the same value.
func Marshal(f File) []byte {
	var b strings.Builder
	b.WriteString(f.Header)
	b.WriteString("[Interface]\n")
	i := f.Interface
	list(&b, "Address", i.Address)
	if i.MTUComment != "" {
		b.WriteString("# MTU: " + i.MTUComment + "\n")
	}
	if i.MTU != 0 {
		kv(&b, "MTU", strconv.Itoa(i.MTU))
	}
	if i.ListenPort != nil {
		kv(&b, "ListenPort", strconv.Itoa(*i.ListenPort))
	}
	secretKV(&b, keyPrivateKey, i.PrivateKey)
	text(&b, "FwMark", i.FwMark)
	list(&b, "DNS", i.DNS)
	text(&b, "Table", i.Table)
	for _, h := range []struct {
		key   string
		lines []string
	}{{"PreUp", i.PreUp}, {"PostUp", i.PostUp}, {"PreDown", i.PreDown}, {"PostDown", i.PostDown}} {
		for _, l := range h.lines {
			kv(&b, h.key, l)
		}
	}
	text(&b, "SaveConfig", i.SaveConfig)
	b.Write(MarshalPeers(f.Peers, "\n"))
	return []byte(b.String())
}

// MarshalPeers writes peers alone, each [Peer] after sep: a file `wg
// addconf` reads without setting any field of the device.
func MarshalPeers(peers []Peer, sep string) []byte {
	var b strings.Builder
	for _, p := range peers {
		b.WriteString(sep + "[Peer]\n")
		kv(&b, "PublicKey", p.PublicKey.String())
		secretKV(&b, keyPresharedKey, p.PresharedKey)
		text(&b, "Endpoint", p.Endpoint)
		list(&b, "AllowedIPs", p.AllowedIPs)
		if p.PersistentKeepalive != nil {
			kv(&b, "PersistentKeepalive", strconv.Itoa(*p.PersistentKeepalive))
		}
	}
	return []byte(b.String())
}

func kv(b *strings.Builder, key, value string) {
	b.WriteString(key)
	b.WriteString(" = ")
	b.WriteString(value)
	b.WriteByte('\n')
}

func text(b *strings.Builder, key, value string) {
	if value != "" {
		kv(b, key, value)
	}
}

func list(b *strings.Builder, key string, values []string) {
	if len(values) > 0 {
		kv(b, key, strings.Join(values, ", "))
	}
}

// secretKV is the one place a secret leaves its Value: the file is its
// destination.
func secretKV(b *strings.Builder, key string, v secret.Value) {
	if !v.IsZero() {
		kv(b, key, v.Reveal())
	}
}
