package k0s

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// TestListenersTable holds every row to its shape: a source, a handling,
// a port function exactly on followed rows, and a followed row's port
// where the default configuration of its role and condition runs it.
func TestListenersTable(t *testing.T) {
	cite := regexp.MustCompile(`[\w/.-]+\.(go|yaml):\d+`)
	for _, l := range Listeners() {
		switch {
		case l.Component == "" || l.Proto == "" || l.Bind == "":
			t.Errorf("%+v: a row names its component, protocol and bind address", l)
		case !cite.MatchString(l.Source):
			t.Errorf("%s: source %q cites no file and line", l.Name(), l.Source)
		case l.Role != RoleController && l.Role != RoleWorker:
			t.Errorf("%s: role %q", l.Name(), l.Role)
		case (l.Handling == Followed) != (l.port != nil):
			t.Errorf("%s: %s, and a port function: %v", l.Name(), l.Handling, l.port != nil)
		case l.Handling == Followed && l.Bind == localhost:
			t.Errorf("%s: followed, but bound to loopback", l.Name())
		case l.Handling == Refused && len(l.Refuses) == 0:
			t.Errorf("%s: refused, but refuses no setting", l.Name())
		case len(l.Refuses) > 0 && l.Instead == "":
			t.Errorf("%s: refuses a setting and says nothing to do instead", l.Name())
		}
	}
}

// everyCondition runs every row of the table in some configuration.
var everyCondition = []Input{
	{BaseInput: config.BaseInput{Provider: config.ProviderKubeRouter, Storage: config.StorageEtcd}, Controller: true, Kubelet: true,
		Patch: map[string]any{"spec": map[string]any{"network": map[string]any{
			"nodeLocalLoadBalancing": map[string]any{"enabled": true},
			"kuberouter":             map[string]any{"extraArgs": map[string]any{"overlay-encap": "fou"}},
		}}}},
	{BaseInput: config.BaseInput{Provider: config.ProviderCalico, Storage: config.StorageKine, HA: true, VirtualIP: "192.0.2.100/24"}, Controller: true, Kubelet: true},
}

// TestEveryFollowedRowRuns: each followed row holds its default port in a
// configuration of everyCondition, so the walk with packets reaches it.
func TestEveryFollowedRowRuns(t *testing.T) {
	for _, l := range Listeners() {
		if l.Handling != Followed {
			continue
		}
		found := false
		for _, in := range everyCondition {
			found = found || l.PortIn(Of(in)) == l.Port
		}
		if !found {
			t.Errorf("%s: no configuration of everyCondition runs it on its default port", l.Name())
		}
	}
}

// followed are the listeners that answer on every address and that the
// guard holds, as the findings against it named them, by component and
// default port: written out, so a row dropped from the table fails here.
var followed = map[string]int{
	"kube-apiserver": 6443, "k0s join API": 9443, "konnectivity-server (agents)": 8132,
	"etcd (peers)": 2380, "kine (metrics)": 2380, "control-plane load balancer proxy": 6444,
	"kubelet": 10250, "kube-proxy (metrics)": 10249, "kube-proxy (health)": 10256,
	"kube-router (BGP)": 179, "kube-router (metrics)": 8080, "kube-router (health)": 20244, "kube-router (fou tunnel)": 5555,
	"calico-node (BGP)": 179, "calico-node (VXLAN)": 4789, "calico-node (Felix metrics)": 9091,
	"konnectivity-agent (health)": 8093,
}

func TestFollowedRowsStay(t *testing.T) {
	for name, port := range followed {
		if !slices.ContainsFunc(Listeners(), func(l Listener) bool {
			return l.Component == name && l.Port == port && l.Handling == Followed
		}) {
			t.Errorf("%s on %d is no longer a followed row of the table", name, port)
		}
	}
}

// named are the settings the guard cannot follow, as the findings against
// it named them: each is refused. It is written out, not read from the
// table, so a row that loses its refusal fails here.
var named = []string{
	"spec.api.extraArgs.secure-port",
	"spec.storage.etcd.extraArgs.listen-client-urls",
	"spec.storage.etcd.extraArgs.listen-peer-urls",
	"spec.storage.etcd.extraArgs.listen-metrics-urls",
	"spec.controllerManager.extraArgs.bind-address",
	"spec.scheduler.extraArgs.bind-address",
	"spec.network.kubeProxy.extraArgs.metrics-bind-address",
	"spec.network.kubeProxy.extraArgs.healthz-bind-address",
	"spec.network.kubeProxy.extraArgs.config",
	"spec.workerProfiles[0].values.port",
	"spec.workerProfiles[0].values.readOnlyPort",
	"spec.workerProfiles[0].values.healthzBindAddress",
	"spec.storage.kine.extraArgs.listen-address",
	"spec.storage.kine.extraArgs.metrics-bind-address",
	"spec.network.kuberouter.extraArgs.gobgp-admin-address",
	"spec.network.calico.envVars.FELIX_VXLANPORT",
	"spec.network.calico.envVars.FELIX_PROMETHEUSMETRICSPORT",
	"spec.network.calico.envVars.FELIX_HEALTHHOST",
	"spec.storage.etcd.extraArgs.listen-client-http-urls",
	"spec.storage.etcd.extraArgs.config-file",
	"spec.storage.kine.extraArgs.endpoint",
	"spec.network.kuberouter.extraArgs.enable-pprof",
	"spec.network.calico.envVars.FELIX_DEBUGHOST",
	"spec.network.calico.envVars.FELIX_WIREGUARDENABLED",
	"spec.network.calico.envVars.FELIX_WIREGUARDENABLEDV6",
}

// patchOf is a ClusterConfig patch that sets a dotted path (a list item
// as name[0]) to value.
func patchOf(path string, value any) map[string]any {
	segs := strings.Split(path, ".")
	var cur any = value
	for i := len(segs) - 1; i >= 0; i-- {
		name, item := strings.CutSuffix(segs[i], "[0]")
		if item {
			cur = []any{cur}
		}
		cur = map[string]any{name: cur}
	}
	return cur.(map[string]any)
}

// spellings are the ways a setting is written: a key, and for a flag its
// rawArgs forms, each with the path the refusal is expected at.
func spellings(s Setting) map[string]map[string]any {
	out := map[string]map[string]any{}
	switch s.Kind {
	case ProfileValue:
		// As k0s decodes the values into the kubelet's configuration
		// (sigs.k8s.io/yaml, without regard to case).
		for _, key := range []string{s.Key, strings.ToUpper(s.Key[:1]) + s.Key[1:]} {
			at := "spec.workerProfiles[0].values." + key
			out[at] = patchOf("spec.workerProfiles[0]", map[string]any{"name": "default", "values": map[string]any{key: "0.0.0.0"}})
		}
	case EnvVar:
		// As Felix reads its variables, lower-cased.
		for _, key := range []string{s.Key, strings.ToLower(s.Key)} {
			at := s.Block + ".envVars." + key
			out[at] = patchOf(at, "1234")
		}
	default:
		// As the components read a flag's name: `_` as `-`, one dash or
		// two.
		for _, key := range []string{s.Key, strings.ReplaceAll(s.Key, "-", "_")} {
			at := s.Block + ".extraArgs." + key
			out[at] = patchOf(at, "0.0.0.0")
		}
		raw := s.Block + ".rawArgs"
		out[raw+"[1]"] = patchOf(raw, []any{"--v=2", "--" + s.Key + "=0.0.0.0"})
		out[raw+"[0]"] = patchOf(raw, []any{"--" + s.Key, "0.0.0.0"})
		out[raw+"[2]"] = patchOf(raw, []any{"--v=2", "--v=3", "-" + strings.ReplaceAll(s.Key, "-", "_") + "=0.0.0.0"})
	}
	return out
}

// TestEveryRefusedSettingIsRefused: every refused setting of the table, in
// each of its spellings, is a problem of the effective configuration at its
// path, naming the listener; and it is none with the guard off.
func TestEveryRefusedSettingIsRefused(t *testing.T) {
	var covered []string
	for _, l := range Listeners() {
		for _, s := range l.Refuses {
			for at, patch := range spellings(s) {
				covered = append(covered, at)
				// A controller without a kubelet publishes the workers'
				// settings, so it answers for them too.
				for _, c := range []struct{ guarded, kubelet bool }{{true, true}, {false, true}, {true, false}} {
					guarded := c.guarded
					in := everyCondition[0]
					in.Patch, in.Guarded, in.Kubelet = patch, guarded, c.kubelet
					var got []string
					for _, p := range Of(in).Problems {
						if p.Path == at && strings.Contains(p.Message, l.Name()) {
							got = append(got, p.Message)
						}
					}
					switch {
					case guarded && len(got) != 1:
						t.Errorf("%s set at %s (kubelet %v): %d refusals naming %s there, want 1 (problems %v)", s, at, c.kubelet, len(got), l.Name(), Of(in).Problems)
					case !guarded && len(got) != 0:
						t.Errorf("%s set at %s with the guard off: refused (%v)", s, at, got)
					}
				}
			}
		}
	}
	for _, n := range named {
		if !slices.Contains(covered, n) {
			t.Errorf("%s moves a listener where the guard cannot follow, and no row of the table refuses it", n)
		}
	}
}

// TestARefusalQuotesNoValue: a refusal says what the setting does, never
// what it was set to.
func TestARefusalQuotesNoValue(t *testing.T) {
	in := everyCondition[0]
	in.Guarded = true
	in.Patch = patchOf("spec.storage.kine.extraArgs.listen-address", "tcp://0.0.0.0:23790-sekrit")
	in.Storage = config.StorageKine
	for _, p := range Of(in).Problems {
		if strings.Contains(p.Message, "sekrit") {
			t.Errorf("%s: %s quotes the value", p.Path, p.Message)
		}
	}
}

// TestFirewallDocIsCurrent: docs/firewall.md holds the table as the rows
// say it.
func TestFirewallDocIsCurrent(t *testing.T) {
	doc, err := os.ReadFile("../../docs/firewall.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := SpliceListeners(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	if string(doc) != want {
		t.Error("docs/firewall.md's listeners table is stale: run go generate ./internal/k0s")
	}
}

// TestEveryRowsTestExists: the tests the table names as proof exist, so a
// renamed test does not leave the table citing nothing.
func TestEveryRowsTestExists(t *testing.T) {
	var src strings.Builder
	for _, dir := range []string{".", "../firewall/nft", "../../cmd/corium-agent"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src.Write(b)
		}
	}
	for _, name := range []string{TestFollowed, TestRefused, TestCommands, TestShape} {
		if !strings.Contains(src.String(), "func "+name+"(t *testing.T)") {
			t.Errorf("the table cites %s, which no test file defines", name)
		}
	}
}
