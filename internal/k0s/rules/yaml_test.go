package rules

import (
	"strings"
	"testing"
)

// YAML 1.1 as k0s's decoder reads it: the scalars yaml.v2 types its own
// way, and the refusals of sigs.k8s.io/yaml with the line they are at.
func TestYAML11Scalars(t *testing.T) {
	for _, tc := range []struct {
		scalar string
		want   value
	}{
		{"yes", value{kind: vBool, b: true}},
		{"On", value{kind: vBool, b: true}},
		{"off", value{kind: vBool}},
		{"n", value{kind: vBool}},
		{"~", value{kind: vNull}},
		{"1_000", value{kind: vInt, i: 1000}},
		{"0x1F", value{kind: vInt, i: 31}},
		{"0b101", value{kind: vInt, i: 5}},
		{"1e3", value{kind: vInt, i: 1000}},
		{"1.5", value{kind: vFloat, f: 1.5}},
		{"18446744073709551615", value{kind: vUint, u: 18446744073709551615}},
		{"2024-01-31", value{kind: vString, s: "2024-01-31"}},
		{`"yes"`, value{kind: vString, s: "yes"}},
		{"!!str 1", value{kind: vString, s: "1"}},
	} {
		v, ps := parseYAML([]byte("k: " + tc.scalar + "\n"))
		if len(ps) > 0 || v.kind != vMap || len(v.m) != 1 {
			t.Fatalf("%s: %v", tc.scalar, ps)
		}
		if got := *v.m[0].val; got.kind != tc.want.kind || got.b != tc.want.b || got.i != tc.want.i || got.u != tc.want.u || got.f != tc.want.f || got.s != tc.want.s {
			t.Errorf("%s: got %+v, want %+v", tc.scalar, got, tc.want)
		}
	}
}

func TestYAMLRefusalsCarryTheirLine(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"syntax", "a: 1\nb: [\n", "yaml: line 2: "},
		{"repeated key", "spec:\n  api: {}\n  x: 1\n  api: {}\n", `yaml: line 4: key "api" already set in map`},
		{"repeated key hidden", "a:\n  b: 1\n  9x9x: 1\n  9x9x: 2\n", "yaml: line 4: a key (not shown"},
		{"nan", "a:\n  b: 1\n  c: .nan\n", "yaml: line 3: json: unsupported value"},
		{"merge of a scalar", "a: 1\nb:\n  <<: 5\n", "yaml: line 3: map merge requires"},
		{"anchor holding its alias", "a: 1\nb: &x\n  - *x\n", "yaml: line 3: an alias refers to the anchor"},
		{"mapping key", "a: 1\n? {b: 1}\n: 2\n", "yaml: line 2: unsupported map key: a mapping"},
		{"null key", "a: 1\n~: 2\n", "yaml: line 2: unsupported map key of type <nil>"},
	} {
		_, ps := parseYAML([]byte(tc.doc))
		if len(ps) == 0 || !strings.HasPrefix(ps[0].Message, tc.want) {
			t.Errorf("%s: got %v, want a message starting %q", tc.name, ps, tc.want)
		}
	}
}
