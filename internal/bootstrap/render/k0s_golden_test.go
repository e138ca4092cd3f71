package render

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

const k0sGoldenDir = "../../../testdata/render/k0s"

// k0sTestSecrets are the resolved secrets every k0s scenario uses; the
// tests check where each may and may not appear.
var k0sTestSecrets = Secrets{
	"join.tokenFrom":              secret.NewValue("K0S-JOIN-TOKEN-SECRET-7f3a"),
	"ha.authPassFrom":             secret.NewValue("vrrpPW1"),
	"wireguard[0].privateKeyFrom": secret.NewValue("yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="),
	"storage.dataSourceFrom":      secret.NewValue("postgres://k0s:K0S-DSN-SECRET-4c1e@db.example:5432/k0s?sslmode=require"),
}

// loadTestConfig decodes a scenario config strictly. The golden configs
// spell out every value the renderer reads, so no defaults are involved.
func loadTestConfig(t testing.TB, path string) *schema.Config {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var cfg schema.Config
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &cfg
}

func loadTestFacts(t testing.TB, dir string) *hostfacts.Facts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "facts.json"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := hostfacts.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestK0sGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(k0sGoldenDir, "*"))
	if err != nil || len(dirs) < 6 {
		t.Fatalf("want at least 6 scenarios under %s, got %d (%v)", k0sGoldenDir, len(dirs), err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cfg := loadTestConfig(t, filepath.Join(dir, "config.yaml"))
			facts := loadTestFacts(t, dir)
			d := SelectNodeAddress(cfg, schema.Effective(cfg), facts)
			addr, second := "", ""
			if d.Address.IsValid() {
				addr = d.Address.String()
			}
			if d.Second.IsValid() {
				second = d.Second.String()
			}
			got := map[string][]byte{}
			if cfg.Role.IsController() {
				secrets := ConfiguredSecrets(cfg, k0sTestSecrets)
				overlayMTU, err := nodeAddressMTU(Inputs{Config: cfg, Facts: facts})
				if err != nil {
					t.Fatal(err)
				}
				if err := checkKineDataSource(cfg, secrets); err != nil {
					t.Fatal(err)
				}
				vrrp, err := ChooseVRRP(cfg, facts)
				if err != nil {
					t.Fatal(err)
				}
				conf, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: addr, SecondAddress: second, Secrets: secrets, VRRP: vrrp, OverlayMTU: overlayMTU})
				if err != nil {
					t.Fatal(err)
				}
				checkNetworkIsEffective(t, cfg, conf)
				got["k0s.yaml"] = conf
			}
			hasToken := !configuredSecret(k0sTestSecrets, "join.token", cfg.Join.Token, cfg.Join.TokenFrom != nil).IsZero()
			args := K0sInstallArgs(cfg, K0sInstall{NodeAddress: addr, SecondAddress: second, HasToken: hasToken})
			got["install.txt"] = []byte(strings.Join(args, "\n") + "\n")
			compareGolden(t, filepath.Join(dir, "expected"), got, *update)
		})
	}
}

func compareGolden(t *testing.T, dir string, got map[string][]byte, update bool) {
	t.Helper()
	if update {
		_ = os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range got {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("reading %s: %v (run with -update to create it)", dir, err)
	}
	if len(entries) != len(got) {
		t.Errorf("%s holds %d files, the renderer produced %d", dir, len(entries), len(got))
	}
	for name, b := range got {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(want, b) {
			t.Errorf("%s differs from golden:\n--- want\n%s\n--- got\n%s", name, want, b)
		}
	}
}

func TestK0sConfigOnlyOwnAddressDiffers(t *testing.T) {
	cfg := loadTestConfig(t, filepath.Join(k0sGoldenDir, "controller-ha-overlay", "config.yaml"))
	pw := secret.NewValue("vrrpPW1")
	a, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "10.10.0.7", Secrets: Secrets{schema.AuthPassPath: pw}, OverlayMTU: 1420})
	if err != nil {
		t.Fatal(err)
	}
	b, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "10.10.0.9", Secrets: Secrets{schema.AuthPassPath: pw}, OverlayMTU: 1420})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, b) {
		t.Fatal("two different node addresses rendered the same file")
	}
	if got := bytes.ReplaceAll(b, []byte("10.10.0.9"), []byte("10.10.0.7")); !bytes.Equal(a, got) {
		t.Errorf("controllers differ beyond their own address:\n%s\n---\n%s", a, b)
	}
	again, _ := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "10.10.0.7", Secrets: Secrets{schema.AuthPassPath: pw}, OverlayMTU: 1420})
	if !bytes.Equal(a, again) {
		t.Error("rendering twice gave different bytes")
	}
}

func TestK0sAddressReachesEveryPlace(t *testing.T) {
	cfg := loadTestConfig(t, filepath.Join(k0sGoldenDir, "controller-ha-overlay", "config.yaml"))
	conf, err := RenderK0sConfig(cfg, schema.Effective(cfg), K0sInputs{NodeAddress: "10.10.0.1", Secrets: Secrets{schema.AuthPassPath: secret.NewValue("x")}, OverlayMTU: 1420})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Spec struct {
			API struct {
				Address string   `yaml:"address"`
				SANs    []string `yaml:"sans"`
			} `yaml:"api"`
			Storage struct {
				Etcd struct {
					PeerAddress string `yaml:"peerAddress"`
				} `yaml:"etcd"`
			} `yaml:"storage"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(conf, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Spec.API.Address != "10.10.0.1" || doc.Spec.Storage.Etcd.PeerAddress != "10.10.0.1" {
		t.Errorf("api.address %q, etcd.peerAddress %q; want the node address in both", doc.Spec.API.Address, doc.Spec.Storage.Etcd.PeerAddress)
	}
	seen := map[string]int{}
	for _, s := range doc.Spec.API.SANs {
		seen[s]++
	}
	if seen["10.10.0.1"] != 1 || seen["198.51.100.10"] != 1 || seen["api.example.com"] != 1 {
		t.Errorf("sans %v: want endpoint, node address and subjectAltNames once each", doc.Spec.API.SANs)
	}
	args := strings.Join(K0sInstallArgs(cfg, K0sInstall{NodeAddress: "10.10.0.1"}), " ")
	if strings.Contains(args, "--node-ip") {
		t.Errorf("a controller without a kubelet got a node IP: %s", args)
	}
	cfg.Role = schema.RoleControllerWorker
	args = strings.Join(K0sInstallArgs(cfg, K0sInstall{NodeAddress: "10.10.0.1"}), " ")
	if !strings.Contains(args, "--kubelet-extra-args=--node-ip=10.10.0.1") {
		t.Errorf("controller+worker install lacks the kubelet node IP: %s", args)
	}
}

func TestK0sInstallForceWhenUnitExists(t *testing.T) {
	cfg := loadTestConfig(t, filepath.Join(k0sGoldenDir, "worker-join", "config.yaml"))
	without := K0sInstallArgs(cfg, K0sInstall{NodeAddress: "10.10.0.21", HasToken: true})
	with := K0sInstallArgs(cfg, K0sInstall{NodeAddress: "10.10.0.21", HasToken: true, UnitExists: true})
	if strings.Contains(strings.Join(without, " "), "--force") {
		t.Errorf("--force without an earlier unit: %v", without)
	}
	if with[len(with)-1] != "--force" || len(with) != len(without)+1 {
		t.Errorf("want the same arguments plus --force, got %v", with)
	}
}

func TestDecideHostname(t *testing.T) {
	for _, tc := range []struct {
		name, current, machineID, want, source string
	}{
		{"node1", "whatever", "0123456789abcdef", "node1", "node.name"},
		{"", "rack3-n7", "0123456789abcdef", "rack3-n7", "current"},
		{"", "localhost", "0123456789ABCDEF", "corium-01234567", "machine-id"},
		{"", "fedora", "fedcba9876543210", "corium-fedcba98", "machine-id"},
		{"", "", "fedcba9876543210", "corium-fedcba98", "machine-id"},
		{"", "", "", "", HostnameDecidedAtBoot},
		{"", "localhost", "uninit", "", HostnameDecidedAtBoot},
	} {
		cfg := &schema.Config{Node: schema.Node{Name: tc.name}}
		got := DecideHostname(cfg, HostnameFacts{Current: tc.current, MachineID: tc.machineID})
		if got.Name != tc.want || got.Source != tc.source {
			t.Errorf("name %q current %q machine-id %q: got %+v, want %q from %q", tc.name, tc.current, tc.machineID, got, tc.want, tc.source)
		}
	}
}

// A k0s.patch k0s would refuse at install is refused at render, before the
// first write, with k0s's path into the ClusterConfig. Validation refuses
// each of these already (schema's tests); render holds to it on its own, so
// the config here skips validation.
func TestRenderRefusesWhatK0sRefuses(t *testing.T) {
	for patch, want := range map[string]string{
		`{spec: {telemetry: {enabld: false}}}`: "spec.telemetry.enabld",
		`{spec: {api: {port: 70000}}}`:         `["api"]["port"]`,
	} {
		cfg, _, err := schema.Load([]byte("role: controller\n"))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal([]byte(patch), &cfg.K0s.Patch); err != nil {
			t.Fatal(err)
		}
		_, err = RenderNode(Inputs{Config: cfg, K0s: schema.Effective(cfg), Decision: SelectNodeAddress(cfg, schema.Effective(cfg), nil)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("patch %s: got %v, want a refusal naming %s", patch, err, want)
		}
	}
}
