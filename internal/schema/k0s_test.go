package schema

import (
	"reflect"
	"testing"
)

// Validate computes the document's effective k0s configuration once and
// keeps it on the document, where the stages after it (the run, the cluster
// check) take it from; LoadTree hands that document on, defaults applied.
func TestValidateKeepsTheEffectiveConfiguration(t *testing.T) {
	data := []byte("role: worker\njoin: {tokenFrom: {file: /run/token}}\nk0s:\n  patch:\n    spec:\n      api:\n        port: 7443\n")
	tree, err := ReadTree(data, false)
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err := LoadTree(t.Context(), tree)
	if err != nil {
		t.Fatal(err)
	}
	if doc.K0s == nil {
		t.Fatal("LoadTree's document carries no effective configuration")
	}
	if want := Effective(doc.Config); !reflect.DeepEqual(*doc.K0s, want) {
		t.Errorf("the kept value is not the document's effective configuration:\n got %+v\nwant %+v", *doc.K0s, want)
	}
	if got := doc.K0s.Network.APIPort; got != 7443 {
		t.Errorf("the kept value's API port = %d, want the patch's 7443", got)
	}
}
