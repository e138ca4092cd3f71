package k0s

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s/rules"
)

// refusals are the findings for the settings of the table's rows that move
// or rebind a listener where the guard cannot follow, each at the
// ClusterConfig path that sets it. They are problems of the effective
// configuration only where the guard is on: without it every port answers
// the underlay anyway, and nothing is left for a setting to open.
//
// A worker's listeners are refused in a controller's document too, with or
// without a kubelet: the controllers publish the worker profiles, kube-proxy,
// the CNI and the konnectivity agent to every worker from their own
// ClusterConfig (the reconcilers of pkg/component/controller), so a setting
// there opens the listener on workers whose documents never mention it.
func refusals(in Input, doc map[string]any) []finding.Finding {
	if !in.Guarded {
		return nil
	}
	var out []finding.Finding
	for _, l := range table {
		if !l.Runs(in) && !l.publishedBy(in) {
			continue
		}
		for _, s := range l.Refuses {
			for _, at := range s.setIn(doc) {
				msg := l.refusal(s)
				if !l.Runs(in) {
					msg += "; this controller publishes it to every worker"
				}
				out = append(out, finding.Finding{Path: at.String(), Message: msg})
			}
		}
	}
	for _, block := range rules.PatchBlocks() {
		at := finding.Path("").Fields(block).Field("patches")
		if list, _ := lookup(doc, at).([]any); len(list) > 0 {
			out = append(out, finding.Finding{Path: at.String(), Message: msgPatches})
		}
	}
	return out
}

// msgPatches: k0s applies a block's patches to the manifests it deploys
// (kube-proxy's, kube-router's, calico's, CoreDNS's, metrics-server's), and
// a patch can rewrite any argument, variable or hostNetwork of them; the
// agent has neither the manifests nor k0s's patching to follow them.
const msgPatches = "patches the manifests k0s deploys, whose arguments, environment and host network decide what listens on every node, and the guard of firewall.clusterPorts overlay cannot follow a patch; set the block's own fields instead, or turn the guard off (firewall.clusterPorts: open)"

// publishedBy says whether a controller of in publishes the listener's
// settings to the workers: every worker-side row's settings live in the
// ClusterConfig the controllers reconcile.
func (l Listener) publishedBy(in Input) bool {
	return l.Role == RoleWorker && in.Controller
}

// refusal says what a refused setting does and what to do instead; it
// never quotes the value set.
func (l Listener) refusal(s Setting) string {
	const guard = "the guard of firewall.clusterPorts overlay"
	switch l.Handling {
	case Refused:
		return fmt.Sprintf("turns on %s, which k0s leaves off and %s does not hold; %s", l.Name(), guard, l.Instead)
	case Loopback:
		return fmt.Sprintf("rebinds %s, which k0s keeps on %s, to where %s cannot follow; %s", l.Name(), l.Bind, guard, l.Instead)
	}
	return fmt.Sprintf("moves %s where %s cannot follow; %s", l.Name(), guard, l.Instead)
}

// setIn are the paths in a ClusterConfig where s is set.
func (s Setting) setIn(doc map[string]any) []finding.Path {
	switch s.Kind {
	case ProfileValue:
		// k0s decodes a profile's values into the kubelet's configuration
		// with sigs.k8s.io/yaml (workerconfig/reconciler.go:512), which
		// folds keys as encoding/json does.
		var out []finding.Path
		profiles := finding.Path("spec").Field("workerProfiles")
		list, _ := lookup(doc, profiles).([]any)
		for i, p := range list {
			values, _ := p.(map[string]any)
			at := profiles.Index(i).Field("values")
			for _, key := range setKeys(values["values"], func(k string) bool { return rules.FoldEqual(k, s.Key) }) {
				out = append(out, at.Field(key))
			}
		}
		return out
	case EnvVar:
		// Felix lower-cases its variables' names (spelling.go).
		at := finding.Path("").Fields(s.Block).Field("envVars")
		var out []finding.Path
		for _, key := range setKeys(lookup(doc, at), func(k string) bool { return strings.EqualFold(felixName(k), s.Key) }) {
			out = append(out, at.Field(key))
		}
		return out
	}
	block := finding.Path("").Fields(s.Block)
	var out []finding.Path
	for _, key := range setKeys(lookup(doc, block.Field("extraArgs")), func(k string) bool { return flagName("--"+k) == s.Key }) {
		out = append(out, block.Field("extraArgs").Field(key))
	}
	raw, _ := lookup(doc, block.Field("rawArgs")).([]any)
	for i, a := range raw {
		if str, ok := a.(string); ok && flagName(str) == s.Key {
			out = append(out, block.Field("rawArgs").Index(i))
		}
	}
	return out
}

// flagName is the flag a --name=value, --name or -name argument sets, as
// the components read it: "" for a value; dashes before the name stripped
// (Go's flag package, etcd's, takes one or two) and `_` read as `-`
// (component-base's WordSepNormalizeFunc), so a refused flag is found
// however it is spelled.
func flagName(arg string) string { return strings.ReplaceAll(flagAsWritten(arg), "_", "-") }

// flagAsWritten is the name of a flag argument as written, without its
// dashes and value; "" for a value.
func flagAsWritten(arg string) string {
	if !strings.HasPrefix(arg, "-") {
		return ""
	}
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return name
}

// setKeys are the keys of a map, sorted, that match and hold a value (null
// is unset, as k0s decodes it).
func setKeys(m any, match func(string) bool) []string {
	mm, _ := m.(map[string]any)
	var out []string
	for _, k := range sortedKeys(mm) {
		if mm[k] != nil && match(k) {
			out = append(out, k)
		}
	}
	return out
}

// lookup is the value at a path of fields, nil when it is not there.
func lookup(doc map[string]any, at finding.Path) any {
	var cur any = doc
	for _, seg := range strings.Split(at.String(), ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[seg]
	}
	return cur
}
