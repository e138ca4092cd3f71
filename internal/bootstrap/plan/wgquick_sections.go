package plan

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
	"unicode"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// Sections is a wg-quick file split as wg's config parser reads it
// (wireguard-tools src/config.c, config_read_line): each line with its
// comment cut at '#' and every blank removed, empty lines dropped, grouped
// by section. It holds the file's keys; its String shows none of them.
type Sections struct {
	// Interface is the lines of the [Interface] sections, in file order.
	Interface []string
	Peers     []PeerSection
}

// PeerSection is one [Peer] section: its public key and its lines.
type PeerSection struct {
	Key   Key
	Lines []string
}

// String names the peer and nothing of what its lines hold (a preshared
// key), so a section printed by mistake shows no secret.
func (p PeerSection) String() string { return "peer " + p.Key.String() }

// String counts the sections, and shows none of their lines.
func (s Sections) String() string {
	return "wg-quick file with " + strconv.Itoa(len(s.Peers)) + " peers"
}

// Text is the sections of the named peers as a file `wg addconf` reads:
// a [Peer] header and the section's lines each, and no [Interface], so
// addconf leaves the device's own settings alone.
func (s Sections) Text(keys []Key) ([]byte, bool) {
	var b bytes.Buffer
	for _, k := range keys {
		p, ok := s.Peer(k)
		if !ok {
			return nil, false
		}
		b.WriteString("[Peer]\n")
		for _, l := range p.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), true
}

// Peer is the section of the peer with key k.
func (s Sections) Peer(k Key) (PeerSection, bool) {
	for _, p := range s.Peers {
		if p.Key == k {
			return p, true
		}
	}
	return PeerSection{}, false
}

// ConfLine is a wg-quick file's line as wg's parser reads it: its comment
// cut at '#' and every blank removed.
func ConfLine(raw string) string {
	line, _, _ := strings.Cut(raw, "#")
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, line)
}

// ParseSections splits conf into its sections. It fails (false) on what
// it cannot pair with one peer for certain: a line outside any section, a
// [Peer] without exactly one valid PublicKey, or two sections of one peer.
func ParseSections(conf []byte) (Sections, bool) {
	var s Sections
	var cur *PeerSection
	inInterface := false
	sc := bufio.NewScanner(bytes.NewReader(conf))
	for sc.Scan() {
		line := ConfLine(sc.Text())
		switch {
		case line == "":
			continue
		case strings.EqualFold(line, "[Interface]"):
			inInterface, cur = true, nil
			continue
		case strings.EqualFold(line, "[Peer]"):
			s.Peers = append(s.Peers, PeerSection{})
			inInterface, cur = false, &s.Peers[len(s.Peers)-1]
			continue
		}
		switch {
		case inInterface:
			s.Interface = append(s.Interface, line)
		case cur != nil:
			cur.Lines = append(cur.Lines, line)
		default:
			return Sections{}, false
		}
	}
	if sc.Err() != nil {
		return Sections{}, false
	}
	seen := map[Key]bool{}
	for i := range s.Peers {
		k, ok := publicKeyOf(s.Peers[i].Lines)
		if !ok || seen[k] {
			return Sections{}, false
		}
		seen[k] = true
		s.Peers[i].Key = k
	}
	return s, true
}

func publicKeyOf(lines []string) (Key, bool) {
	var found []Key
	for _, l := range lines {
		name, value, _ := strings.Cut(l, "=")
		if !strings.EqualFold(name, "PublicKey") {
			continue
		}
		// A key is base64 and may end in '='; only the first '=' splits.
		k, err := wgtypes.ParseKey(value)
		if err != nil {
			return Key{}, false
		}
		found = append(found, Key(k))
	}
	if len(found) != 1 {
		return Key{}, false
	}
	return found[0], true
}
