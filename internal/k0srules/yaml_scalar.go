package k0srules

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// How yaml.v2, which k0s's sigs.k8s.io/yaml uses, types a scalar: YAML 1.1,
// where yes/no/on/off are booleans and 1_000 is an integer.

// yaml11 holds the plain scalars yaml.v2 resolves by table (YAML 1.1).
var yaml11 = func() map[string]*value {
	m := map[string]*value{}
	for _, s := range []string{"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"} {
		m[s] = &value{kind: vBool, b: true}
	}
	for _, s := range []string{"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"} {
		m[s] = &value{kind: vBool}
	}
	for _, s := range []string{"", "~", "null", "Null", "NULL"} {
		m[s] = &value{kind: vNull}
	}
	for _, s := range []string{".nan", ".NaN", ".NAN"} {
		m[s] = &value{kind: vFloat, f: math.NaN()}
	}
	for _, s := range []string{".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"} {
		m[s] = &value{kind: vFloat, f: math.Inf(1)}
	}
	for _, s := range []string{"-.inf", "-.Inf", "-.INF"} {
		m[s] = &value{kind: vFloat, f: math.Inf(-1)}
	}
	return m
}()

var yamlStyleFloat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
})

// resolveScalar gives a YAML scalar the type yaml.v2 would: quoted and block
// scalars are strings, an explicit tag is honoured, plain scalars go through
// YAML 1.1 resolution.
func resolveScalar(n *yaml.Node) *value {
	str := &value{kind: vString, s: n.Value, line: n.Line}
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return str
	}
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.ShortTag() {
		case "!!str", "!!binary", "!!timestamp":
			return str
		case "!!null":
			return &value{kind: vNull, line: n.Line}
		}
	}
	v := resolvePlain(n.Value)
	v.line = n.Line
	return v
}

func resolvePlain(in string) *value {
	if v, ok := yaml11[in]; ok {
		cp := *v
		return &cp
	}
	if in == "" {
		return &value{kind: vNull}
	}
	switch c := in[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return &value{kind: vFloat, f: f}
		}
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		if looksLikeTimestamp(in) {
			// yaml.v2 hands timestamps to an interface{} as strings.
			return &value{kind: vString, s: in}
		}
		plain := strings.ReplaceAll(in, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return &value{kind: vInt, i: i}
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return &value{kind: vUint, u: u}
		}
		if yamlStyleFloat().MatchString(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return &value{kind: vFloat, f: f}
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				return &value{kind: vInt, i: i}
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return &value{kind: vInt, i: i}
			}
		}
	}
	return &value{kind: vString, s: in}
}

var timestampRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ]|$)`) })

// looksLikeTimestamp is yaml.v2's test for a YAML timestamp: a date first.
func looksLikeTimestamp(s string) bool { return timestampRe().MatchString(s) }
