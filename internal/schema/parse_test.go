package schema

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

func TestParseShapes(t *testing.T) {
	cases := []struct {
		name  string
		doc   string
		shape Shape
		role  Role // "" when no block
	}{
		{"standalone block", "role: worker\n", ShapeStandalone, RoleWorker},
		{"single corium key", "corium:\n  role: controller\n", ShapeStandalone, RoleController},
		{"cloud-config", "#cloud-config\nruncmd: [true]\ncorium:\n  role: single\n", ShapeEmbedded, RoleSingle},
		{"cloud-config with trailing space", "#cloud-config  \r\ncorium:\n  role: single\n", ShapeEmbedded, RoleSingle},
		{"cloud-config without corium", "#cloud-config\nruncmd: [true]\n", ShapeNone, ""},
		{"empty", "", ShapeNone, ""},
		{"whitespace", "  \n\n", ShapeNone, ""},
		{"comments only", "# nothing here\n", ShapeNone, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Parse([]byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Shape != c.shape {
				t.Errorf("shape %v, want %v", doc.Shape, c.shape)
			}
			if c.role == "" {
				if doc.Config != nil {
					t.Errorf("got a config from a document without a block")
				}
				return
			}
			if doc.Config == nil || doc.Config.Role != c.role {
				t.Fatalf("config %+v, want role %s", doc.Config, c.role)
			}
			if len(doc.Findings) != 0 {
				t.Errorf("findings: %v", doc.Findings)
			}
		})
	}
}

// Cloud-init's other keys are not ours to judge, however odd.
func TestParseEmbeddedIgnoresOtherKeys(t *testing.T) {
	doc, err := Parse([]byte("#cloud-config\nwhatever: {deep: [1, 2]}\ncorium:\n  role: single\nusers: 7\n"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := Validate(doc); len(fs) != 0 {
		t.Errorf("findings for cloud-init keys: %v", fs)
	}
}

func TestParseSyntaxErrorLine(t *testing.T) {
	_, err := Parse([]byte("role: worker\nnode:\n  name: a\n   labels: x\n"))
	var syn *SyntaxError
	if !errors.As(err, &syn) {
		t.Fatalf("err = %v, want *SyntaxError", err)
	}
	if syn.Line != 4 {
		t.Errorf("line %d, want 4 (%v)", syn.Line, syn)
	}
}

func TestParseAddressScalarOrList(t *testing.T) {
	doc, err := Parse([]byte("role: single\nwireguard:\n  - name: a\n    address: 10.0.0.1/24\n  - name: b\n    address: [10.1.0.1/24, fd00::1/64]\n"))
	if err != nil {
		t.Fatal(err)
	}
	wg := doc.Config.WireGuard
	if len(wg) != 2 || len(wg[0].Address) != 1 || wg[0].Address[0] != "10.0.0.1/24" ||
		len(wg[1].Address) != 2 || wg[1].Address[1] != "fd00::1/64" {
		t.Errorf("addresses: %+v", wg)
	}
	if line, col := doc.Position("wireguard[1].address[1]"); line != 6 || col != 28 {
		t.Errorf("position of wireguard[1].address[1] = %d:%d, want 6:28", line, col)
	}
}

// A missing field is placed at the nearest field the document has.
func TestPositionFallsBackToParent(t *testing.T) {
	doc, err := Parse([]byte("role: single\nwireguard:\n  - name: a\n    peers:\n      - endpoint: 192.0.2.1:1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if line, col := doc.Position("wireguard[0].peers[0].publicKey"); line != 5 || col != 9 {
		t.Errorf("position = %d:%d, want 5:9 (the peer)", line, col)
	}
}

func TestParseUnsetIsNotZero(t *testing.T) {
	doc, err := Parse([]byte("role: single\nwireguard:\n  - name: a\n    listenPort: 0\n  - name: b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p := doc.Config.WireGuard[0].ListenPort; p == nil || *p != 0 {
		t.Errorf("explicit 0 lost: %v", p)
	}
	if p := doc.Config.WireGuard[1].ListenPort; p != nil {
		t.Errorf("omitted listenPort = %d, want unset", *p)
	}
}

func TestLoad(t *testing.T) {
	cfg, fs, err := Load([]byte("role: controller\n"))
	if err != nil || len(fs) != 0 {
		t.Fatalf("Load: %v %v", err, fs)
	}
	if cfg.Storage.Type != StorageEtcd || cfg.Network.PodCIDR != DefaultPodCIDR || cfg.HA.Enabled == nil {
		t.Errorf("defaults not applied: %+v", cfg)
	}
	_, fs, err = Load([]byte("role: worker\nclustr: {}\n"))
	if err == nil {
		t.Fatal("Load accepted an invalid config")
	}
	for _, want := range []string{"clustr: unknown key", "join: a worker needs"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if len(fs.Errors()) != 2 {
		t.Errorf("findings: %v", fs)
	}
	if _, _, err := Load([]byte("role: [")); !errors.As(err, new(*SyntaxError)) {
		t.Errorf("syntax error not a *SyntaxError: %v", err)
	}
}

// A document with five unrelated mistakes yields all five, with paths, in
// document order.
func TestFiveMistakesAllReported(t *testing.T) {
	doc := `role: worker
join: {token: ` + fixture.JoinToken("") + `}
cluster: {name: Bad_Name}
network: {cni: weave}
node:
  labels: {tier: "two words"}
wireguard:
  - name: wg0
    address: 10.10.0.2/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom: {credential: corium.wg}
    peers:
      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=
        allowedIPs: [10.10.0.1/32]
        persistentKeepalive: 99999
firewall: {publicPorts: [22]}
`
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	errs := Validate(d).Errors()
	want := []string{"cluster.name", "network.cni", `node.labels["tier"]`, "wireguard[0].peers[0].persistentKeepalive", "firewall.publicPorts[0]"}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d: %v", len(errs), len(want), errs)
	}
	for i, f := range errs {
		if f.Path != want[i] || f.Line == 0 {
			t.Errorf("error %d = %s at %d:%d, want path %s with a line", i, f, f.Line, f.Col, want[i])
		}
	}
}

// Aliases cannot make decoding blow up: a document that names one large
// value many times is refused rather than expanded.
func TestParseAliasExpansionBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("role: single\nwireguard:\n  - name: wg0\n    address: 10.0.0.1/24\n    peers:\n      - &p\n        publicKey: x\n        allowedIPs:\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "          - 10.1.%d.0/24\n", i)
	}
	for i := 0; i < 2000; i++ {
		b.WriteString("      - *p\n")
	}
	doc, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range doc.Findings {
		found = found || strings.Contains(f.Message, "too many aliases")
	}
	if !found {
		t.Errorf("no finding about aliases: %d findings", len(doc.Findings))
	}
}

// Both ways of finding a repeated key (scanning a small mapping, indexing a
// large one) report the repeat at the second key with the first one's line.
func TestParseDuplicateLabelKeys(t *testing.T) {
	for _, labels := range []int{2, linearScanKeys + 5} {
		var b strings.Builder
		b.WriteString("role: single\nnode:\n  labels:\n")
		for i := range labels {
			fmt.Fprintf(&b, "    example.com/k%d: v\n", i)
		}
		b.WriteString("    example.com/k1: again\n")
		doc, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`%d:5: node.labels["example.com/k1"]: duplicate key; first given on line 5`, labels+4)
		var got []string
		for _, f := range doc.Findings {
			got = append(got, fmt.Sprintf("%d:%d: %s", f.Line, f.Col, f))
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%d labels: findings %q, want one %q", labels, got, want)
		}
	}
}

// A label key holding dots and brackets is looked up whole, and #key places
// a finding at the key rather than its value.
func TestPositionOfLabelKey(t *testing.T) {
	doc, err := Parse([]byte("role: single\nnode:\n  labels:\n    a.b/c[0]: value\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := finding.Path("node.labels").Key("a.b/c[0]").String()
	if line, col := doc.Position(path); line != 4 || col != 15 {
		t.Errorf("position of %s = %d:%d, want 4:15", path, line, col)
	}
	if line, col := doc.Position(path + keySuffix); line != 4 || col != 5 {
		t.Errorf("position of %s%s = %d:%d, want 4:5", path, keySuffix, line, col)
	}
}
