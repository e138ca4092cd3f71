package schema

import (
	"strings"
	"testing"
)

const (
	hubKey   = "lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho="
	otherKey = "IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk="
	thirdKey = "8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc="
)

// sharedPeers is a worker whose second and third peers take the first
// one's settings through a merge key, overriding some of them.
func sharedPeers(common string) string {
	return `role: worker
join: {tokenFrom: {file: /run/token}}
wireguard:
  - name: wg0
    address: 10.10.0.5/24
    nodeAddress: true
    privateKeyFrom: {credential: corium.wg0}
    peers:
      - &hub
        publicKey: ` + hubKey + `
        endpoint: 192.0.2.1:51820
        allowedIPs: [10.10.0.1/32]
` + common + `      - <<: *hub
        publicKey: ` + otherKey + `
        allowedIPs: [10.10.0.2/32]
      - <<: *hub
        publicKey: ` + thirdKey + `
        endpoint: 192.0.2.3:51820
        allowedIPs: [10.10.0.3/32]
`
}

func mustValidate(t *testing.T, doc string) (*Document, Findings) {
	t.Helper()
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return d, Validate(d)
}

// A peer takes the settings it merges, and its own keys win over them.
func TestMergeKeysShareSettings(t *testing.T) {
	d, fs := mustValidate(t, sharedPeers("        persistentKeepalive: 25\n"))
	if len(fs) != 0 {
		t.Fatalf("findings: %v", fs)
	}
	peers := d.Config.WireGuard[0].Peers
	if len(peers) != 3 {
		t.Fatalf("%d peers", len(peers))
	}
	for i, want := range []struct{ key, endpoint, allowed string }{
		{hubKey, "192.0.2.1:51820", "10.10.0.1/32"},
		{otherKey, "192.0.2.1:51820", "10.10.0.2/32"},
		{thirdKey, "192.0.2.3:51820", "10.10.0.3/32"},
	} {
		p := peers[i]
		if p.PublicKey != want.key || p.Endpoint != want.endpoint || len(p.AllowedIPs) != 1 || p.AllowedIPs[0] != want.allowed ||
			p.PersistentKeepalive == nil || *p.PersistentKeepalive != 25 {
			t.Errorf("peer %d: %+v, want %+v and keepalive 25", i, p, want)
		}
	}
}

// Of several mappings merged, the first wins; a cloud-config may keep the
// shared settings under a top-level key of its own, beside corium:.
func TestMergeKeysListAndTopLevelAnchor(t *testing.T) {
	d, fs := mustValidate(t, `#cloud-config
x-site: &site {persistentKeepalive: 25, endpoint: "192.0.2.1:51820"}
x-slow: &slow {persistentKeepalive: 60}
corium:
  role: worker
  join: {tokenFrom: {file: /run/token}}
  node:
    labels:
      <<: {zone: a, rack: "1"}
      rack: "7"
  wireguard:
    - name: wg0
      address: 10.10.0.5/24
      nodeAddress: true
      privateKeyFrom: {credential: corium.wg0}
      peers:
        - <<: [*slow, *site]
          publicKey: `+hubKey+`
          allowedIPs: [10.10.0.1/32]
`)
	if len(fs) != 0 {
		t.Fatalf("findings: %v", fs)
	}
	p := d.Config.WireGuard[0].Peers[0]
	if p.PersistentKeepalive == nil || *p.PersistentKeepalive != 60 || p.Endpoint != "192.0.2.1:51820" {
		t.Errorf("peer %+v: want keepalive 60 from the first mapping and the endpoint from the second", p)
	}
	if l := d.Config.Node.Labels; l["zone"] != "a" || l["rack"] != "7" || len(l) != 2 {
		t.Errorf("labels %v, want zone a and the label's own rack 7", l)
	}
}

// Findings about a merged field stand at its line in the mapping merged and
// name the field of the mapping that merged it; an unknown key merged in is
// still an unknown key; a key a mapping overrides is no duplicate.
func TestMergeKeysFindingsAndPositions(t *testing.T) {
	// Line 13: the anchored peer's keepalive, out of range.
	_, fs := mustValidate(t, sharedPeers("        persistentKeepalive: 0\n"))
	want := map[string]bool{}
	for _, p := range []string{"wireguard[0].peers[0].persistentKeepalive", "wireguard[0].peers[1].persistentKeepalive", "wireguard[0].peers[2].persistentKeepalive"} {
		want[p] = true
	}
	for _, f := range fs {
		if !want[f.Path] || f.Line != 13 || f.Col != 30 {
			t.Errorf("finding %s at %d:%d, want a keepalive finding at 13:30", f, f.Line, f.Col)
		}
		delete(want, f.Path)
	}
	if len(want) != 0 {
		t.Errorf("no finding for %v: %v", want, fs)
	}

	// A key or value met again through another merge is reported once, at
	// its line, under the path it was first met at; a value that did not
	// decode is not checked again under the paths that merged it.
	for _, common := range []string{"        persistentKeepaliv: 25\n", "        persistentKeepalive: often\n"} {
		_, fs = mustValidate(t, sharedPeers(common))
		want := `did you mean "persistentKeepalive"?`
		if strings.Contains(common, "often") {
			want = "must be a whole number"
		}
		if len(fs) != 1 || !strings.HasPrefix(fs[0].Path, "wireguard[0].peers[0].persistentKeepaliv") || fs[0].Line != 13 ||
			!strings.Contains(fs[0].Message, want) {
			t.Errorf("%q merged in: %v", common, fs)
		}
	}

	_, fs = mustValidate(t, "role: single\nnode:\n  <<: {name: a}\n  name: b\n  name: c\n")
	if len(fs) != 1 || fs[0].Path != "node.name" || fs[0].Line != 5 || !strings.Contains(fs[0].Message, "duplicate key; first given on line 4") {
		t.Errorf("duplicates beside a merge key: %v", fs)
	}
	for _, bad := range []string{"role: single\nnode:\n  <<: x\n", "role: single\nnode:\n  <<: [{name: a}, x]\n"} {
		if _, fs := mustValidate(t, bad); len(fs) != 1 || !strings.Contains(fs[0].Message, "a merge key (<<) takes a mapping or a list of mappings") {
			t.Errorf("%q: %v", bad, fs)
		}
	}
}
