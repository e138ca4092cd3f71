package schema

import (
	"bytes"
	"testing"
)

// forgetDoc is a standalone document with a merge key, whose fields are
// placed through the mapping it merges.
const forgetDoc = `role: controller
node:
  name: c1
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    listenPort: 51820
    privateKeyFrom: {file: /etc/corium/wg0.key}
    peers:
      - <<: {endpoint: 192.0.2.2:51820}
        publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=
        allowedIPs: [10.10.0.2/32]
`

// After Forget, every field is placed where it was before, by parsing the
// document again once; a cloud-config's block too, and Standalone still
// writes the same block out.
func TestForgetPlacesFieldsAsBefore(t *testing.T) {
	paths := []string{"role", "node.name", "wireguard[0].peers[0].endpoint", "wireguard[0].peers[0].allowedIPs[0]",
		"wireguard[0].peers[0].publicKey", "wireguard[0].listenPort", "wireguard[0].mtu", "nosuch.field", ""}
	for _, tc := range []struct{ name, data string }{{"standalone", forgetDoc}, {"cloud-config", cloudConfigDoc}} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			doc, err := Parse(data)
			if err != nil || doc.Config == nil {
				t.Fatalf("Parse: %v", err)
			}
			type pos struct{ line, col int }
			before := map[string]pos{}
			for _, p := range paths {
				l, c := doc.Position(p)
				before[p] = pos{l, c}
			}
			if before["wireguard[0].peers[0].endpoint"].line == 0 {
				t.Fatalf("the test document places no endpoint: %v", before)
			}
			var standalone []byte
			if doc.Shape == ShapeEmbedded {
				standalone, _, err = doc.Standalone()
				if err != nil {
					t.Fatalf("Standalone: %v", err)
				}
			}
			reads := 0
			doc.Forget(func() (*Tree, error) { reads++; return ReadTree(data, false) })
			if doc.block != nil {
				t.Fatal("Forget kept the tree")
			}
			for _, p := range paths {
				if l, c := doc.Position(p); (pos{l, c}) != before[p] {
					t.Errorf("%q is at %d:%d after Forget, at %d:%d before", p, l, c, before[p].line, before[p].col)
				}
			}
			if standalone != nil {
				again, _, err := doc.Standalone()
				if err != nil || !bytes.Equal(again, standalone) {
					t.Errorf("Standalone after Forget: %v\n%s\nwas\n%s", err, again, standalone)
				}
			}
			if reads != 1 {
				t.Errorf("the document was read %d times after Forget, want once", reads)
			}
		})
	}
}
