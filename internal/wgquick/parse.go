package wgquick

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// The two readers of a wg-quick file, at wireguard-tools
// 025f00454fec8fd0816607a28c1ee6cd9a54b134:
//
//   - wg-quick (src/wg-quick/linux.bash, parse_options, lines 40-75) reads
//     each line with `read -r`, cuts it at '#', trims the blanks at the ends
//     of the key and of the value only (line 52-54), and, under `shopt -s
//     nocasematch` (line 49), takes a key starting with '[' as the end of
//     the [Interface] section and the key "[Interface]" as its start (lines
//     55-56). In that section it handles Address, MTU, DNS, Table, PreUp,
//     PreDown, PostUp, PostDown and SaveConfig itself (lines 58-70); every
//     other line is handed to wg (line 72, `wg addconf` at line 252).
//   - wg (src/config.c, config_read_line, lines 506-539) cuts a line at '#',
//     removes every blank in it (src/ctype.h char_is_space: space, \t, \n,
//     \v, \f, \r), matches "[Interface]" and "[Peer]" and the keys without
//     regard to case (process_line, lines 436-504; get_value, lines 25-37,
//     strncasecmp), and refuses any line it does not know.
//
// So "[ Interface ]" is the [Interface] header to wg and not to wg-quick,
// which then hands its Address and MTU lines to wg: the two readings of
// that file differ, and Parse refuses it with a *DisagreeError.

// DisagreeError is a file that wg and wg-quick read differently. It names
// the line, never what the line holds (it may be a key).
type DisagreeError struct {
	Line int
	Why  string
}

func (e *DisagreeError) Error() string {
	return fmt.Sprintf("line %d: %s: wg and wg-quick read this file differently, so corium-agent does not build on it; fix the line or remove the file", e.Line, e.Why)
}

// LineError is a line neither reader takes. It names the line, never what
// the line holds.
type LineError struct {
	Line int
	Why  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Why) }

type section int

const (
	outside section = iota
	inInterface
	inPeer
)

// parser holds the state of one Parse.
type parser struct {
	f            File
	sec          section
	sawSection   bool
	sawInterface bool
	// pending is the comment line above the next key, when a comment
	// field (keys.go) reads it: the key it names and its text.
	pendingKey, pending string
	hasKey              []bool
}

// Parse reads a wg-quick file as wg-quick and wg read it (see the note
// above). A file they read differently is a *DisagreeError; a line either
// refuses (an unknown key, a malformed key or number, a peer without a
// public key) is a *LineError. No error quotes the file.
func Parse(data []byte) (File, error) {
	p, err := parse(data)
	if err != nil {
		return File{}, err
	}
	return p.f, nil
}

// ParsePeers reads a file of [Peer] sections alone, the input of `wg
// addconf` that sets no device field; a file with an [Interface] is an
// error.
func ParsePeers(data []byte) ([]Peer, error) {
	p, err := parse(data)
	if err != nil {
		return nil, err
	}
	if p.sawInterface {
		return nil, errors.New("the file has an [Interface] section, not peer sections alone")
	}
	return p.f.Peers, nil
}

func parse(data []byte) (*parser, error) {
	p := &parser{}
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for n, raw := range lines {
		if err := p.line(raw); err != nil {
			var d *DisagreeError
			if errors.As(err, &d) {
				d.Line = n + 1
				return nil, d
			}
			return nil, &LineError{Line: n + 1, Why: err.Error()}
		}
	}
	for i, ok := range p.hasKey {
		if !ok {
			return nil, fmt.Errorf("[Peer] %d has no %s", i+1, strings.Join(requiredPeerKeys(), " or "))
		}
	}
	return p, nil
}

func (p *parser) line(raw string) error {
	wgLine := wgReading(raw)
	key, value, hook := quickReading(raw)
	if wgLine == "" {
		p.comment(raw)
		return nil
	}
	if isHeader(wgLine, key) {
		return p.sectionErr(wgLine, key)
	}
	commentKey, comment := p.pendingKey, p.pending
	p.pendingKey, p.pending = "", ""
	switch p.sec {
	case inInterface:
		if !strings.EqualFold(commentKey, key) {
			comment = ""
		}
		if handled, err := p.quickKey(key, value, hook, comment); handled {
			return err
		}
		return p.interfaceKey(wgLine)
	case inPeer:
		return p.peerKey(wgLine)
	}
	return errors.New("a key outside any section")
}

// comment keeps the comments Marshal writes: those above the first
// section, and those a comment field reads above a key (# MTU: ...).
func (p *parser) comment(raw string) {
	c := strings.TrimFunc(raw, isBlank)
	switch {
	case !p.sawSection && strings.HasPrefix(c, "#"):
		p.f.Header += raw + "\n"
	case p.sec == inInterface:
		for _, k := range interfaceKeys() {
			if text, ok := strings.CutPrefix(c, "# "+k.name+": "); ok && k.comment {
				p.pendingKey, p.pending = k.name, text
			}
		}
	}
}

// isHeader says whether either reader takes the line as a section header.
func isHeader(wgLine, key string) bool {
	return strings.HasPrefix(key, "[") || strings.EqualFold(wgLine, "[Interface]") || strings.EqualFold(wgLine, "[Peer]")
}

// sectionErr starts the section the line opens, or says why it cannot.
func (p *parser) sectionErr(wgLine, key string) error {
	wgIface, wgPeer := strings.EqualFold(wgLine, "[Interface]"), strings.EqualFold(wgLine, "[Peer]")
	quickIface := strings.EqualFold(key, "[Interface]")
	switch {
	case wgIface && !quickIface:
		return &DisagreeError{Why: "wg reads the [Interface] header here, wg-quick, which matches the header with its inner blanks, does not, and hands the section's Address and MTU lines to wg"}
	case quickIface && !wgIface:
		return &DisagreeError{Why: "wg-quick reads the [Interface] header here, wg does not"}
	case !wgIface && !wgPeer:
		return errors.New("a section header wg does not know")
	}
	p.sawSection, p.pendingKey, p.pending = true, "", ""
	if wgIface {
		p.sec, p.sawInterface = inInterface, true
		return nil
	}
	p.sec = inPeer
	p.f.Peers = append(p.f.Peers, Peer{})
	p.hasKey = append(p.hasKey, false)
	return nil
}

// quickKey takes a key wg-quick handles itself, and the comment above it
// into the key's comment field; handled is false for a key it hands to wg.
func (p *parser) quickKey(name, value, hook, comment string) (handled bool, err error) {
	k, ok := lookup(interfaceKeys(), name, true)
	if !ok {
		return false, nil
	}
	iface := reflect.ValueOf(&p.f.Interface).Elem()
	if c := slices.IndexFunc(interfaceKeys(), func(c key) bool { return c.comment && c.name == k.name }); c >= 0 {
		iface.Field(interfaceKeys()[c].index).SetString(comment)
	}
	return true, setKey(iface, k, value, hook)
}

// interfaceKey takes a line wg-quick hands to wg in [Interface].
func (p *parser) interfaceKey(wgLine string) error {
	name, value, err := wgKey(wgLine)
	if err != nil {
		return err
	}
	if k, ok := lookup(interfaceKeys(), name, false); ok {
		return setKey(reflect.ValueOf(&p.f.Interface).Elem(), k, value, value)
	}
	if q, ok := lookup(interfaceKeys(), name, true); ok {
		return &DisagreeError{Why: "wg-quick reads a key with blanks inside it and hands the line to wg, which reads " + q.name + ", a key only wg-quick handles"}
	}
	return errors.New("a key wg does not know in [Interface]")
}

// peerKey takes a line of a [Peer], all of which wg reads.
func (p *parser) peerKey(wgLine string) error {
	name, value, err := wgKey(wgLine)
	if err != nil {
		return err
	}
	k, ok := lookup(peerKeys(), name, false)
	if !ok {
		return errors.New("a key wg does not know in [Peer]")
	}
	if err := setKey(reflect.ValueOf(&p.f.Peers[len(p.f.Peers)-1]).Elem(), k, value, value); err != nil {
		return err
	}
	if k.required {
		p.hasKey[len(p.hasKey)-1] = true
	}
	return nil
}

// requiredPeerKeys are the keys a [Peer] must state.
func requiredPeerKeys() []string {
	var out []string
	for _, k := range peerKeys() {
		if k.required {
			out = append(out, k.name)
		}
	}
	return out
}

// wgKey splits a line as wg's get_value does: the name before the first
// '=', and a value that must not be empty.
func wgKey(wgLine string) (name, value string, err error) {
	name, value, ok := strings.Cut(wgLine, "=")
	if !ok || value == "" {
		return "", "", errors.New("a line wg does not read as a key and a value")
	}
	return name, value, nil
}

// parseKey reads a key as wg's key_from_base64 does (src/encoding.c): 44
// characters of base64 with no stray bits, so only the canonical spelling.
// The error never quotes the value.
func parseKey(s string) (wgtypes.Key, error) {
	k, err := wgtypes.ParseKey(s)
	if err != nil || k.String() != s {
		return wgtypes.Key{}, errors.New("not a base64 32-byte key")
	}
	return k, nil
}

// wgReading is the line as wg reads it: cut at '#', every blank removed.
func wgReading(raw string) string {
	line, _, _ := strings.Cut(raw, "#")
	return strings.Map(func(r rune) rune {
		if isBlank(r) {
			return -1
		}
		return r
	}, line)
}

// quickReading is the line as parse_options reads it: the key and value of
// the line cut at '#', each trimmed at its ends, and the hook value, the
// text after the first '=' of the whole line (a comment included), trimmed.
// A line without '=' is its own key and value, as bash's ${s#*=} leaves it.
func quickReading(raw string) (key, value, hook string) {
	line := strings.Trim(raw, " \t")
	stripped, _, _ := strings.Cut(line, "#")
	key, value, ok := strings.Cut(stripped, "=")
	if !ok {
		value = stripped
	}
	hook = line
	if _, h, ok := strings.Cut(line, "="); ok {
		hook = h
	}
	return strings.TrimFunc(key, isBlank), strings.TrimFunc(value, isBlank), strings.TrimFunc(hook, isBlank)
}

// isBlank is wg's char_is_space (src/ctype.h), which is also the POSIX
// [[:space:]] wg-quick trims with: space, \t, \n, \v, \f, \r.
func isBlank(r rune) bool {
	return r == ' ' || (r >= '\t' && r <= '\r')
}

// splitList is a comma-separated value, as wg (AllowedIPs) and wg-quick
// (Address, DNS: ${value//,/ } then word splitting) split it.
func splitList(value string) []string {
	return strings.FieldsFunc(value, func(r rune) bool { return r == ',' || isBlank(r) })
}
