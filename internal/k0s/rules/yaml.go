package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"
	yaml2 "sigs.k8s.io/yaml/goyaml.v2"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/yamltext"
)

// k0s reads its config with sigs.k8s.io/yaml's UnmarshalStrict
// (internal/pkg/strictyaml/strictyaml.go:17): the YAML is decoded by
// yaml.v2 (YAML 1.1, duplicate keys refused), turned into JSON, and the JSON
// decoded by encoding/json. This file is the first half, done by the same
// library: a YAML document becomes the JSON value k0s's decoder sees, with
// `yes`, `on` and `off` booleans and `1_000` the number 1000. The
// ClusterConfig has an UnmarshalJSON (clusterconfig_types.go:339), so
// UnmarshalStrict has no Go type to coerce scalars towards, and
// YAMLToJSONStrict is what it does.
//
// yaml.v3 parses the same text first: its syntax errors are the ones the
// rest of the agent reports, and its nodes give the line of the errors
// yaml.v2 reports without one (see yaml_line.go).

type vkind int

const (
	vNull vkind = iota
	vBool
	vInt // an integer that fits int64
	vUint
	vFloat
	vString
	vMap
	vList
)

// value is one JSON value.
type value struct {
	kind vkind
	b    bool
	i    int64
	u    uint64
	f    float64
	s    string
	m    []member // sorted by key, as encoding/json writes a map
	l    []*value
}

type member struct {
	key string
	val *value
}

// jsonKind is the JSON type name encoding/json uses in its errors.
func (v *value) jsonKind() string {
	switch v.kind {
	case vNull:
		return "null"
	case vBool:
		return "bool"
	case vInt, vUint, vFloat:
		return "number"
	case vString:
		return "string"
	case vMap:
		return "object"
	default:
		return "array"
	}
}

const srcStrictYAML = "internal/pkg/strictyaml/strictyaml.go:17"

// parseYAML turns data into the JSON value k0s decodes, or the problems
// that stop k0s before it decodes anything (syntax, duplicate keys).
func parseYAML(data []byte) (*value, Problems) {
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			// An empty file decodes as null: k0s keeps its defaults.
			return &value{kind: vNull}, nil
		}
		// yaml.v3 quotes document text in its messages (an anchor's name,
		// a repeated key); yamltext takes it out.
		line, msg := yamltext.Message(err)
		return nil, Problems{yamlProblem(line, msg+": fix the YAML syntax there")}
	}
	js, err := sigsyaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, yamlProblems(err, &root)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		// json.Marshal wrote js: it cannot fail to read back.
		return nil, Problems{yamlProblem(0, "the document's JSON form does not read back: report this")}
	}
	return fromJSON(x), nil
}

func yamlProblem(line int, msg string) finding.Finding {
	if line > 0 {
		msg = fmt.Sprintf("line %d: %s", line, msg)
	}
	return finding.Finding{Message: "yaml: " + msg, Source: srcStrictYAML}
}

// yamlProblems says why sigs.k8s.io/yaml refused the document, in messages
// that quote none of it: yaml.v2's and sigs.k8s.io/yaml's own quote the
// keys and values involved.
func yamlProblems(err error, root *yaml.Node) Problems {
	var te *yaml2.TypeError
	var ue *json.UnsupportedValueError
	switch {
	case errors.As(err, &te):
		// Strict mode's refusals, one per repeated key.
		var ps Problems
		for _, e := range te.Errors {
			ps = append(ps, duplicateKey(e, root))
		}
		return ps
	case errors.As(err, &ue):
		// JSON has no NaN or infinity: sigs.k8s.io/yaml's conversion fails.
		return Problems{yamlProblem(nonFiniteLine(root), "json: unsupported value: NaN or infinity (.nan, .inf) has no JSON form: write a finite number")}
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unsupported map key of type: <nil>") || strings.HasPrefix(msg, "unsupported map key of type: %!s(<nil>)"):
		return Problems{yamlProblem(keyLine(root, isNullKey), "unsupported map key of type <nil>: write a plain key")}
	case strings.HasPrefix(msg, "yaml: invalid map key:"):
		line, kind := complexKey(root)
		return Problems{yamlProblem(line, "unsupported map key: a "+kind+": write a plain key")}
	case msg == "yaml: map merge requires map or sequence of maps as the value":
		return Problems{yamlProblem(badMergeLine(root), "map merge requires map or sequence of maps as the value: merge (<<) only mappings")}
	case strings.HasSuffix(msg, "value contains itself"):
		return Problems{yamlProblem(selfAliasLine(root), "an alias refers to the anchor whose value holds it: write the value out instead")}
	}
	line, clean := yamltext.Message(err)
	return Problems{yamlProblem(line, clean+": fix the YAML there")}
}

// duplicateKey is yaml.v2's "line N: key K already set in map", where N is
// the line of the map and K the key in Go syntax; the problem gives the
// line of the key set again, and the key only when it is shaped like a
// field name.
func duplicateKey(e string, root *yaml.Node) finding.Finding {
	rest, ok := strings.CutPrefix(e, "line ")
	num, rest, _ := strings.Cut(rest, ": ")
	line, err := strconv.Atoi(num)
	key, found := strings.CutPrefix(rest, "key ")
	key, found2 := strings.CutSuffix(key, " already set in map")
	if !ok || err != nil || !found || !found2 {
		return yamlProblem(0, yamltext.Clean(e)+": fix the YAML there")
	}
	if s, err := strconv.Unquote(key); err == nil {
		key = s
	}
	line = repeatedKeyLine(root, line, key)
	if shown := shownKey(key); shown != hiddenKey {
		return yamlProblem(line, fmt.Sprintf("key %q already set in map: keep one of them", shown))
	}
	return yamlProblem(line, "a key (not shown: it does not look like a field name and may hold a value) is already set in this map: keep one of them")
}

// fromJSON is the value of what encoding/json decoded with UseNumber.
func fromJSON(x any) *value {
	switch x := x.(type) {
	case bool:
		return &value{kind: vBool, b: x}
	case string:
		return &value{kind: vString, s: x}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return &value{kind: vInt, i: i}
		}
		if u, err := strconv.ParseUint(string(x), 10, 64); err == nil {
			return &value{kind: vUint, u: u}
		}
		f, _ := x.Float64()
		return &value{kind: vFloat, f: f}
	case []any:
		v := &value{kind: vList}
		for _, item := range x {
			v.l = append(v.l, fromJSON(item))
		}
		return v
	case map[string]any:
		v := &value{kind: vMap}
		for k, item := range x {
			v.m = append(v.m, member{key: k, val: fromJSON(item)})
		}
		sort.Slice(v.m, func(i, j int) bool { return v.m[i].key < v.m[j].key })
		return v
	}
	return &value{kind: vNull}
}
