package secret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const plain = "s3cr3t-ValueXYZ"

type holder struct {
	Key  Value  `json:"key" yaml:"key"`
	Ptr  *Value `json:"ptr" yaml:"ptr"`
	Name string `json:"name" yaml:"name"`
}

func TestValuePrintsRedactedEverywhere(t *testing.T) {
	v := NewValue(plain)
	h := holder{Key: v, Ptr: &v, Name: "wg0"}
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10s", "%T-%v"} {
		outs = append(outs, fmt.Sprintf(verb, v), fmt.Sprintf(verb, &v), fmt.Sprintf(verb, h), fmt.Sprintf(verb, &h), fmt.Sprintf(verb, []Value{v}))
	}
	outs = append(outs, v.String(), v.GoString(), fmt.Sprint(v), fmt.Sprintln(v, &v), fmt.Errorf("x: %v", v).Error())

	for _, x := range []any{v, &v, h, &h, map[string]Value{"k": v}} {
		j, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		y, err := yaml.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(j), string(y))
	}

	var logs bytes.Buffer
	for _, l := range []*slog.Logger{slog.New(slog.NewTextHandler(&logs, nil)), slog.New(slog.NewJSONHandler(&logs, nil))} {
		l.Info("resolved", "value", v, "ptr", &v, "holder", h, "holderPtr", &h, slog.Group("g", "v", v))
	}
	outs = append(outs, logs.String())

	all := strings.Join(outs, "\n")
	if strings.Contains(all, plain) {
		t.Fatalf("the secret leaked:\n%s", all)
	}
	// Every one of the forms above shows the marker instead.
	if n := strings.Count(all, Redacted); n < len(outs) {
		t.Fatalf("%d markers in %d outputs:\n%s", n, len(outs), all)
	}
	if v.Reveal() != plain || v.IsZero() || !(Value{}).IsZero() {
		t.Fatal("Reveal and IsZero")
	}
}

func TestValueFromYAML(t *testing.T) {
	var h holder
	if err := yaml.Unmarshal([]byte("key: abc\nptr: def\n"), &h); err != nil {
		t.Fatal(err)
	}
	if h.Key.Reveal() != "abc" || h.Ptr == nil || h.Ptr.Reveal() != "def" {
		t.Fatalf("decoded %q %v", h.Key.Reveal(), h.Ptr)
	}
	if err := yaml.Unmarshal([]byte("key: [1, 2]\n"), &h); err == nil {
		t.Fatal("a list is not a secret")
	}
}
