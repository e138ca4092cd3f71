package k0s_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/pflag"
	yamlv3 "gopkg.in/yaml.v3"
	cliflag "k8s.io/component-base/cli/flag"
	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"

	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// The differential of k0s.patch (docs/design testing.md, "Holding a reader
// to the program it imitates"): the agent reads the effective ClusterConfig
// by exact key and refuses the spellings that k0s or a component reads as
// something else; k0s and the components read loosely, each in its own way.
// Here each generated k0s.patch is read by readers that are not the agent's
// own: k0s's decoding (sigs.k8s.io/yaml into structs written from k0s's json
// tags, so encoding/json's case-insensitive match), the kubelet's
// configuration type (k8s.io/kubelet, decoded as k0s decodes a worker
// profile), pflag with component-base's WordSepNormalizeFunc as the
// Kubernetes components parse their flags, Go's flag package as etcd and
// kine do, and Felix's loading of its environment. From them a small,
// cited model of the listeners says which ports answer on an address other
// than loopback, and the property is:
//
//   - the agent refuses the document (k0s.Of(in).Problems), at a path under
//     one of the keys the generator mutated; or
//   - every port the reference says answers openly on the role is in the
//     role's guarded set (k0s.Of(in).Ports.Role).
//
// A document of canonical settings the guard follows is never refused, so
// the test fails both ways. Kept cases always run; -differential.n and
// -differential.seed run more: go test ./internal/k0s -run
// TestDifferentialPatch -differential.n=20000 -differential.seed=7.

var (
	differentialN    = flag.Int("differential.n", 500, "generated k0s.patch documents the differential runs, besides its kept cases")
	differentialSeed = flag.Uint64("differential.seed", 1, "the seed of the differential's first generated document; document i has seed+i")
)

func TestDifferentialPatch(t *testing.T) {
	t.Run("kept", func(t *testing.T) {
		for _, kc := range keptCases {
			c := kc.diffCase(t)
			if msg, _ := check(c); msg != "" {
				t.Errorf("kept case %q:\n%s", kc.name, msg)
			}
		}
	})
	t.Run("generated", func(t *testing.T) {
		var failed, refused, canonical, held int
		for i := range *differentialN {
			seed := *differentialSeed + uint64(i)
			c := generated(seed)
			msg, heldByRefusal := check(c)
			if c.canonical() {
				canonical++
			} else if len(k0s.Of(c.input()).Problems) > 0 {
				refused++
			}
			if heldByRefusal {
				held++
			}
			if msg == "" {
				continue
			}
			if failed++; failed <= 10 {
				t.Errorf("%s:\n%s\nreplay: go test ./internal/k0s -run 'TestDifferentialPatch/generated' -differential.seed=%d -differential.n=1", c.name, msg, seed)
			}
		}
		if failed > 0 {
			t.Errorf("%d of %d generated documents failed (seeds %d to %d)", failed, *differentialN, *differentialSeed, *differentialSeed+uint64(*differentialN)-1)
		}
		t.Logf("%d generated documents from seed %d: %d canonical, %d refused (%d of them open a port the guard does not hold, by the reference), %d accepted with respellings",
			*differentialN, *differentialSeed, canonical, refused, held, *differentialN-canonical-refused)
		// The generator reaches both verdicts, and documents whose refusal
		// alone keeps the guard whole, or the property says little.
		if *differentialN >= 100 && (canonical == 0 || refused == 0 || held == 0) {
			t.Errorf("the generator is lopsided: %d canonical, %d refused, %d held by the refusal alone, of %d", canonical, refused, held, *differentialN)
		}
	})
}

// check runs a document through the agent and the reference and says what
// breaks the property, "" when nothing does; held says the document is
// refused and the reference has a port answering openly that the guard
// does not hold, so that the refusal alone keeps the guard whole.
func check(c diffCase) (msg string, held bool) {
	in := c.input()
	e := k0s.Of(in)
	ctrl, work, err := reference(e.Config)
	if err != nil {
		return c.describe(e, nil) + "\nthe reference cannot read the document: " + err.Error(), false
	}
	var missing []listener
	if in.Controller {
		missing = append(missing, unguarded(ctrl, e.Ports.Role)...)
	}
	switch {
	case in.Kubelet:
		missing = append(missing, unguarded(work, e.Ports.Role)...)
	case in.Controller:
		// A controller publishes the workers' settings from its own
		// ClusterConfig; the cluster check holds the workers' network to
		// the controllers', so their guard is a worker's of the same patch.
		wi := in
		wi.Controller, wi.Kubelet = false, true
		missing = append(missing, unguarded(work, k0s.Of(wi).Ports.Role)...)
	}
	refused := len(e.Problems) > 0
	held = refused && len(missing) > 0
	switch {
	case c.canonical() && refused:
		return c.describe(e, missing) + "\na document of canonical settings the guard follows is refused", held
	case refused && !c.refusedAtMutation(e):
		return c.describe(e, missing) + "\nrefused, but at none of the keys the generator respelled or set", held
	case !refused && len(missing) > 0:
		return c.describe(e, missing) + "\naccepted, and the reference has ports answering openly that the guard does not hold", held
	}
	return "", held
}

// unguarded are the listeners whose port is not in the guarded set.
func unguarded(ls []listener, guarded []k0s.Port) []listener {
	var out []listener
	for _, l := range ls {
		if !slices.Contains(guarded, k0s.Port{Number: l.port, Proto: l.proto}) {
			out = append(out, l)
		}
	}
	return out
}

// ---------------------------------------------------------------------
// Cases.

// role is what a node document runs.
type role struct {
	name                string
	controller, kubelet bool
}

var (
	controllerOnly   = role{"controller", true, false}
	controllerWorker = role{"controller+worker", true, true}
	workerOnly       = role{"worker", false, true}
	roles            = []role{controllerOnly, controllerWorker, workerOnly}
)

// diffCase is one k0s.patch and the document it belongs to.
type diffCase struct {
	name              string
	role              role
	storage, provider string
	patch             map[string]any
	muts              []mutation
}

// mutation is one setting the generator put in the patch.
type mutation struct {
	what string
	// at is the ClusterConfig path, as written, of the key the mutation
	// respelled or set: a refusal of the mutation is at or under it.
	at string
	// canonical: spelled as the agent reads it, with a value the guard
	// follows or that opens nothing.
	canonical bool
}

func (c diffCase) input() k0s.Input {
	return k0s.Input{
		BaseInput:  config.BaseInput{Name: "k0s", Provider: c.provider, Storage: c.storage, PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12"},
		Controller: c.role.controller, Kubelet: c.role.kubelet, Guarded: true, Patch: c.patch,
	}
}

func (c diffCase) canonical() bool {
	return !slices.ContainsFunc(c.muts, func(m mutation) bool { return !m.canonical })
}

// refusedAtMutation: some problem of e is at or under a key that a
// mutation other than a canonical one respelled or set.
func (c diffCase) refusedAtMutation(e k0s.Effective) bool {
	for _, p := range e.Problems {
		for _, m := range c.muts {
			if !m.canonical && under(p.Path, m.at) {
				return true
			}
		}
	}
	return false
}

// under says whether path is at or below prefix.
func under(path, prefix string) bool {
	rest, ok := strings.CutPrefix(path, prefix)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

func (c diffCase) describe(e k0s.Effective, missing []listener) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  document: %s, storage %s, provider %s, guarded\n", c.role.name, c.storage, c.provider)
	for _, m := range c.muts {
		kind := "respelled"
		if m.canonical {
			kind = "canonical"
		}
		fmt.Fprintf(&b, "  %s: %s (at %s)\n", kind, m.what, m.at)
	}
	fmt.Fprintf(&b, "  k0s.patch: %s\n", asJSON(c.patch))
	if len(e.Problems) == 0 {
		b.WriteString("  problems: none\n")
	}
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "  problem at %s: %.120s\n", p.Path, p.Message)
	}
	fmt.Fprintf(&b, "  guarded: %v", e.Ports.Role)
	for _, l := range missing {
		fmt.Fprintf(&b, "\n  unguarded: %s", l)
	}
	return b.String()
}

func asJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// keptCase is a fixed document, one per respelling kind: a patch in YAML
// and the paths of the keys respelled or set (none for a canonical one).
type keptCase struct {
	name              string
	role              role
	storage, provider string
	patch             string
	at                []string
}

func (k keptCase) diffCase(t *testing.T) diffCase {
	t.Helper()
	var patch map[string]any
	if err := yamlv3.Unmarshal([]byte(k.patch), &patch); err != nil {
		t.Fatalf("kept case %q: %v", k.name, err)
	}
	c := diffCase{name: k.name, role: k.role, storage: k.storage, provider: k.provider, patch: patch}
	for _, at := range k.at {
		c.muts = append(c.muts, mutation{what: k.name, at: at})
	}
	if len(k.at) == 0 {
		c.muts = []mutation{{what: k.name, at: "spec", canonical: true}}
	}
	return c
}

const (
	etcd       = config.StorageEtcd
	kine       = config.StorageKine
	kubeRouter = config.ProviderKubeRouter
	calico     = config.ProviderCalico
	// kelvin and longS fold to k and s in encoding/json's matching
	// (Unicode's simple folding), not in Felix's strings.ToLower for ſ.
	kelvin = "\u212A"
	longS  = "\u017F"
)

var keptCases = []keptCase{
	// ClusterConfig keys k0s matches without regard to case.
	{"a leaf key in another case", controllerWorker, etcd, kubeRouter, `spec: {api: {Port: 16443}}`, []string{"spec.api.Port"}},
	{"a leaf key in capitals", controllerOnly, etcd, kubeRouter, `spec: {konnectivity: {AGENTPORT: 18132}}`, []string{"spec.konnectivity.AGENTPORT"}},
	{"a leaf key in mixed case", controllerOnly, kine, calico, `spec: {api: {pOrT: 16443}}`, []string{"spec.api.pOrT"}},
	{"a Kelvin sign for k", controllerOnly, etcd, kubeRouter, `spec: {api: {` + kelvin + `0sApiPort: 19443}}`, []string{"spec.api." + kelvin + "0sApiPort"}},
	{"a long s for s", controllerWorker, etcd, kubeRouter, `spec: {network: {kuberouter: {metric` + longS + `Port: 18080}}}`, []string{"spec.network.kuberouter.metric" + longS + "Port"}},
	{"a block key respelled", controllerOnly, etcd, kubeRouter, `spec: {API: {port: 16443}}`, []string{"spec.API"}},
	{"extraArgs respelled", workerOnly, etcd, kubeRouter, `spec: {network: {kuberouter: {ExtraArgs: {metrics-port: "18081"}}}}`, []string{"spec.network.kuberouter.ExtraArgs"}},
	{"rawArgs respelled", controllerWorker, etcd, kubeRouter, `spec: {network: {kuberouter: {RawArgs: ["--health-port=20245"]}}}`, []string{"spec.network.kuberouter.RawArgs"}},
	{"a folded duplicate", controllerOnly, etcd, calico, `spec: {api: {k0sApiPort: 9443, k0sapiport: 19443}}`, []string{"spec.api.k0sapiport"}},
	{"kube-proxy's address respelled", workerOnly, etcd, calico, `spec: {network: {kubeProxy: {MetricsBindAddress: "0.0.0.0:11249"}}}`, []string{"spec.network.kubeProxy.MetricsBindAddress"}},
	{"node-local load balancing respelled", workerOnly, etcd, kubeRouter, `spec: {network: {nodeLocalLoadBalancing: {Enabled: true}}}`, []string{"spec.network.nodeLocalLoadBalancing.Enabled"}},
	{"the network block respelled", controllerWorker, etcd, calico, `spec: {Network: {provider: calico, calico: {vxlanPort: 14789}}}`, []string{"spec.Network"}},

	// Flags as the components read them.
	{"_ in an extraArgs flag", controllerOnly, etcd, kubeRouter, `spec: {controllerManager: {extraArgs: {bind_address: "0.0.0.0"}}}`, []string{"spec.controllerManager.extraArgs"}},
	{"_ in a rawArgs flag", controllerOnly, etcd, kubeRouter, `spec: {api: {rawArgs: ["--secure_port=16443"]}}`, []string{"spec.api.rawArgs"}},
	{"_ in a rawArgs flag, its value apart", controllerWorker, kine, kubeRouter, `spec: {scheduler: {rawArgs: ["--bind_address", "0.0.0.0"]}}`, []string{"spec.scheduler.rawArgs"}},
	{"_ in kube-proxy's flag", workerOnly, etcd, kubeRouter, `spec: {network: {kubeProxy: {extraArgs: {metrics_bind_address: "0.0.0.0:11249"}}}}`, []string{"spec.network.kubeProxy.extraArgs"}},
	{"_ in kine's flag", controllerOnly, kine, kubeRouter, `spec: {storage: {kine: {extraArgs: {metrics_bind_address: ":2390"}}}}`, []string{"spec.storage.kine.extraArgs"}},
	{"one dash in etcd's rawArgs", controllerOnly, etcd, calico, `spec: {storage: {etcd: {rawArgs: ["-listen-peer-urls=https://0.0.0.0:2390"]}}}`, []string{"spec.storage.etcd.rawArgs"}},
	{"one dash in the API server's rawArgs", controllerOnly, etcd, kubeRouter, `spec: {api: {rawArgs: ["-secure-port=16443"]}}`, []string{"spec.api.rawArgs"}},
	{"dashes in an extraArgs key", controllerOnly, etcd, kubeRouter, `spec: {scheduler: {extraArgs: {"--bind-address": "0.0.0.0"}}}`, []string{"spec.scheduler.extraArgs"}},
	{"= in an extraArgs key", controllerOnly, etcd, kubeRouter, `spec: {controllerManager: {extraArgs: {"bind-address=0.0.0.0": ""}}}`, []string{"spec.controllerManager.extraArgs"}},
	{"a listener's flag as spelled", controllerWorker, etcd, kubeRouter, `spec: {controllerManager: {extraArgs: {bind-address: "0.0.0.0"}}}`, []string{"spec.controllerManager.extraArgs"}},

	// Felix's environment.
	{"a Felix variable in lower case", workerOnly, etcd, calico, `spec: {network: {calico: {envVars: {felix_vxlanport: "4790"}}}}`, []string{"spec.network.calico.envVars"}},
	{"a Felix variable in mixed case", controllerWorker, kine, calico, `spec: {network: {calico: {envVars: {Felix_HealthHost: "0.0.0.0"}}}}`, []string{"spec.network.calico.envVars"}},
	{"two Felix variables equal under lower case", workerOnly, etcd, calico, `spec: {network: {calico: {envVars: {FELIX_HEALTHPORT: "9099", felix_healthport: "9199"}}}}`, []string{"spec.network.calico.envVars"}},
	{"envVars respelled", workerOnly, etcd, calico, `spec: {network: {calico: {EnvVars: {FELIX_PROMETHEUSMETRICSPORT: "19091"}}}}`, []string{"spec.network.calico.EnvVars"}},

	// Worker profiles, decoded into the kubelet's configuration.
	{"a profile key in another case", workerOnly, etcd, kubeRouter, `spec: {workerProfiles: [{name: default, values: {ReadOnlyPort: 10255}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"a profile key in capitals", controllerWorker, etcd, calico, `spec: {workerProfiles: [{name: p1, values: {PORT: 10251}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"a profile key with a long s", workerOnly, kine, kubeRouter, `spec: {workerProfiles: [{name: default, values: {healthzBindAddre` + longS + longS + `: "0.0.0.0"}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"values respelled", workerOnly, etcd, kubeRouter, `spec: {workerProfiles: [{name: p1, Values: {readOnlyPort: 10255}}]}`, []string{"spec.workerProfiles[0].Values"}},

	// Patches of the manifests k0s deploys.
	{"patches", workerOnly, etcd, kubeRouter, `spec: {network: {kubeProxy: {patches: [{target: {kind: DaemonSet, name: kube-proxy}, patch: {type: json, content: "[]"}}]}}}`, []string{"spec.network.kubeProxy.patches"}},
	{"patches under a respelled block", controllerWorker, etcd, calico, `spec: {network: {Calico: {patches: [{target: {kind: DaemonSet, name: calico-node}, patch: {type: json, content: "[]"}}]}}}`, []string{"spec.network.Calico"}},

	// A worker's settings in a controller's document.
	{"a profile's listener in a controller-only document", controllerOnly, etcd, kubeRouter, `spec: {workerProfiles: [{name: default, values: {readOnlyPort: 10255}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"Felix's health host in a controller-only document", controllerOnly, etcd, calico, `spec: {network: {calico: {envVars: {FELIX_HEALTHHOST: "0.0.0.0"}}}}`, []string{"spec.network.calico.envVars"}},
	{"a respelled worker setting in a controller-only document", controllerOnly, kine, kubeRouter, `spec: {network: {kuberouter: {MetricsPort: 18080}}}`, []string{"spec.network.kuberouter.MetricsPort"}},

	// Canonical settings the guard follows: never refused.
	{"canonical: the API, join API and konnectivity ports", controllerWorker, etcd, kubeRouter, `spec: {api: {port: 16443, k0sApiPort: 19443}, konnectivity: {agentPort: 18132}}`, nil},
	{"canonical: kube-router's ports", controllerWorker, kine, kubeRouter, `spec: {network: {kuberouter: {metricsPort: 18080, extraArgs: {health-port: "20245"}, rawArgs: ["--bgp-port", "1790"]}}}`, nil},
	{"canonical: calico's VXLAN port and a Felix variable", workerOnly, etcd, calico, `spec: {network: {calico: {vxlanPort: 14789, envVars: {FELIX_LOGSEVERITYSCREEN: warning}}}}`, nil},
	{"canonical: a worker's settings in a controller-only document", controllerOnly, etcd, kubeRouter, `spec: {network: {kuberouter: {metricsPort: 18080}, kubeProxy: {metricsBindAddress: "0.0.0.0:11249"}, nodeLocalLoadBalancing: {enabled: true}}}`, nil},
	{"canonical: a profile's healthz port, on loopback", workerOnly, etcd, calico, `spec: {workerProfiles: [{name: default, values: {healthzPort: 10249, maxPods: 50}}]}`, nil},
	{"canonical: flags that open nothing", controllerOnly, kine, kubeRouter, `spec: {api: {extraArgs: {bind-address: "127.0.0.1"}}, controllerManager: {extraArgs: {secure-port: "10357"}}, scheduler: {rawArgs: ["--v=2"]}, storage: {kine: {extraArgs: {compact-interval: "5m"}}}}`, nil},
}

// ---------------------------------------------------------------------
// The generator.

// generated is seed's document: a role, a datastore and a CNI, and one to
// four mutations of the settings that move a listener; a quarter of the
// documents hold canonical settings only.
func generated(seed uint64) diffCase {
	r := rand.New(rand.NewPCG(seed, 0x6b30732e70617463))
	c := diffCase{
		name:     fmt.Sprintf("seed %d", seed),
		role:     roles[r.IntN(len(roles))],
		storage:  pick(r, etcd, kine),
		provider: pick(r, kubeRouter, calico),
		patch:    map[string]any{},
	}
	allCanonical := r.IntN(4) == 0
	for i := range 1 + r.IntN(4) {
		canonical := allCanonical || (i > 0 && r.IntN(3) == 0)
		g := generators[r.IntN(len(generators))]
		g(r, &c, canonical)
	}
	return c
}

// generators, weighted by repetition.
var generators = []func(*rand.Rand, *diffCase, bool){
	genScalar, genScalar, genScalar,
	genArgs, genArgs, genArgs, genArgs,
	genEnv, genEnv,
	genProfile, genProfile,
	genPatches,
}

func pick[T any](r *rand.Rand, of ...T) T { return of[r.IntN(len(of))] }

func randPort(r *rand.Rand) int { return 1025 + r.IntN(64000) }

func portString(r *rand.Rand) string { return strconv.Itoa(randPort(r)) }

// respell is s spelled otherwise with the same fold: each letter in either
// case, k as the Kelvin sign, s as the long s.
func respell(r *rand.Rand, s string) string {
	for {
		var b strings.Builder
		for _, c := range s {
			switch {
			case (c == 'k' || c == 'K') && r.IntN(4) == 0:
				b.WriteString(kelvin)
			case (c == 's' || c == 'S') && r.IntN(4) == 0:
				b.WriteString(longS)
			case r.IntN(2) == 0:
				b.WriteRune(unicode.ToUpper(c))
			default:
				b.WriteRune(unicode.ToLower(c))
			}
		}
		if out := b.String(); out != s {
			return out
		}
	}
}

// respellSome respells one of keys[from:], and returns the keys and the
// written path up to the respelled one.
func respellSome(r *rand.Rand, keys []string, from int) ([]string, string) {
	keys = slices.Clone(keys)
	i := from + r.IntN(len(keys)-from)
	keys[i] = respell(r, keys[i])
	return keys, dotted(keys[:i+1])
}

func dotted(keys []string) string { return strings.Join(keys, ".") }

// put sets value at keys under m: maps merge, lists append, anything else
// replaces.
func put(m map[string]any, keys []string, value any) {
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	last := keys[len(keys)-1]
	switch v := value.(type) {
	case []any:
		if old, ok := m[last].([]any); ok {
			m[last] = append(old, v...)
			return
		}
	case map[string]any:
		if old, ok := m[last].(map[string]any); ok {
			maps.Copy(old, v)
			return
		}
	}
	m[last] = value
}

// length is the length of the list at keys, 0 when there is none.
func length(m map[string]any, keys []string) int {
	var cur any = m
	for _, k := range keys {
		mm, _ := cur.(map[string]any)
		cur = mm[k]
	}
	l, _ := cur.([]any)
	return len(l)
}

// scalar is a ClusterConfig field that moves or turns on a listener, each
// a setting the guard follows (config.ReadNetwork).
type scalar struct {
	keys  []string
	value func(*rand.Rand) any
}

var scalars = []scalar{
	{[]string{"spec", "api", "port"}, func(r *rand.Rand) any { return randPort(r) }},
	{[]string{"spec", "api", "k0sApiPort"}, func(r *rand.Rand) any { return randPort(r) }},
	{[]string{"spec", "konnectivity", "agentPort"}, func(r *rand.Rand) any { return randPort(r) }},
	{[]string{"spec", "network", "kuberouter", "metricsPort"}, func(r *rand.Rand) any { return randPort(r) }},
	{[]string{"spec", "network", "calico", "vxlanPort"}, func(r *rand.Rand) any { return randPort(r) }},
	{[]string{"spec", "network", "calico", "mode"}, func(r *rand.Rand) any { return pick(r, "vxlan", "bird") }},
	{[]string{"spec", "network", "kubeProxy", "metricsBindAddress"}, bindAddress},
	{[]string{"spec", "network", "kubeProxy", "healthzBindAddress"}, bindAddress},
	{[]string{"spec", "network", "kubeProxy", "disabled"}, func(r *rand.Rand) any { return r.IntN(2) == 0 }},
	{[]string{"spec", "network", "nodeLocalLoadBalancing", "enabled"}, func(r *rand.Rand) any { return true }},
}

func bindAddress(r *rand.Rand) any {
	return net.JoinHostPort(pick(r, "0.0.0.0", "127.0.0.1", "192.0.2.10"), portString(r))
}

// genScalar sets a field: canonically, under a respelled key or block, or
// twice, under its own key and under a fold of it.
func genScalar(r *rand.Rand, c *diffCase, canonical bool) {
	s := pick(r, scalars...)
	if canonical {
		put(c.patch, s.keys, s.value(r))
		c.muts = append(c.muts, mutation{"set " + dotted(s.keys), dotted(s.keys), true})
		return
	}
	switch r.IntN(3) {
	case 0:
		keys, at := respellSome(r, s.keys, len(s.keys)-1)
		put(c.patch, keys, s.value(r))
		c.muts = append(c.muts, mutation{"leaf key respelled " + at, at, false})
	case 1:
		keys, at := respellSome(r, s.keys[:len(s.keys)-1], 0)
		keys = append(keys, s.keys[len(s.keys)-1])
		put(c.patch, keys, s.value(r))
		c.muts = append(c.muts, mutation{"block key respelled " + dotted(keys), at, false})
	default:
		put(c.patch, s.keys, s.value(r))
		keys, at := respellSome(r, s.keys, len(s.keys)-1)
		put(c.patch, keys, s.value(r))
		c.muts = append(c.muts, mutation{"folded duplicate " + at + " beside " + dotted(s.keys), at, false})
	}
}

// argBlock is a block that hands a component flags.
type argBlock struct {
	keys []string
	// listeners are flags that move or rebind a listener where the guard
	// cannot follow (the table refuses them); followed are flags the guard
	// follows; benign are flags that open nothing.
	listeners, followed, benign []argFlag
}

type argFlag struct {
	name  string
	value func(*rand.Rand) string
}

func fixedValue(v ...string) func(*rand.Rand) string {
	return func(r *rand.Rand) string { return pick(r, v...) }
}

var (
	anyAddress = fixedValue("0.0.0.0", "192.0.2.10", "127.0.0.1")
	argBlocks  = []argBlock{
		{keys: []string{"spec", "api"},
			listeners: []argFlag{{"secure-port", portString}},
			benign:    []argFlag{{"bind-address", anyAddress}, {"v", fixedValue("2")}}},
		{keys: []string{"spec", "controllerManager"},
			listeners: []argFlag{{"bind-address", anyAddress}},
			benign:    []argFlag{{"secure-port", portString}, {"v", fixedValue("2")}}},
		{keys: []string{"spec", "scheduler"},
			listeners: []argFlag{{"bind-address", anyAddress}},
			benign:    []argFlag{{"secure-port", portString}, {"v", fixedValue("2")}}},
		{keys: []string{"spec", "storage", "etcd"},
			listeners: []argFlag{
				{"listen-peer-urls", fixedValue("https://0.0.0.0:2390", "https://192.0.2.10:2380")},
				{"listen-client-urls", fixedValue("https://0.0.0.0:2379", "https://127.0.0.1:2479")},
				{"listen-metrics-urls", fixedValue("http://0.0.0.0:2381", "http://127.0.0.1:2381")}},
			benign: []argFlag{{"log-level", fixedValue("debug")}}},
		{keys: []string{"spec", "storage", "kine"},
			listeners: []argFlag{
				{"metrics-bind-address", fixedValue(":2390", "127.0.0.1:2380", ":2380")},
				{"listen-address", fixedValue("0.0.0.0:2379", "unix:///run/k0s/other.sock")}},
			benign: []argFlag{{"compact-interval", fixedValue("5m")}}},
		{keys: []string{"spec", "network", "kubeProxy"},
			listeners: []argFlag{
				{"metrics-bind-address", func(r *rand.Rand) string { return bindAddress(r).(string) }},
				{"healthz-bind-address", func(r *rand.Rand) string { return bindAddress(r).(string) }},
				{"config", fixedValue("/etc/kube-proxy/other.conf", "")}},
			benign: []argFlag{{"v", fixedValue("2")}}},
		{keys: []string{"spec", "network", "kuberouter"},
			followed: []argFlag{{"metrics-port", portString}, {"health-port", portString}, {"bgp-port", portString}},
			benign:   []argFlag{{"v", fixedValue("2")}}},
	}
)

// genArgs sets a flag of a block: canonically (a followed flag or one that
// opens nothing), or a listener's flag as spelled, with `_` for `-`, with
// dashes or a value in an extraArgs key, with one dash in rawArgs, or under
// a respelled extraArgs, rawArgs or block key.
func genArgs(r *rand.Rand, c *diffCase, canonical bool) {
	b := pick(r, argBlocks...)
	keys := slices.Clone(b.keys)
	if canonical {
		f := pick(r, append(slices.Clone(b.followed), b.benign...)...)
		at := setArg(c.patch, keys, f.name, f.value(r), r.IntN(3))
		c.muts = append(c.muts, mutation{"flag " + f.name + " of " + dotted(keys), at, true})
		return
	}
	all := slices.Concat(b.listeners, b.followed, b.benign)
	f := pick(r, all...)
	v := f.value(r)
	var at, what string
	switch r.IntN(6) {
	case 0:
		f = pick(r, append(slices.Clone(b.listeners), b.followed...)...)
		v = f.value(r)
		what = "the flag " + f.name
		at = setArg(c.patch, keys, f.name, v, r.IntN(3))
	case 1:
		if !strings.Contains(f.name, "-") {
			f = all[0]
			v = f.value(r)
		}
		name := strings.ReplaceAll(f.name, "-", "_")
		what = "the flag " + name
		at = setArg(c.patch, keys, name, v, r.IntN(3))
	case 2:
		name := pick(r, "--", "-") + f.name
		what = "the extraArgs key " + name
		put(c.patch, append(keys, "extraArgs"), map[string]any{name: v})
		at = dotted(append(keys, "extraArgs"))
	case 3:
		name := f.name + "=" + v
		what = "the extraArgs key " + name
		put(c.patch, append(keys, "extraArgs"), map[string]any{name: ""})
		at = dotted(append(keys, "extraArgs"))
	case 4:
		what = "the rawArgs -" + f.name + "=" + v
		put(c.patch, append(keys, "rawArgs"), []any{"-" + f.name + "=" + v})
		at = dotted(append(keys, "rawArgs"))
	default:
		form := r.IntN(3)
		field := "extraArgs"
		if form > 0 {
			field = "rawArgs"
		}
		written, prefix := respellSome(r, append(keys, field), 0)
		what = "the flag " + f.name + " under " + dotted(written)
		setArg(c.patch, written[:len(written)-1], f.name, v, form, written[len(written)-1])
		at = prefix
	}
	c.muts = append(c.muts, mutation{what + " in " + dotted(keys), at, false})
}

// setArg writes a flag into a block: as an extraArgs key (form 0), as
// rawArgs --name=value (1) or --name value (2); field names the list or
// map as written when it is respelled. It returns the written path.
func setArg(patch map[string]any, keys []string, name, value string, form int, field ...string) string {
	f := "extraArgs"
	if form > 0 {
		f = "rawArgs"
	}
	if len(field) > 0 {
		f = field[0]
	}
	at := append(slices.Clone(keys), f)
	switch form {
	case 0:
		put(patch, at, map[string]any{name: value})
	case 1:
		put(patch, at, []any{"--" + name + "=" + value})
	default:
		put(patch, at, []any{"--" + name, value})
	}
	return dotted(at)
}

// Felix's variables: those that move or rebind a listener (the table
// refuses them) and those that open nothing.
var (
	felixListeners = []argFlag{
		{"FELIX_VXLANPORT", portString},
		{"FELIX_HEALTHHOST", fixedValue("0.0.0.0", "127.0.0.1", "192.0.2.10")},
		{"FELIX_PROMETHEUSMETRICSPORT", portString},
	}
	felixBenign = []argFlag{
		{"FELIX_LOGSEVERITYSCREEN", fixedValue("warning", "debug")},
		{"FELIX_IPTABLESBACKEND", fixedValue("nft")},
		{"FELIX_HEALTHPORT", portString},
	}
)

// genEnv sets a variable of calico's envVars: canonically (one that opens
// nothing, in capitals), or a listener's variable, one in another case, a
// pair equal under lower case, or under a respelled key of its path.
func genEnv(r *rand.Rand, c *diffCase, canonical bool) {
	keys := []string{"spec", "network", "calico", "envVars"}
	at := dotted(keys)
	if canonical {
		f := pick(r, felixBenign...)
		put(c.patch, keys, map[string]any{f.name: f.value(r)})
		c.muts = append(c.muts, mutation{"variable " + f.name, at, true})
		return
	}
	f := pick(r, slices.Concat(felixListeners, felixBenign)...)
	var what string
	switch r.IntN(4) {
	case 0:
		f = pick(r, felixListeners...)
		what = "the variable " + f.name
		put(c.patch, keys, map[string]any{f.name: f.value(r)})
	case 1:
		name := respell(r, f.name)
		what = "the variable " + name
		put(c.patch, keys, map[string]any{name: f.value(r)})
	case 2:
		name := respell(r, f.name)
		what = "the variables " + f.name + " and " + name
		put(c.patch, keys, map[string]any{f.name: f.value(r), name: f.value(r)})
	default:
		var written []string
		written, at = respellSome(r, keys, 0)
		what = "the variable " + f.name + " under " + dotted(written)
		put(c.patch, written, map[string]any{f.name: f.value(r)})
	}
	c.muts = append(c.muts, mutation{what, at, false})
}

// The kubelet's configuration keys: those that move or rebind a listener
// (the table refuses them) and those that open nothing.
var (
	profileListeners = []scalar{
		{[]string{"port"}, func(r *rand.Rand) any { return randPort(r) }},
		{[]string{"readOnlyPort"}, func(r *rand.Rand) any { return pick(r, 10255, randPort(r)) }},
		{[]string{"healthzBindAddress"}, func(r *rand.Rand) any { return pick(r, "0.0.0.0", "127.0.0.1", "192.0.2.10") }},
	}
	profileBenign = []scalar{
		{[]string{"maxPods"}, func(r *rand.Rand) any { return 50 + r.IntN(200) }},
		{[]string{"healthzPort"}, func(r *rand.Rand) any { return randPort(r) }},
		{[]string{"address"}, func(r *rand.Rand) any { return pick(r, "0.0.0.0", "127.0.0.1", "192.0.2.10") }},
	}
)

// genProfile adds a worker profile: canonically (keys that open nothing),
// or a listener's key, a key respelled, a key beside a fold of it, or
// under a respelled values, workerProfiles or spec key.
func genProfile(r *rand.Rand, c *diffCase, canonical bool) {
	name := pick(r, "default", "p1", "p2")
	written := []string{"spec", "workerProfiles", "values"}
	values := map[string]any{}
	var what, respelledAt string
	s := pick(r, profileBenign...)
	switch k := r.IntN(4); {
	case canonical:
		values[s.keys[0]] = s.value(r)
		what = "profile value " + s.keys[0]
	case k == 0:
		s = pick(r, profileListeners...)
		values[s.keys[0]] = s.value(r)
		what = "profile value " + s.keys[0]
	case k == 1:
		s = pick(r, slices.Concat(profileListeners, profileBenign)...)
		key := respell(r, s.keys[0])
		values[key] = s.value(r)
		what = "profile value " + key
	case k == 2:
		s = pick(r, slices.Concat(profileListeners, profileBenign)...)
		key := respell(r, s.keys[0])
		values[s.keys[0]], values[key] = s.value(r), s.value(r)
		what = "profile values " + s.keys[0] + " and " + key
	default:
		s = pick(r, slices.Concat(profileListeners, profileBenign)...)
		values[s.keys[0]] = s.value(r)
		written, respelledAt = respellSome(r, written, 0)
		what = "profile value " + s.keys[0] + " under " + dotted(written)
	}
	list := written[:2]
	// The profile's values, as written, at the index it is appended at; a
	// respelled spec or workerProfiles key is refused where it is.
	at := fmt.Sprintf("%s[%d].%s", dotted(list), length(c.patch, list), written[2])
	if respelledAt != "" && len(respelledAt) <= len(dotted(list)) {
		at = respelledAt
	}
	put(c.patch, list, []any{map[string]any{"name": name, written[2]: values}})
	c.muts = append(c.muts, mutation{what + " (profile " + name + ")", at, canonical})
}

// patchBlocks are the blocks whose patches k0s applies to the manifests it
// deploys (rules.PatchBlocks).
var patchBlocks = [][]string{
	{"spec", "network", "kubeProxy"},
	{"spec", "network", "kuberouter"},
	{"spec", "network", "calico"},
	{"spec", "network", "coreDNS"},
	{"spec", "metricsServer"},
}

// genPatches sets a block's patches: none (canonically), or one, under its
// own key or a respelled one.
func genPatches(r *rand.Rand, c *diffCase, canonical bool) {
	keys := append(slices.Clone(pick(r, patchBlocks...)), "patches")
	if canonical {
		put(c.patch, keys, []any{})
		c.muts = append(c.muts, mutation{"no patches in " + dotted(keys), dotted(keys), true})
		return
	}
	at := dotted(keys)
	if r.IntN(2) == 0 {
		keys, at = respellSome(r, keys, 0)
	}
	put(c.patch, keys, []any{map[string]any{
		"target": map[string]any{"kind": "DaemonSet", "name": "any"},
		"patch":  map[string]any{"type": "json", "content": `[{"op": "add", "path": "/spec/template/spec/hostNetwork", "value": true}]`},
	}})
	c.muts = append(c.muts, mutation{"a patch at " + dotted(keys), at, false})
}

// ---------------------------------------------------------------------
// The reference: k0s's decoding, and the listeners that follow from it.

// The ClusterConfig as k0s v1.36.3+k0s.0 decodes it, the parts that carry
// listener settings: each struct is written from the json tags of the
// type it names (pkg/apis/k0s/v1beta1, file and line at the tag), and
// decoded with sigs.k8s.io/yaml as k0s's ConfigFromBytes does
// (clusterconfig_types.go:307-313, internal/pkg/strictyaml/strictyaml.go:17:
// yaml.UnmarshalStrict, whose JSON decoding matches keys to json tags
// exactly first, then without regard to case). Unknown fields are not
// refused here, since the structs hold only these parts.

// refSpec is v1beta1.ClusterSpec (clusterconfig_types.go:32-46).
type refSpec struct {
	API               *refAPI          `json:"api,omitempty"`
	ControllerManager *refArgs         `json:"controllerManager,omitempty"`
	Scheduler         *refArgs         `json:"scheduler,omitempty"`
	Storage           *refStorage      `json:"storage,omitempty"`
	Network           *refNetwork      `json:"network,omitempty"`
	WorkerProfiles    []refProfile     `json:"workerProfiles,omitempty"`
	Konnectivity      *refKonnectivity `json:"konnectivity,omitempty"`
	MetricsServer     *refPatched      `json:"metricsServer,omitempty"`
}

// refAPI is v1beta1.APISpec (api.go:25-60); its UnmarshalJSON defaults the
// ports after decoding (api.go:189-210).
type refAPI struct {
	ExtraArgs  map[string]string `json:"extraArgs,omitempty"`
	RawArgs    []string          `json:"rawArgs,omitempty"`
	K0sAPIPort int               `json:"k0sApiPort,omitempty"`
	Port       int               `json:"port,omitempty"`
}

func (a *refAPI) UnmarshalJSON(data []byte) error {
	type plain refAPI
	if err := json.Unmarshal(data, (*plain)(a)); err != nil {
		return err
	}
	if a.K0sAPIPort == 0 {
		a.K0sAPIPort = 9443
	}
	if a.Port == 0 {
		a.Port = 6443
	}
	return nil
}

// refArgs is v1beta1.ControllerManagerSpec and SchedulerSpec
// (clusterconfig_types.go:247-253, 267-274), and the flags of EtcdConfig
// (storage.go:137-149) and KineConfig (storage.go:49-57).
type refArgs struct {
	ExtraArgs map[string]string `json:"extraArgs,omitempty"`
	RawArgs   []string          `json:"rawArgs,omitempty"`
}

// refStorage is v1beta1.StorageSpec (storage.go:28-34); its UnmarshalJSON
// resets the type to etcd and etcd's settings before each decoding
// (storage.go:91-99).
type refStorage struct {
	Etcd *refArgs `json:"etcd,omitempty"`
	Kine *refArgs `json:"kine,omitempty"`
	Type string   `json:"type,omitempty"`
}

func (s *refStorage) UnmarshalJSON(data []byte) error {
	s.Type, s.Etcd = "etcd", &refArgs{}
	type plain refStorage
	return json.Unmarshal(data, (*plain)(s))
}

// refNetwork is v1beta1.Network (network.go:22-47); its UnmarshalJSON sets
// the provider to kuberouter before decoding and the provider's and
// kube-proxy's defaults after (network.go:243-271).
type refNetwork struct {
	Calico                 *refCalico     `json:"calico,omitempty"`
	KubeProxy              *refKubeProxy  `json:"kubeProxy,omitempty"`
	KubeRouter             *refKubeRouter `json:"kuberouter,omitempty"`
	CoreDNS                *refPatched    `json:"coreDNS,omitempty"`
	NodeLocalLoadBalancing *refNLLB       `json:"nodeLocalLoadBalancing,omitempty"`
	Provider               string         `json:"provider,omitempty"`
}

func (n *refNetwork) UnmarshalJSON(data []byte) error {
	n.Provider = "kuberouter"
	type plain refNetwork
	if err := json.Unmarshal(data, (*plain)(n)); err != nil {
		return err
	}
	switch n.Provider {
	case "calico":
		if n.Calico == nil {
			n.Calico = defaultCalico()
		}
		n.KubeRouter = nil
	case "kuberouter":
		if n.KubeRouter == nil {
			n.KubeRouter = &refKubeRouter{MetricsPort: 8080}
		}
		n.Calico = nil
	}
	if n.KubeProxy == nil {
		n.KubeProxy = defaultKubeProxy()
	}
	return nil
}

// refCalico is v1beta1.Calico (calico.go:14-53); its UnmarshalJSON sets
// DefaultCalico's values before each decoding (calico.go:80-90).
type refCalico struct {
	EnvVars   map[string]string `json:"envVars,omitempty"`
	Mode      string            `json:"mode,omitempty"`
	VxlanPort int               `json:"vxlanPort,omitempty"`
	Patches   []json.RawMessage `json:"patches,omitempty"`
}

func defaultCalico() *refCalico { return &refCalico{Mode: "vxlan", VxlanPort: 4789} } // calico.go:68-77

func (c *refCalico) UnmarshalJSON(data []byte) error {
	c.Mode, c.VxlanPort = "vxlan", 4789
	type plain refCalico
	return json.Unmarshal(data, (*plain)(c))
}

// refKubeRouter is v1beta1.KubeRouter (kuberouter.go:12-58), with
// DefaultKubeRouter's metrics port (kuberouter.go:85-91).
type refKubeRouter struct {
	MetricsPort int               `json:"metricsPort,omitempty"`
	ExtraArgs   map[string]string `json:"extraArgs,omitempty"`
	RawArgs     []string          `json:"rawArgs,omitempty"`
	Patches     []json.RawMessage `json:"patches,omitempty"`
}

// refKubeProxy is v1beta1.KubeProxy (kubeproxy.go:26-53), with
// DefaultKubeProxy's addresses (kubeproxy.go:98-104).
type refKubeProxy struct {
	Disabled           bool              `json:"disabled,omitempty"`
	MetricsBindAddress string            `json:"metricsBindAddress,omitempty"`
	HealthzBindAddress string            `json:"healthzBindAddress,omitempty"`
	ExtraArgs          map[string]string `json:"extraArgs,omitempty"`
	RawArgs            []string          `json:"rawArgs,omitempty"`
	Patches            []json.RawMessage `json:"patches,omitempty"`
}

func defaultKubeProxy() *refKubeProxy {
	return &refKubeProxy{MetricsBindAddress: "0.0.0.0:10249", HealthzBindAddress: "0.0.0.0:10256"}
}

// refNLLB is v1beta1.NodeLocalLoadBalancing (nllb.go:19-25).
type refNLLB struct {
	Enabled bool `json:"enabled"`
}

// refProfile is v1beta1.WorkerProfile (workerprofile.go:40-45): values is a
// runtime.RawExtension, kept as the JSON k0s's decoder met.
type refProfile struct {
	Name   string          `json:"name"`
	Values json.RawMessage `json:"values,omitempty"`
}

// refKonnectivity is v1beta1.KonnectivitySpec (konnectivity.go:14-29).
type refKonnectivity struct {
	AgentPort int32 `json:"agentPort,omitempty"`
}

// refPatched is v1beta1.CoreDNS (coredns.go:11-14) and MetricsServer
// (metricsserver.go:12-15): their patches.
type refPatched struct {
	Patches []json.RawMessage `json:"patches,omitempty"`
}

// defaultSpec is what k0s decodes the spec over: ClusterConfig's
// UnmarshalJSON starts from DefaultClusterSpec (clusterconfig_types.go:
// 350, 410-422).
func defaultSpec() *refSpec {
	return &refSpec{
		API:               &refAPI{Port: 6443, K0sAPIPort: 9443},
		ControllerManager: &refArgs{},
		Scheduler:         &refArgs{},
		Storage:           &refStorage{Type: "etcd", Etcd: &refArgs{}},
		Network: &refNetwork{ // network.go:72-83
			Provider:               "kuberouter",
			KubeRouter:             &refKubeRouter{MetricsPort: 8080},
			KubeProxy:              defaultKubeProxy(),
			NodeLocalLoadBalancing: &refNLLB{},
		},
		Konnectivity: &refKonnectivity{AgentPort: 8132}, // konnectivity.go:33-37
	}
}

// listener is a port the reference says answers on an address other than
// loopback; proto "tcp" or "udp", or what makes it one the guard cannot
// hold (port 0).
type listener struct {
	port  int
	proto string
	who   string
}

func (l listener) String() string {
	if l.port == 0 {
		return fmt.Sprintf("%s (%s)", l.who, l.proto)
	}
	return fmt.Sprintf("%d/%s: %s", l.port, l.proto, l.who)
}

// The node address, where k0s's etcd listens for its peers (the agent sets
// spec.storage.etcd.peerAddress to it).
const nodeAddress = "192.0.2.10"

// reference is what listens openly on a controller and on a worker of the
// ClusterConfig doc, as k0s decodes it and the components read what k0s
// hands them.
func reference(doc map[string]any) (ctrl, work []listener, err error) {
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	cfg := struct {
		Spec *refSpec `json:"spec,omitempty"`
	}{Spec: defaultSpec()}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, nil, err
	}
	s := cfg.Spec
	return controllerListeners(s), workerListeners(s), nil
}

func controllerListeners(s *refSpec) []listener {
	var out []listener
	add := func(who string, port int) { out = append(out, listener{port, "tcp", who}) }

	// kube-apiserver: k0s sets --secure-port from spec.api.port, then
	// extraArgs over its map, and writes the map in Go's map order, rawArgs
	// after (pkg/component/controller/apiserver.go:94-96, 138-143, 197-201).
	args := map[string]string{"secure-port": strconv.Itoa(s.API.Port)}
	maps.Copy(args, s.API.ExtraArgs)
	for _, argv := range anyOrder(args, s.API.RawArgs) {
		if f, ok := parseK8s(argv, map[string]string{"secure-port": "6443", "bind-address": "0.0.0.0"}); ok && openAt(f["bind-address"]) {
			add("kube-apiserver --secure-port", atoi(f["secure-port"]))
		}
	}
	// The join API on every address (cmd/api/api.go:159-174), konnectivity's
	// agent port (pkg/component/controller/konnectivity.go:148).
	add("k0s join API (spec.api.k0sApiPort)", s.API.K0sAPIPort)
	add("konnectivity-server (spec.konnectivity.agentPort)", int(s.Konnectivity.AgentPort))

	// kube-controller-manager and kube-scheduler: k0s's map with extraArgs
	// over it, sorted, rawArgs after (controllermanager.go:41-48, 115-125,
	// 152; scheduler.go:72-86, 111); on loopback unless rebound.
	cm := maps.Clone(s.ControllerManager.ExtraArgs)
	if cm == nil {
		cm = map[string]string{}
	}
	if cm["bind-address"] == "" {
		cm["bind-address"] = "127.0.0.1"
	}
	if f, ok := parseK8s(sortedArgs("--", cm, s.ControllerManager.RawArgs), map[string]string{"secure-port": "10257", "bind-address": "0.0.0.0"}); ok && openAt(f["bind-address"]) {
		add("kube-controller-manager --bind-address", atoi(f["secure-port"]))
	}
	sched := map[string]string{"bind-address": "127.0.0.1"}
	maps.Copy(sched, s.Scheduler.ExtraArgs)
	if f, ok := parseK8s(sortedArgs("--", sched, s.Scheduler.RawArgs), map[string]string{"secure-port": "10259", "bind-address": "0.0.0.0"}); ok && openAt(f["bind-address"]) {
		add("kube-scheduler --bind-address", atoi(f["secure-port"]))
	}

	switch s.Storage.Type {
	case "etcd":
		// etcd: "--"+key over k0s's map, sorted, rawArgs after
		// (controller/etcd.go:171-189, 218-224, 240); etcd parses them
		// with Go's flag package and takes no positional argument (etcd
		// v3.6.14 server/etcdmain/config.go:108, 142-152, 312-317).
		etcdArgs := map[string]string{
			"listen-client-urls": "https://127.0.0.1:2379",
			"listen-peer-urls":   "https://" + net.JoinHostPort(nodeAddress, "2380"),
		}
		var raw []string
		if s.Storage.Etcd != nil {
			maps.Copy(etcdArgs, s.Storage.Etcd.ExtraArgs)
			raw = s.Storage.Etcd.RawArgs
		}
		if f, ok := parseGo(sortedArgs("--", etcdArgs, raw), []string{"listen-client-urls", "listen-peer-urls", "listen-metrics-urls", "log-level"}, true); ok {
			for _, name := range []string{"listen-client-urls", "listen-peer-urls", "listen-metrics-urls"} {
				for _, port := range urlPorts(f[name]) {
					add("etcd --"+name, port)
				}
			}
		}
	case "kine":
		// kine: likewise (controller/kine.go:108-131), parsed by urfave/cli
		// v2.27.7 with Go's flag package (flag.go:171; kine v0.16.3
		// pkg/app/app.go:32, 77).
		kineArgs := map[string]string{"listen-address": "unix:///run/k0s/kine/kine.sock:2379", "metrics-bind-address": ":2380", "compact-interval": "0"}
		var raw []string
		if s.Storage.Kine != nil {
			maps.Copy(kineArgs, s.Storage.Kine.ExtraArgs)
			raw = s.Storage.Kine.RawArgs
		}
		if f, ok := parseGo(sortedArgs("--", kineArgs, raw), []string{"listen-address", "metrics-bind-address", "compact-interval", "endpoint"}, false); ok {
			for _, name := range []string{"listen-address", "metrics-bind-address"} {
				// A unix:// address is a socket (kine v0.16.3
				// pkg/util/network.go:5-13).
				if strings.HasPrefix(f[name], "unix://") {
					continue
				}
				if host, port, ok := hostPort(f[name]); ok && openAt(host) {
					add("kine --"+name, port)
				}
			}
		}
	}
	return out
}

func workerListeners(s *refSpec) []listener {
	var out []listener
	add := func(who string, port int, proto string) { out = append(out, listener{port, proto, who}) }
	unguardable := func(who, why string) { out = append(out, listener{0, why, who}) }

	// The kubelet: each profile decoded over k0s's own with
	// sigs.k8s.io/yaml into the kubelet's configuration, a profile met
	// again decoded over the first (workerconfig/reconciler.go:496-515),
	// then the kubelet's defaults (kubernetes v1.36.3
	// pkg/kubelet/apis/config/v1beta1/defaults.go:87-92, 126-131;
	// readOnlyPort 0 is off, k8s.io/kubelet config/v1beta1/types.go:170-176).
	profiles := map[string]*kubeletv1beta1.KubeletConfiguration{"default": {}}
	names := []string{"default"}
	for _, p := range s.WorkerProfiles {
		kc, ok := profiles[p.Name]
		if !ok {
			kc = &kubeletv1beta1.KubeletConfiguration{}
			profiles[p.Name] = kc
			names = append(names, p.Name)
		}
		if len(p.Values) > 0 {
			if err := yaml.Unmarshal(p.Values, kc); err != nil {
				unguardable("worker profile "+p.Name, "undecodable")
			}
		}
	}
	for _, name := range names {
		kc := profiles[name]
		port, address := int(kc.Port), kc.Address
		if port == 0 {
			port = 10250
		}
		if address == "" {
			address = "0.0.0.0"
		}
		healthzPort, healthzAddress := 10248, kc.HealthzBindAddress
		if kc.HealthzPort != nil {
			healthzPort = int(*kc.HealthzPort)
		}
		if healthzAddress == "" {
			healthzAddress = "127.0.0.1"
		}
		if openAt(address) {
			add("kubelet of profile "+name, port, "tcp")
			if kc.ReadOnlyPort > 0 {
				add("kubelet read-only port of profile "+name, int(kc.ReadOnlyPort), "tcp")
			}
		}
		if healthzPort > 0 && openAt(healthzAddress) {
			add("kubelet healthz of profile "+name, healthzPort, "tcp")
		}
	}

	n := s.Network
	// kube-proxy: --config with k0s's file, extraArgs over it, sorted,
	// rawArgs after (controller/kubeproxy.go:258-278); it reads its
	// addresses from the file k0s writes (kubeproxy.go:289-290) and
	// ignores their flags then (kubernetes v1.36.3
	// cmd/kube-proxy/app/options.go:119-120, 206-231).
	if kp := n.KubeProxy; kp != nil && !kp.Disabled {
		const file = "/var/lib/kube-proxy/config.conf"
		args := map[string]string{"config": file, "hostname-override": "$(NODE_NAME)"}
		maps.Copy(args, kp.ExtraArgs)
		f, ok := parseK8s(sortedArgs("--", args, kp.RawArgs), map[string]string{
			"config": "", "hostname-override": "", "metrics-bind-address": "127.0.0.1:10249", "healthz-bind-address": "0.0.0.0:10256",
		})
		metrics, healthz := kp.MetricsBindAddress, kp.HealthzBindAddress
		switch {
		case !ok:
		case f["config"] == file:
		case f["config"] == "":
			metrics, healthz = f["metrics-bind-address"], f["healthz-bind-address"]
		default:
			unguardable("kube-proxy", "a configuration file k0s did not write")
		}
		if ok {
			for _, a := range []string{metrics, healthz} {
				if host, port, ok := hostPort(a); ok && openAt(host) {
					add("kube-proxy "+a, port, "tcp")
				}
			}
		}
	}

	switch n.Provider {
	case "kuberouter":
		if n.KubeRouter == nil {
			break
		}
		// kube-router: k0s's map (metrics-port from metricsPort), extraArgs
		// merged over it, sorted, rawArgs after (controller/kuberouter.go:
		// 111-151); kube-router parses them with pflag and no normalizing
		// function (kube-router v2.10.0 cmd/kube-router/kube-router.go:33-34,
		// pkg/options/options.go:145, 179-181, 215-216).
		kr := n.KubeRouter
		args := map[string]string{"metrics-port": strconv.Itoa(kr.MetricsPort)}
		maps.Copy(args, kr.ExtraArgs)
		fs := newFlagSet(false)
		for name, def := range map[string]string{"metrics-port": "0", "health-port": "20244", "bgp-port": "179"} {
			fs.Var(&portValue{def}, name, "")
		}
		metricsAddr := fs.String("metrics-addr", "", "")
		healthAddr := fs.String("health-addr", "", "")
		fs.StringP("v", "v", "0", "")
		if fs.Parse(sortedArgs("--", args, kr.RawArgs)) == nil {
			for name, host := range map[string]string{"metrics-port": *metricsAddr, "health-port": *healthAddr, "bgp-port": ""} {
				if port := atoi(fs.Lookup(name).Value.String()); port > 0 && openAt(host) {
					add("kube-router --"+name, port, "tcp")
				}
			}
		}
		if len(kr.Patches) > 0 {
			unguardable("kube-router", "patched manifest")
		}
	case "calico":
		if n.Calico != nil {
			out = append(out, calicoListeners(n.Calico)...)
		}
	}
	// The konnectivity agent in the host network, with its health port on
	// every address (controller/konnectivityagent.go:138-140, 262, 297).
	if n.NodeLocalLoadBalancing != nil && n.NodeLocalLoadBalancing.Enabled {
		add("konnectivity-agent health", 8093, "tcp")
	}
	// A patch rewrites the manifest k0s deploys (pkg/apis/k0s/v1beta1/
	// patches.go:17): its arguments, environment and host network.
	if n.KubeProxy != nil && !n.KubeProxy.Disabled && len(n.KubeProxy.Patches) > 0 {
		unguardable("kube-proxy", "patched manifest")
	}
	if n.CoreDNS != nil && len(n.CoreDNS.Patches) > 0 {
		unguardable("CoreDNS", "patched manifest")
	}
	if s.MetricsServer != nil && len(s.MetricsServer.Patches) > 0 {
		unguardable("metrics-server", "patched manifest")
	}
	return out
}

// calicoListeners: calico-node's environment is the manifest's, then
// envVars in the template's sorted order
// (static/manifests/calico/DaemonSet/calico-node.yaml:220-222, 269-272,
// 289-292); the kubelet keeps the last of one name and hands distinct names
// over in any order (kubernetes v1.36.3 pkg/kubelet/kubelet_pods.go:965-971),
// and Felix reads them through felixEnv.
func calicoListeners(c *refCalico) []listener {
	var out []listener
	env := [][2]string{}
	if c.Mode == "vxlan" {
		env = append(env, [2]string{"FELIX_VXLANPORT", strconv.Itoa(c.VxlanPort)})
	}
	env = append(env, [2]string{"FELIX_HEALTHENABLED", "true"}, [2]string{"FELIX_PROMETHEUSMETRICSENABLED", "true"})
	for _, k := range slices.Sorted(maps.Keys(c.EnvVars)) {
		env = append(env, [2]string{k, c.EnvVars[k]})
	}
	last := map[string]string{}
	for _, kv := range env {
		last[kv[0]] = kv[1]
	}
	params := felixEnv(last)
	or := func(name string, def ...string) []string {
		if v, ok := params[name]; ok {
			return v
		}
		return def
	}
	// config_params.go:357, 409-410, 413-415.
	if c.Mode == "vxlan" {
		for _, p := range or("vxlanport", "4789") {
			if n, err := strconv.Atoi(p); err == nil && n > 0 {
				out = append(out, listener{n, "udp", "calico-node VXLAN (vxlanport " + p + ")"})
			}
		}
	}
	serve := func(who string, enabled, hosts, ports []string) {
		if !slices.ContainsFunc(enabled, func(v string) bool { b, _ := strconv.ParseBool(v); return b }) {
			return
		}
		for _, h := range hosts {
			for _, p := range ports {
				if n, err := strconv.Atoi(p); err == nil && n > 0 && openAt(h) {
					out = append(out, listener{n, "tcp", fmt.Sprintf("%s on %q", who, h)})
				}
			}
		}
	}
	serve("Felix metrics", or("prometheusmetricsenabled", "false"), or("prometheusmetricshost", ""), or("prometheusmetricsport", "9091"))
	serve("Felix health", or("healthenabled", "false"), or("healthhost", "localhost"), or("healthport", "9099"))
	if len(c.Patches) > 0 {
		out = append(out, listener{0, "patched manifest", "calico-node"})
	}
	return out
}

// felixEnv mirrors Felix's LoadConfigFromEnvironment (calico v3.32.1, the
// release of k0s's calico-node image, pkg/constant/constant.go:97;
// felix/config/env_var_loader.go:28-48): each name lower-cased, those with
// the prefix felix_ kept under the rest of the name; and config_params.go:
// 774-776, which looks each up lower-cased again. With two names for one
// parameter the environment's order decides, and the kubelet's is any: the
// values are the candidates.
func felixEnv(environ map[string]string) map[string][]string {
	out := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(environ)) {
		key := strings.ToLower(name)
		if param, ok := strings.CutPrefix(key, "felix_"); ok {
			out[param] = append(out[param], environ[name])
		}
	}
	return out
}

// sortedArgs is k0s's StringMap.ToDashedArgs (internal/pkg/stringmap/
// stringmap.go:31-37; ToArgs, 23-29, for etcd's and kine's "--"+key maps),
// with rawArgs appended.
func sortedArgs(dashes string, m map[string]string, raw []string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, dashes+k+"="+m[k])
	}
	return append(out, raw...)
}

// anyOrder are the argument lists of a map written in Go's map order: any
// entry may come last, so each is tried last once.
func anyOrder(m map[string]string, raw []string) [][]string {
	keys := slices.Sorted(maps.Keys(m))
	var out [][]string
	for i := range keys {
		order := append(slices.Delete(slices.Clone(keys), i, i+1), keys[i])
		var argv []string
		for _, k := range order {
			argv = append(argv, "--"+k+"="+m[k])
		}
		out = append(out, append(argv, raw...))
	}
	return out
}

// newFlagSet is a pflag set that reports errors; normalized, it reads `_`
// as `-` as every Kubernetes component does (k8s.io/component-base v0.36.3
// cli/run.go:89, cli/flag/flags.go:30-35; kubernetes v1.36.3
// cmd/kube-apiserver/apiserver.go:34, cmd/kube-controller-manager/
// controller-manager.go:36, cmd/kube-scheduler/scheduler.go:31,
// cmd/kube-proxy/proxy.go:31).
func newFlagSet(normalized bool) *pflag.FlagSet {
	fs := pflag.NewFlagSet("component", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if normalized {
		fs.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	}
	return fs
}

// parseK8s parses a Kubernetes component's arguments: flags with the
// defaults given (an address flag takes an IP, a port flag a port, as the
// components' own flags do), plus klog's -v and the flags the generator
// sets that move nothing. False when the component would not start.
func parseK8s(argv []string, flags map[string]string) (map[string]string, bool) {
	fs := newFlagSet(true)
	for name, def := range flags {
		switch {
		case strings.HasSuffix(name, "-port"):
			fs.Var(&portValue{def}, name, "")
		case name == "bind-address":
			fs.Var(&ipValue{def}, name, "")
		case strings.HasSuffix(name, "-bind-address"):
			fs.Var(&ipPortValue{def}, name, "")
		default:
			fs.String(name, def, "")
		}
	}
	fs.StringP("v", "v", "0", "")
	fs.String("leader-elect", "true", "")
	if err := fs.Parse(argv); err != nil {
		return nil, false
	}
	out := map[string]string{}
	for name := range flags {
		out[name] = fs.Lookup(name).Value.String()
	}
	return out, true
}

// parseGo parses arguments with Go's flag package, as etcd and kine do;
// strict refuses positional arguments, as etcd does.
func parseGo(argv, names []string, strict bool) (map[string]string, bool) {
	fs := flag.NewFlagSet("component", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	values := map[string]*string{}
	for _, n := range names {
		values[n] = fs.String(n, "", "")
	}
	if err := fs.Parse(argv); err != nil || (strict && fs.NArg() > 0) {
		return nil, false
	}
	out := map[string]string{}
	for n, v := range values {
		out[n] = *v
	}
	return out, true
}

// portValue, ipValue and ipPortValue are flags that refuse what the
// components' flags refuse.
type portValue struct{ v string }

func (p *portValue) String() string { return p.v }
func (p *portValue) Type() string   { return "int" }
func (p *portValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("not a port: %q", s)
	}
	p.v = s
	return nil
}

type ipValue struct{ v string }

func (p *ipValue) String() string { return p.v }
func (p *ipValue) Type() string   { return "ip" }
func (p *ipValue) Set(s string) error {
	if net.ParseIP(s) == nil {
		return fmt.Errorf("not an IP address: %q", s)
	}
	p.v = s
	return nil
}

type ipPortValue struct{ v string }

func (p *ipPortValue) String() string { return p.v }
func (p *ipPortValue) Type() string   { return "ipport" }
func (p *ipPortValue) Set(s string) error {
	if _, _, ok := hostPort(s); !ok && s != "" {
		return fmt.Errorf("not host:port: %q", s)
	}
	p.v = s
	return nil
}

// hostPort splits host:port, the port 1 to 65535.
func hostPort(s string) (string, int, bool) {
	host, port, err := net.SplitHostPort(s)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n < 1 || n > 65535 {
		return "", 0, false
	}
	return host, n, true
}

// urlPorts are the ports of a comma-separated list of URLs whose host is
// not loopback.
func urlPorts(list string) []int {
	var out []int
	for _, s := range strings.Split(list, ",") {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || u.Host == "" {
			continue
		}
		if host, port, ok := hostPort(u.Host); ok && openAt(host) {
			out = append(out, port)
		}
	}
	return out
}

// openAt says whether a listener bound to host answers on an address
// other than loopback: every address (empty, 0.0.0.0, ::) or any but a
// loopback one.
func openAt(host string) bool {
	if host == "localhost" {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err != nil || !a.IsLoopback()
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
