package wgquick_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/wgquick"
)

// fillAll sets every field of a section to a value of its type that
// Parse accepts: a key for a key, "true" for a string (SaveConfig takes
// no other), a number, a list of one.
func fillAll(t *testing.T, v reflect.Value) {
	key := wgtypes.Key{1, 2, 3}
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Interface().(type) {
		case secret.Value:
			f.Set(reflect.ValueOf(secret.NewValue(key.String())))
		case wgtypes.Key:
			f.Set(reflect.ValueOf(key))
		case string:
			f.SetString("true")
		case int:
			f.SetInt(1400)
		case *int:
			n := 7
			f.Set(reflect.ValueOf(&n))
		case []string:
			f.Set(reflect.ValueOf([]string{"10.0.0." + strconv.Itoa(i+1) + "/32"}))
		default:
			t.Fatalf("%s.%s is a %s, a type this test and the codec have no value for", v.Type().Name(), v.Type().Field(i).Name, f.Type())
		}
	}
}

// Every field of Interface and Peer is a key of the format by its `wg`
// tag, the one place the key is spelled, and every secret field carries
// its secret tag: Marshal writes each field under its key, Parse reads
// the file back to the same value, and a secret key is in SecretKeys. A
// field added without its tag fails here.
func TestEveryKeyIsTagged(t *testing.T) {
	var f wgquick.File
	f.Peers = make([]wgquick.Peer, 1)
	fillAll(t, reflect.ValueOf(&f.Interface).Elem())
	fillAll(t, reflect.ValueOf(&f.Peers[0]).Elem())
	text := string(wgquick.Marshal(f))
	for _, section := range []reflect.Type{reflect.TypeFor[wgquick.Interface](), reflect.TypeFor[wgquick.Peer]()} {
		for _, u := range secret.Untagged(section) {
			t.Errorf("%s: tag it `secret:\"wireguard-key\"`", u)
		}
		for i := range section.NumField() {
			sf := section.Field(i)
			tag, ok := sf.Tag.Lookup("wg")
			if !ok {
				t.Errorf("%s.%s has no `wg:\"Key\"` tag: Marshal does not write it, Parse does not read it", section.Name(), sf.Name)
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			line := name + " = "
			if strings.Contains(opts, "comment") {
				line = "# " + name + ": "
			}
			if !strings.Contains(text, "\n"+line) {
				t.Errorf("%s.%s: no line %q in\n%s", section.Name(), sf.Name, line, text)
			}
			secretTagged := sf.Tag.Get(secret.Tag) != ""
			inSecretKeys := false
			for _, k := range wgquick.SecretKeys {
				inSecretKeys = inSecretKeys || k == name
			}
			if secretTagged != inSecretKeys {
				t.Errorf("%s.%s: secret tag %t, in SecretKeys %t", section.Name(), sf.Name, secretTagged, inSecretKeys)
			}
		}
	}
	back, err := wgquick.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, f) {
		t.Errorf("the file reads back as\n%#v\nnot\n%#v\n%s", back, f, text)
	}
}
