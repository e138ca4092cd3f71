package k0s_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

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
