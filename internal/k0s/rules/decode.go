package rules

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/corium/corium-agent/internal/finding"
)

// This file is the second half of k0s's decoding: the JSON value decoded
// into the v1beta1 types by encoding/json, which is what
// ConfigFromBytes/MergedWithYAML does (clusterconfig_types.go:311-321).
// The result is the document as k0s holds it: only the fields k0s knows,
// under their own names, each of the type the field has.

const (
	srcDecode       = "pkg/apis/k0s/v1beta1/clusterconfig_types.go:359"
	srcMergedYAML   = "pkg/apis/k0s/v1beta1/clusterconfig_types.go:313"
	srcIgnoredNames = "internal/pkg/strictyaml/strictyaml.go:20"
)

// maskedFields are the unknown keys k0s forgives: MergedWithYAML asks
// strictyaml to ignore "interval" and "podSecurityPolicy"
// (clusterconfig_types.go:313), and strictyaml does so by dropping the whole
// error when its text names one of them (strictyaml.go:20-26). encoding/json
// reports the first error only, so a forgiven key that comes first forgives
// everything after it.
var maskedFields = map[string]bool{"interval": true, "podSecurityPolicy": true}

type decodeProblem struct {
	finding.Finding
	raw     string // the path with the key as written, for DroppedKeys
	unknown bool   // an unknown key in a strict part
	masked  bool   // an unknown key k0s forgives
}

type decoder struct {
	problems []decodeProblem
	dropped  []string
}

// fail records a problem; msg never carries the value (see shown.go).
func (d *decoder) fail(path finding.Path, source, msg string) {
	d.problems = append(d.problems, decodeProblem{Finding: finding.Finding{Path: path.String(), Message: msg, Source: source}})
}

// Messages for values of a type k0s reads with a Go parser whose error
// quotes the value (time.ParseDuration, time.Parse).
const (
	msgDuration       = "not a duration k0s can read (time.ParseDuration): write a number with a unit, such as 30s, 5m or 1h30m"
	msgNullDuration   = "null is not a duration (k0s reads it as an empty one, which time.ParseDuration refuses): write one, such as 30s, or leave the key out"
	msgCompatDuration = "not a duration k0s can read (time.ParseDuration): write one with a unit, such as 10m, or a whole number of nanoseconds"
	msgTime           = "not an RFC 3339 timestamp (time.Parse): write one such as 2024-01-31T12:00:00Z, or leave the key out"
)

// droppedKeys is every key k0s decodes past: unknown in a lenient part, or
// unknown and forgiven.
func (d *decoder) droppedKeys() []string {
	out := slices.Clone(d.dropped)
	forgiven := len(d.problems) > 0 && d.problems[0].masked
	for _, p := range d.problems {
		if p.unknown && (p.masked || forgiven) {
			out = append(out, p.raw)
		}
	}
	sort.Strings(out)
	return out
}

// result applies k0s's forgiveness of masked keys to the problems found.
func (d *decoder) result() Problems {
	if len(d.problems) == 0 || d.problems[0].masked {
		return nil
	}
	var out Problems
	for _, p := range d.problems {
		if !p.masked {
			out = append(out, p.Finding)
		}
	}
	return out
}

// object decodes v into t. strict is whether unknown keys are refused: true
// from the ClusterConfig down to the first type with its own UnmarshalJSON.
func (d *decoder) object(v *value, t *typ, path finding.Path, strict bool) *value {
	if t.lenient {
		strict = false
	}
	out := &value{kind: vMap}
	for _, mem := range v.m {
		p := path.Field(mem.key)
		f, ok := t.field(mem.key)
		if !ok {
			if strict {
				d.problems = append(d.problems, decodeProblem{
					Finding: finding.Finding{
						Path:    path.Field(shownKey(mem.key)).String(),
						Message: "unknown field: k0s refuses keys it does not know here; check the spelling against the k0s " + Version + " configuration reference",
						Source:  srcDecode,
					},
					raw:     p.String(),
					unknown: true,
					masked:  maskedFields[mem.key],
				})
			} else {
				d.dropped = append(d.dropped, p.String())
			}
			continue
		}
		fp := path.Field(f.name)
		if dv := d.field(mem.val, f, fp, strict); dv != nil {
			out.set(f.name, dv)
		}
	}
	return out
}

// field decodes one value; nil means the field stays as k0s's defaults left
// it (null, or a value that could not be decoded).
func (d *decoder) field(v *value, f field, path finding.Path, strict bool) *value {
	if v.kind == vNull {
		if f.kind == kDuration {
			// metav1.Duration's UnmarshalJSON gets null, reads "" and
			// fails to parse it.
			d.fail(path, srcDecode, msgNullDuration)
		}
		return nil
	}
	switch f.kind {
	case kString:
		if v.kind == vString {
			return v
		}
	case kBool:
		if v.kind == vBool {
			return v
		}
	case kInt, kInt64, kInt32, kUint32:
		return d.number(v, f.kind, path)
	case kDuration:
		return d.parsed(v, path, srcDecode, msgDuration, parseDuration)
	case kCompatDuration:
		// extensions.go:127-143: a duration string, else an integer.
		if n := d.integral(v); n != nil {
			return n
		}
		return d.parsed(v, path, "pkg/apis/k0s/v1beta1/extensions.go:138", msgCompatDuration, parseDuration)
	case kTime:
		return d.parsed(v, path, srcDecode, msgTime, func(s string) error {
			_, err := time.Parse(time.RFC3339, s)
			return err
		})
	case kRaw:
		return v
	case kStrings:
		if v.kind == vList {
			out := &value{kind: vList}
			for i, item := range v.l {
				switch item.kind {
				case vString:
					out.l = append(out.l, item)
				case vNull:
					out.l = append(out.l, &value{kind: vString})
				default:
					d.typeError(path.Index(i), item, "string")
				}
			}
			return out
		}
	case kStringMap:
		if v.kind == vMap {
			out := &value{kind: vMap}
			for _, mem := range v.m {
				switch mem.val.kind {
				case vString:
					out.set(mem.key, mem.val)
				case vNull:
					out.set(mem.key, &value{kind: vString})
				default:
					d.typeError(path.Field(shownKey(mem.key)), mem.val, "string")
				}
			}
			return out
		}
	case kObject:
		if v.kind == vMap {
			return d.object(v, f.of, path, strict)
		}
		d.typeError(path, v, f.of.name)
		return nil
	case kList:
		if v.kind == vList {
			out := &value{kind: vList}
			for i, item := range v.l {
				switch item.kind {
				case vMap:
					out.l = append(out.l, d.object(item, f.of, path.Index(i), strict))
				case vNull:
					out.l = append(out.l, &value{kind: vMap})
				default:
					d.typeError(path.Index(i), item, f.of.name)
				}
			}
			return out
		}
		d.typeError(path, v, "[]"+f.of.name)
		return nil
	}
	d.typeError(path, v, goKind(f.kind))
	return nil
}

// parsed is a string field k0s reads with a Go parser (time's): a string
// parse takes, else msg, which says what to write without the value the
// parser's own error quotes.
func (d *decoder) parsed(v *value, path finding.Path, source, msg string, parse func(string) error) *value {
	if v.kind != vString {
		d.typeError(path, v, "string")
		return nil
	}
	if parse(v.s) != nil {
		d.fail(path, source, msg)
		return nil
	}
	return v
}

func parseDuration(s string) error {
	_, err := time.ParseDuration(s)
	return err
}

func goKind(k kind) string {
	switch k {
	case kString:
		return "string"
	case kBool:
		return "bool"
	case kInt:
		return "int"
	case kInt32:
		return "int32"
	case kInt64:
		return "int64"
	case kUint32:
		return "uint32"
	case kStrings:
		return "[]string"
	case kStringMap:
		return "map[string]string"
	}
	return "value"
}

// typeError is encoding/json's UnmarshalTypeError, which it records and
// decodes on past. Like encoding/json's, it names the JSON kind of the
// value, not the value.
func (d *decoder) typeError(path finding.Path, v *value, want string) {
	d.fail(path, srcDecode, fmt.Sprintf("cannot unmarshal %s into a field of type %s: write %s", v.jsonKind(), want, wanted(want)))
}

// set sets key in a map value; a second key that decodes into the same field
// (podCIDR and podcidr) replaces the first, as encoding/json does.
func (v *value) set(key string, x *value) {
	for i := range v.m {
		if v.m[i].key == key {
			v.m[i].val = x
			return
		}
	}
	v.m = append(v.m, member{key: key, val: x})
}
