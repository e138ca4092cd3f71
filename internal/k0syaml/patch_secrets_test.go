package k0syaml

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// Every secret a plan masks in k0s.yaml is found in a k0s.patch, by the
// steps to it as the patch spells them: a helm repository's password at
// any depth, the VRRP password and kine's datasource by their paths, in
// any case; an empty or null value is no secret, and a key of another name
// is none.
func TestPatchSecrets(t *testing.T) {
	const patch = `
spec:
  extensions:
    helm:
      repositories:
        - {name: a, url: "https://charts.example.net", password: s3cret-helm}
        - {name: b, url: "https://b.example.net", Password: ""}
        - {name: c, url: "https://c.example.net", password: null, passwords: not-a-key}
  network:
    controlPlaneLoadBalancing:
      keepalived:
        vrrpInstances:
          - {virtualIPs: [192.0.2.100/24], AuthPass: s3cret-vrrp}
  storage:
    kine: {dataSource: "postgres://u:s3cret-kine@db/k0s"}
  deep: {list: [[{password: {nested: s3cret-deep}}]]}
`
	var tree map[string]any
	if err := yaml.Unmarshal([]byte(patch), &tree); err != nil {
		t.Fatal(err)
	}
	got, err := PatchSecrets(tree)
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for _, at := range got {
		s := ""
		for _, st := range at {
			if st.Index >= 0 {
				s += fmt.Sprintf("[%d]", st.Index)
			} else {
				s += "." + st.Key
			}
		}
		shown = append(shown, s)
	}
	want := []string{
		".spec.storage.kine.dataSource",
		".spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances[0].AuthPass",
		".spec.deep.list[0][0].password",
		".spec.extensions.helm.repositories[0].password",
	}
	slices.Sort(shown)
	slices.Sort(want)
	if !slices.Equal(shown, want) {
		t.Errorf("got %q\nwant %q", shown, want)
	}
	if s, err := PatchSecrets(nil); s != nil || err != nil {
		t.Errorf("no patch: %v %v", s, err)
	}

	// The redacted patch holds every key and no secret; the patch given is
	// left as it was.
	red, err := RedactedPatch(tree)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := yaml.Marshal(red)
	for _, v := range []string{"s3cret-helm", "s3cret-vrrp", "s3cret-kine", "s3cret-deep"} {
		if strings.Contains(string(text), v) {
			t.Errorf("the redacted patch holds %s:\n%s", v, text)
		}
	}
	if !strings.Contains(string(text), "not-a-key") || strings.Count(string(text), secret.Redacted) != 4 {
		t.Errorf("the redacted patch:\n%s", text)
	}
	if orig, _ := yaml.Marshal(tree); !strings.Contains(string(orig), "s3cret-helm") {
		t.Errorf("the patch given was changed")
	}
}
