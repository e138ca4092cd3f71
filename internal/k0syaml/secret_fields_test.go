package k0syaml_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/secret"
)

var valueType = reflect.TypeFor[secret.Value]()

// fill sets every field reachable from v: each secret.Value to a value of
// its own (returned in order), each pointer to a new value, each list to
// one item, so every key Tree can write is written.
func fill(v reflect.Value, out *[]string) {
	switch {
	case v.Type() == valueType:
		s := fmt.Sprintf("SECRET-%d-%s", len(*out), strings.Repeat("x", 8))
		*out = append(*out, s)
		v.Set(reflect.ValueOf(secret.NewValue(s)))
	case v.Kind() == reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), out)
	case v.Kind() == reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), out)
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), out)
		}
	case v.Kind() == reflect.String:
		v.SetString("s")
	case v.Kind() == reflect.Int:
		v.SetInt(1)
	case v.Kind() == reflect.Bool:
		v.SetBool(true)
	}
}

// Every secret.Value field of Node, found by reflection so a field added
// tomorrow is in it: Tree writes it, Marshal's file parses back to it,
// Secrets lists it, Redacted and Redact hide it. A new secret field the
// codec does not know of fails here.
func TestEverySecretFieldIsKnown(t *testing.T) {
	var n k0syaml.Node
	var values []string
	fill(reflect.ValueOf(&n).Elem(), &values)
	if len(values) < 2 {
		t.Fatalf("found %d secret fields; kine's datasource and the VRRP password at least", len(values))
	}
	file, err := k0syaml.Marshal("# head\n", n.Tree())
	if err != nil {
		t.Fatal(err)
	}
	back, err := k0syaml.Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, n) {
		t.Errorf("the file reads back as\n%#v\nnot\n%#v\n%s", back, n, file)
	}
	var listed []string
	for _, s := range n.Secrets() {
		listed = append(listed, s.Reveal())
	}
	redacted, err := k0syaml.Marshal("", n.Redacted().Tree())
	if err != nil {
		t.Fatal(err)
	}
	shown, err := k0syaml.Redact(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range values {
		if !strings.Contains(string(file), v) {
			t.Errorf("Tree does not write secret %s:\n%s", v, file)
		}
		if !slices.Contains(listed, v) {
			t.Errorf("Secrets does not list secret %s", v)
		}
		if strings.Contains(string(redacted), v) {
			t.Errorf("Redacted leaves secret %s in:\n%s", v, redacted)
		}
		if strings.Contains(string(shown), v) {
			t.Errorf("Redact leaves secret %s in:\n%s", v, shown)
		}
	}
	if got := strings.Count(string(shown), secret.Redacted); got != len(values) {
		t.Errorf("Redact shows %d redacted lines, not %d:\n%s", got, len(values), shown)
	}
}

// Redacted leaves the value it is called on as it was.
func TestRedactedCopies(t *testing.T) {
	n := k0syaml.Node{Storage: k0syaml.Storage{Kine: &k0syaml.Kine{DataSource: secret.NewValue("postgres://u:pw@db/k0s")}}}
	_ = n.Redacted()
	if n.Storage.Kine.DataSource.Reveal() != "postgres://u:pw@db/k0s" {
		t.Error("Redacted changed the value it was called on")
	}
}

// The token file's every secret.Value field, found as Node's are: Marshal
// writes it, ParseToken reads it back, Secrets lists it, Redacted hides
// it.
func TestEveryTokenSecretIsKnown(t *testing.T) {
	var f k0syaml.TokenFile
	var values []string
	fill(reflect.ValueOf(&f).Elem(), &values)
	if len(values) != 1 {
		t.Fatalf("found %d secret fields; the token file holds one secret, its content", len(values))
	}
	text := f.Marshal()
	if back := k0syaml.ParseToken(text); !reflect.DeepEqual(back, f) {
		t.Errorf("the file reads back as %q, not %q", back.Token.Reveal(), f.Token.Reveal())
	}
	if string(text) != values[0]+"\n" {
		t.Errorf("the file is %q, not the token alone on its line", text)
	}
	if got := f.Secrets(); len(got) != 1 || got[0].Reveal() != values[0] {
		t.Errorf("Secrets lists %d secrets", len(got))
	}
	if red := string(f.Redacted().Marshal()); red != secret.Redacted+"\n" {
		t.Errorf("the redacted file is %q", red)
	}
	if f.Token.Reveal() != values[0] {
		t.Error("Redacted changed the value it was called on")
	}
}

// Every secret.Value field of the codec's types carries its
// `secret:"kind"` tag, which names what it is: a secret field added
// without the tag fails here.
func TestEverySecretFieldIsTagged(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[k0syaml.Node](), reflect.TypeFor[k0syaml.TokenFile]()} {
		for _, u := range secret.Untagged(typ) {
			t.Errorf("%s: tag it `secret:\"kind\"`", u)
		}
	}
}

// Tree writes the keys the JSON names spell, by the tags' rules: an
// omitempty field left out when empty, an omitzero list left out when
// nil and written when empty, any other field always.
func TestTreeFollowsTheTags(t *testing.T) {
	n := k0syaml.Node{Network: k0syaml.Network{ControlPlaneLoadBalancing: &k0syaml.CPLB{Keepalived: &k0syaml.Keepalived{
		VRRPInstances: []k0syaml.VRRPInstance{{UnicastPeers: []string{}}, {}},
	}}}}
	file, err := k0syaml.Marshal("", n.Tree())
	if err != nil {
		t.Fatal(err)
	}
	want := `spec:
  network:
    controlPlaneLoadBalancing:
      enabled: false
      keepalived:
        vrrpInstances:
          - authPass: ""
            unicastPeers: []
            virtualIPs: []
          - authPass: ""
            virtualIPs: []
      type: ""
  storage: {}
`
	if string(file) != want {
		t.Errorf("Tree wrote\n%s\nnot\n%s", file, want)
	}
}
