package schema

import (
	"reflect"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// field is one key of the block as the JSON Schema and the reference see it:
// built by walking the Go types, their yaml names, validate tags and doc
// comments, so neither can drift from the validator.
type field struct {
	Path    string // wireguard[].peers[].endpoint
	Doc     string
	Type    string // for people: "list of string", "integer"
	Default string // "" when none
	Rules   []string
	Example string // YAML of the value
	Schema  map[string]any
	Parent  string // the Go type holding it: "Peer", "secret.Source"
}

var sourceType = reflect.TypeOf(secret.Source{})

// describer walks the types; the schema of a struct holds its fields'.
// SecretSource is described once, as its own definition.
type describer struct {
	fields []field
	source map[string]any
}

func describeConfig() (*describer, map[string]any) {
	d := &describer{}
	s := d.object(reflect.TypeOf(Config{}), "")
	return d, s
}

func (d *describer) object(t reflect.Type, path string) map[string]any {
	props := map[string]any{}
	var required []string
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name := yamlName(sf)
		if name == "" {
			continue
		}
		p := finding.Path(path).Field(name).String()
		if t == sourceType {
			p = "SecretSource." + name
		}
		tag := sf.Tag.Get("validate")
		at := len(d.fields) // a field comes before the fields inside it
		d.fields = append(d.fields, field{})
		s, typ := d.value(sf.Type, parseChain(tag), p)
		parent := typeName(t)
		f := field{Path: p, Doc: typeDocs[parent+"."+sf.Name], Type: typ, Parent: parent,
			Default: fieldDefaults[p], Example: fieldExamples[p], Schema: s, Rules: tagRules(tag)}
		f.Rules = append(f.Rules, crossRules[p]...)
		if extra, ok := extraRules[p]; ok {
			for k, v := range extra.schema {
				if have, ok := s[k].(map[string]any); ok {
					// A rule on the keys (propertyNames) adds to the tags'.
					for kk, vv := range v.(map[string]any) {
						have[kk] = vv
					}
					continue
				}
				s[k] = v
			}
			f.Rules = append(f.Rules, extra.rules...)
		}
		if f.Doc != "" {
			s["description"] = f.Doc
		}
		if v, ok := schemaDefaults[p]; ok {
			s["default"] = v
		}
		props[name] = s
		if strings.HasPrefix(tag, "required") {
			required = append(required, name)
		}
		d.fields[at] = f
	}
	obj := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		obj["required"] = required
	}
	if t == sourceType {
		obj["oneOf"] = []any{
			map[string]any{"required": []any{"file"}},
			map[string]any{"required": []any{"url"}},
			map[string]any{"required": []any{"credential"}},
		}
		obj["dependentRequired"] = map[string]any{"authFile": []any{"url"}}
	}
	return obj
}

func typeName(t reflect.Type) string {
	if t.PkgPath() != reflect.TypeOf(Config{}).PkgPath() {
		return t.String()
	}
	return t.Name()
}

// value is the schema and the human type of one value with its tag rules.
func (d *describer) value(t reflect.Type, chain []tagCheck, path string) (map[string]any, string) {
	own, keys, items := splitDive(chain)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == valueType:
		s := map[string]any{"type": "string", "minLength": 1}
		applyRules(s, own, reflect.String)
		return s, "string (secret)"
	case t == sourceType:
		if d.source == nil {
			d.source = d.object(t, "")
			d.source["description"] = typeDocs["secret.Source"]
		}
		return map[string]any{"$ref": "#/$defs/SecretSource"}, "SecretSource"
	case t == addressType:
		item := map[string]any{"type": "string"}
		applyRules(item, items, reflect.String)
		return map[string]any{"oneOf": []any{item, map[string]any{"type": "array", "items": item, "minItems": 1}}}, "CIDR or list of CIDR"
	case t == anyMapType:
		return map[string]any{"type": "object", "additionalProperties": true}, "mapping (free-form)"
	}
	switch t.Kind() {
	case reflect.Struct:
		return d.object(t, path), "mapping"
	case reflect.Slice:
		item, typ := d.value(t.Elem(), items, path+"[]")
		s := map[string]any{"type": "array", "items": item}
		applyRules(s, own, reflect.Slice)
		return s, "list of " + typ
	case reflect.Map:
		names := map[string]any{"type": "string"}
		applyRules(names, keys, reflect.String)
		val := map[string]any{"type": "string"}
		applyRules(val, items, reflect.String)
		return map[string]any{"type": "object", "propertyNames": names, "additionalProperties": val}, "mapping of string to string"
	case reflect.Int:
		s := map[string]any{"type": "integer"}
		applyRules(s, own, reflect.Int)
		return s, "integer"
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, "boolean"
	case reflect.String:
		s := map[string]any{"type": "string"}
		applyRules(s, own, reflect.String)
		return s, "string"
	}
	panic("schema: cannot describe " + t.String())
}

// tagPatterns are the JSON Schema spelling of the project's tags: close to
// the Go checks, which remain the authority (a pattern cannot check a prefix
// length or a base64 key's decoded length exactly).
var tagPatterns = map[string]struct {
	pattern string
	maxLen  int
}{
	"dnslabel":      {`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, 63},
	"dnssubdomain":  {`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$`, 253},
	"hostlink":      {`^([^/:\s\x00-\x1F\x7F#!"{}$\\]{1,15}|[0-9a-f]{2}(:[0-9a-f]{2}){5}|[0-9a-f]{2}(:[0-9a-f]{2}){7}|[0-9a-f]{2}(:[0-9a-f]{2}){19})$`, 0},
	"ifname":        {`^[a-z0-9][-a-z0-9]*$`, 15},
	"hostorip":      {`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\.?|[0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*)$`, 253},
	"netprefix":     {`^([0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*/[0-9]{1,3})$`, 0},
	"prefix":        {`^([0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*/[0-9]{1,3})$`, 0},
	"hostprefix":    {`^([0-9]{1,3}(\.[0-9]{1,3}){3}/[0-9]{1,2}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*/[0-9]{1,3})$`, 0},
	"ipaddr":        {`^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*)$`, 0},
	"wgkey":         {`^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$`, 0},
	"hostport":      {`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*|[0-9]{1,3}(\.[0-9]{1,3}){3}|\[[0-9a-fA-F:.]+\]):[0-9]{1,5}$`, 0},
	"qualifiedname": {`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`, 317},
	"labelvalue":    {`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`, 63},
	"vrrppass":      {`^[^\x00-\x20\x7F-\x9F\s#!"{}$\\]*$`, 0},
}

func applyRules(s map[string]any, chain []tagCheck, kind reflect.Kind) {
	for _, c := range chain {
		name, n := c.tag, c.num
		switch name {
		case "omitempty":
		case "required":
			if kind == reflect.String {
				s["minLength"] = 1
			}
		case "oneof":
			var enum []any
			for _, v := range c.oneof {
				enum = append(enum, v)
			}
			s["enum"] = enum
		case "eq":
			s["const"] = n
		case "min", "max":
			key := map[reflect.Kind]string{reflect.Int: "imum", reflect.String: "Length", reflect.Slice: "Items"}[kind]
			s[name+key] = n
		default:
			p, ok := tagPatterns[name]
			if !ok {
				panic("schema: no JSON Schema for tag " + name)
			}
			s["pattern"] = p.pattern
			if p.maxLen > 0 {
				s["maxLength"] = p.maxLen
			}
		}
	}
}

// tagRules are a field's tag rules as the validator says them.
func tagRules(tag string) []string {
	own, keys, items := splitDive(parseChain(tag))
	var out []string
	say := func(c tagCheck, prefix string) {
		switch c.tag {
		case "omitempty":
		case "required":
			out = append(out, "required")
		case "oneof":
			out = append(out, prefix+"one of "+strings.Join(c.oneof, ", "))
		case "eq":
			out = append(out, prefix+"must be "+c.param)
		case "min":
			out = append(out, prefix+"at least "+c.param)
		case "max":
			out = append(out, prefix+"at most "+c.param)
		default:
			out = append(out, prefix+fieldMessages[c.tag])
		}
	}
	for _, c := range own {
		say(c, "")
	}
	for _, c := range keys {
		say(c, "each key ")
	}
	for _, c := range items {
		say(c, "each ")
	}
	return out
}
