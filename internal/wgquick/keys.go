package wgquick

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/secret"
)

// A field of Interface or Peer is a key of the format by its tag,
// `wg:"Key,option,..."`: Key is the name Marshal writes and Parse matches
// (in any case, as both readers do). The options:
//
//   - quick: wg-quick handles the key itself and never hands it to wg;
//     Parse reads its value as wg-quick does, trimmed at the ends only.
//   - each: a list written one line per item, each item the whole text
//     after the '=' (a hook's command); a list without it is written on
//     one line, joined with ", ", and read split at commas and blanks.
//   - comment: not a key but the comment written on the line above Key's,
//     "# Key: " and the field.
//   - required: written even when zero, and a section without it is
//     refused (a peer's PublicKey).
//   - bool: a string that must read "true" or "false", in any case.
//   - off: a number that may be spelled "off", read as 0.
//
// A field's type says how its value is written and read: a string as it
// is, an int or *int as a number (zero or nil: not written), a list as
// above, a secret.Value or a wgtypes.Key as a base64 key, the secret
// revealed only into the file.
type key struct {
	name                                    string
	index                                   int
	quick, each, comment, required, boolean bool
	off, secret                             bool
}

// keysOf is the table of t's tagged fields, in field order.
func keysOf(t reflect.Type) []key {
	var out []key
	for i := range t.NumField() {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("wg")
		if !ok {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		_, tagged := f.Tag.Lookup(secret.Tag)
		k := key{name: name, index: i, secret: tagged || f.Type == reflect.TypeFor[secret.Value]()}
		options := map[string]*bool{"quick": &k.quick, "each": &k.each, "comment": &k.comment, "required": &k.required, "bool": &k.boolean, "off": &k.off}
		for _, o := range strings.Split(opts, ",") {
			if set, ok := options[o]; ok {
				*set = true
			}
		}
		out = append(out, k)
	}
	return out
}

var (
	interfaceKeys = sync.OnceValue(func() []key { return keysOf(reflect.TypeFor[Interface]()) })
	peerKeys      = sync.OnceValue(func() []key { return keysOf(reflect.TypeFor[Peer]()) })
)

// lookup is the key of keys named name, as the readers match it: in any
// case; a comment is no key.
func lookup(keys []key, name string, quick bool) (key, bool) {
	i := slices.IndexFunc(keys, func(k key) bool { return !k.comment && k.quick == quick && strings.EqualFold(k.name, name) })
	if i < 0 {
		return key{}, false
	}
	return keys[i], true
}

// SecretKeys are the keys of the format whose values are secrets: the
// keys of the secret.Value fields.
var SecretKeys = secretKeys()

func secretKeys() []string {
	var out []string
	for _, k := range append(interfaceKeys(), peerKeys()...) {
		if k.secret {
			out = append(out, k.name)
		}
	}
	return out
}

// writeKeys writes v's keys, one `Key = value` line each, in field order.
func writeKeys(b *strings.Builder, v reflect.Value, keys []key) {
	for _, k := range keys {
		f := v.Field(k.index)
		if k.comment {
			if s := f.String(); s != "" {
				b.WriteString("# " + k.name + ": " + s + "\n")
			}
			continue
		}
		switch x := f.Interface().(type) {
		case secret.Value:
			if !x.IsZero() {
				kv(b, k.name, x.Reveal()) // the file is the secret's destination
			}
		case wgtypes.Key:
			if k.required || x != (wgtypes.Key{}) {
				kv(b, k.name, x.String())
			}
		case string:
			if x != "" {
				kv(b, k.name, x)
			}
		case int:
			if x != 0 {
				kv(b, k.name, strconv.Itoa(x))
			}
		case *int:
			if x != nil {
				kv(b, k.name, strconv.Itoa(*x))
			}
		case []string:
			switch {
			case k.each:
				for _, l := range x {
					kv(b, k.name, l)
				}
			case len(x) > 0:
				kv(b, k.name, strings.Join(x, ", "))
			}
		default:
			panic("wgquick: no writer for " + f.Type().String() + ", the type of " + k.name)
		}
	}
}

func kv(b *strings.Builder, key, value string) {
	b.WriteString(key)
	b.WriteString(" = ")
	b.WriteString(value)
	b.WriteByte('\n')
}

// setKey sets the field of section (an Interface or a Peer) that k names
// from a line's value (hook: its whole text after '=', for an each key).
// An error names the key, never the value.
func setKey(section reflect.Value, k key, value, hook string) error {
	f := section.Field(k.index)
	switch x := f.Interface().(type) {
	case secret.Value:
		if _, err := parseKey(value); err != nil {
			return fmt.Errorf("%s: %w", k.name, err)
		}
		f.Set(reflect.ValueOf(secret.NewValue(value)))
	case wgtypes.Key:
		key, err := parseKey(value)
		if err != nil {
			return fmt.Errorf("%s: %w", k.name, err)
		}
		f.Set(reflect.ValueOf(key))
	case string:
		if k.boolean && !strings.EqualFold(value, "true") && !strings.EqualFold(value, "false") {
			return fmt.Errorf("%s is neither true nor false", k.name)
		}
		f.SetString(value)
	case int:
		v, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("%s is not a number", k.name)
		}
		f.SetInt(int64(v))
	case *int:
		v := 0
		if !k.off || !strings.EqualFold(value, "off") {
			var err error
			if v, err = strconv.Atoi(value); err != nil {
				return fmt.Errorf("%s is not a number", k.name)
			}
		}
		f.Set(reflect.ValueOf(&v))
	case []string:
		if k.each {
			f.Set(reflect.ValueOf(append(x, hook)))
		} else {
			f.Set(reflect.ValueOf(append(x, splitList(value)...)))
		}
	default:
		return errors.New("no reader for the type of " + k.name)
	}
	return nil
}
