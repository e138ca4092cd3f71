package render

import (
	"encoding/base64"
	"encoding/json"
	"net/netip"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// messageAlphabet is text an error may hold whatever the key: a fuzzed value
// made only of it is no evidence of a leak.
var messageAlphabet = regexp.MustCompile(`^[a-z0-9 .,:;'()/_\-\[\]]*$`)

// nonCanonicalKey decodes to 32 bytes with Go's lenient base64 but has
// non-zero bits after the last byte: wg (and so wg-quick) refuses it.
const nonCanonicalKey = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmn="

// FuzzWireGuardKey: a key render accepts is one wg accepts (canonical
// base64 of 32 bytes, after trimming), and a refused key is never quoted in
// the error.
func FuzzWireGuardKey(f *testing.F) {
	for _, s := range []string{
		"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
		" yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n",
		"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk",
		"yAnz5TF-lXXJte14tji3zlMNq-hd2rYUIgJBgB3fBmk=",
		nonCanonicalKey,
		"c8d5f3b2e1a9c7d5f3b2e1a9c7d5f3b2e1a9c7d5f3b2e1a9c7d5f3b2e1a9c7d5",
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		"====",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := wireGuardKey(Secrets{"k": secret.NewValue(s)}, "k", nil, true)
		if err != nil {
			probe := strings.TrimSpace(s)
			if len(probe) >= 8 && !messageAlphabet.MatchString(probe) && strings.Contains(err.Error(), probe) {
				t.Fatalf("the error quotes the key: %v", err)
			}
			return
		}
		raw, derr := base64.StdEncoding.Strict().DecodeString(v.Reveal())
		if derr != nil || len(raw) != 32 {
			t.Fatalf("accepted %q, which wg refuses (not canonical base64 of 32 bytes)", s)
		}
		if v.Reveal() != strings.TrimSpace(s) {
			t.Fatalf("accepted %q as a different key", s)
		}
	})
}

// TestNonCanonicalKeyIsWhatWgRefuses checks the fuzz oracle against the real
// tool: wg itself refuses the key Go's lenient base64 would take.
func TestNonCanonicalKeyIsWhatWgRefuses(t *testing.T) {
	host.RequireCommands(t, "wg")
	wg, _ := exec.LookPath("wg")
	for key, wantOK := range map[string]bool{
		"yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=": true,
		nonCanonicalKey: false,
	} {
		cmd := exec.Command(wg, "pubkey")
		cmd.Stdin = strings.NewReader(key + "\n")
		_, err := cmd.Output()
		if (err == nil) != wantOK {
			t.Errorf("wg pubkey on %s: error %v, want accepted=%v", key, err, wantOK)
		}
		_, rerr := wireGuardKey(Secrets{"k": secret.NewValue(key)}, "k", nil, true)
		if (rerr == nil) != wantOK {
			t.Errorf("render on %s: error %v, want accepted=%v (as wg)", key, rerr, wantOK)
		}
	}
}

// Resolved values the render fuzzer hands in for every "...From" field: high
// entropy, so finding one in a file is a leak and not a coincidence.
const (
	fuzzResolvedKey   = "kPPbxDFN0Gp1qG4ObSFuvFd/fIr3pMymbZT0HeN7cVA="
	fuzzResolvedToken = "H4sIAAAAAAAC-fuzz-resolved-token-9b1e2f"
	fuzzResolvedPass  = "Zq7%x2Lw"
)

var renderSeeds = []string{
	"role: single\n",
	"role: worker\njoin:\n  tokenFrom: {file: /run/token}\nwireguard:\n  - name: wg0\n    address: 10.10.0.2/24\n    nodeAddress: true\n    privateKeyFrom: {credential: corium.wg0}\n    peers:\n      - publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n        endpoint: 198.51.100.1:51820\n        allowedIPs: [10.10.0.1/32]\n        presharedKeyFrom: {file: /run/psk}\n",
	"role: controller+worker\ncluster: {name: c1, endpoint: 192.0.2.100, subjectAltNames: [api.example]}\nha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  authPassFrom: {credential: corium.vrrp}\n  unicastPeers: [192.0.2.11, 192.0.2.12]\nnode:\n  name: cp1\n  labels: {corium.dev/zone: a}\n  taints: [{key: k, value: v, effect: NoExecute}]\nk0s:\n  patch: {spec: {telemetry: {enabled: true}}}\n",
	"role: controller\nstorage: {type: etcd}\nnetwork: {cni: calico}\nwireguard:\n  - name: wg0\n    address: [10.10.0.1/24, 'fd10::1/64']\n    listenPort: 51820\n    mtu: 1420\n    nodeAddress: true\n    privateKey: yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\n    peers:\n      - publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n        allowedIPs: [10.10.0.2/32, 'fd10::2/128']\n        persistentKeepalive: 25\n  - name: wg1\n    address: 10.20.0.1/24\n    listenPort: 51821\n    privateKeyFrom: {url: 'https://keys.example/wg1'}\n    peers:\n      - publicKey: TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=\n        allowedIPs: [10.20.0.0/24]\nfirewall: {clusterPorts: overlay, publicPorts: [6443]}\n",
}

// FuzzRender: every configuration that validates renders, the same way
// twice, with one wg-quick [Peer] per peer, and with no secret outside the
// files marked secret or in the plan's JSON.
func FuzzRender(f *testing.F) {
	for _, s := range renderSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _, err := schema.Load(data)
		if err != nil {
			return
		}
		secrets := Secrets{}
		if cfg.Join.TokenFrom != nil {
			secrets["join.tokenFrom"] = secret.NewValue(fuzzResolvedToken)
		}
		if cfg.HA.AuthPassFrom != nil {
			secrets["ha.authPassFrom"] = secret.NewValue(fuzzResolvedPass)
		}
		for i, wg := range cfg.WireGuard {
			if wg.PrivateKeyFrom != nil {
				secrets[schema.PrivateKeyPath(i)+"From"] = secret.NewValue(fuzzResolvedKey)
			}
			for j, p := range wg.Peers {
				if p.PresharedKeyFrom != nil {
					secrets[schema.PresharedKeyPath(i, j)+"From"] = secret.NewValue(fuzzResolvedKey)
				}
			}
		}
		eff := schema.Effective(cfg)
		in := Inputs{
			Config:   cfg,
			K0s:      eff,
			Secrets:  secrets,
			Decision: SelectNodeAddress(cfg, eff, nil),
			Facts:    vrrpFacts(cfg),
			Hostname: DecideHostname(cfg, HostnameFacts{}),
		}
		p, err := Render(in)
		if err != nil {
			t.Fatalf("a valid configuration does not render: %v", err)
		}
		again, err := Render(in)
		if err != nil {
			t.Fatalf("second render: %v", err)
		}
		if a, b := planText(t, p), planText(t, again); a != b {
			t.Fatal("render is not deterministic")
		}
		leaks := []string{fuzzResolvedKey, fuzzResolvedToken, fuzzResolvedPass}
		planJSON, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("marshalling the plan: %v", err)
		}
		for _, s := range leaks {
			if strings.Contains(string(planJSON), s) {
				t.Fatalf("the plan's JSON holds a secret")
			}
		}
		for _, step := range p.Steps {
			for _, file := range step.Files {
				if file.Secret {
					continue
				}
				for _, s := range leaks {
					if strings.Contains(string(file.Content), s) {
						t.Fatalf("%s is not marked secret and holds a resolved secret", file.Path)
					}
				}
			}
		}
		if conf := fileContent(p, K0sConfigPath); conf != "" {
			checkNetworkIsEffective(t, cfg, []byte(conf))
		}
		for _, wg := range cfg.WireGuard {
			conf := fileContent(p, WireGuardConfPath(wg.Name))
			if n := strings.Count(conf, "\n[Peer]\n"); n != len(wg.Peers) {
				t.Fatalf("%s has %d [Peer] sections for %d peers", WireGuardConfPath(wg.Name), n, len(wg.Peers))
			}
		}
	})
}

func fileContent(p *plan.Plan, path string) string {
	for _, step := range p.Steps {
		for _, file := range step.Files {
			if file.Path == path {
				return string(file.Content)
			}
		}
	}
	return ""
}

func planText(t *testing.T, p *plan.Plan) string {
	t.Helper()
	var b strings.Builder
	for _, step := range p.Steps {
		j, err := json.Marshal(step)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		for _, file := range step.Files {
			b.WriteString("\n" + file.Path + "\n")
			b.Write(file.Content)
		}
	}
	return b.String()
}

// vrrpFacts is a host whose VRRP interface (ha.interface, or the default
// route's) has an address of its own in both families, as a controller's
// underlay has; keepalived's unicast source comes from it.
func vrrpFacts(cfg *schema.Config) *hostfacts.Facts {
	name := cfg.HA.Interface
	if name == "" {
		name = "eth0"
	}
	return &hostfacts.Facts{
		Interfaces: []hostfacts.InterfaceFacts{{Name: name, Addresses: []netip.Prefix{
			netip.MustParsePrefix("198.51.100.254/24"), netip.MustParsePrefix("2001:db8:ffff::254/64"),
		}}},
		DefaultRoute: &hostfacts.RouteFacts{Interface: name, Source: netip.MustParseAddr("198.51.100.254")},
	}
}
