package k0s

import (
	"fmt"
	"sort"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s/rules"
)

// The agent reads the effective ClusterConfig by exact key: its merge of
// k0s.patch, the network it reads back (config.ReadNetwork) and the table's
// refusals. k0s and the components it starts read more loosely, each in its
// own way, so a setting spelled otherwise would reach the node unseen. Rather
// than emulate each reader, a spelling that a consumer reads as another is
// refused by name, with the spelling to use; every exact-key reader is then
// right by construction. These are problems whether or not the guard is on:
// the network the agent reads back decides the node's tunnels, masquerade
// and MTU as well.
//
//   - k0s decodes the ClusterConfig with encoding/json's folding match
//     (rules.Respelled);
//   - the Kubernetes components normalise `_` in a flag's name to `-`
//     (msgUnderscore), and k0s writes each extraArgs key as --key=value,
//     never trimming it (pkg/component/controller/apiserver.go:197-200,
//     internal/pkg/stringmap/stringmap.go:31-37, etcd.go:218-224), so a key
//     with dashes or a value of its own is another flag than the agent
//     reads;
//   - Felix lower-cases the names of its FELIX_ variables before it reads
//     them (calico v3.32.1 felix/config/env_var_loader.go:25-51), and k0s
//     writes envVars' names as given (static/manifests/calico/DaemonSet/
//     calico-node.yaml:289-291), so FELIX_VxlanPort is FELIX_VXLANPORT,
//     and beside it either of the two.
func spellingProblems(doc map[string]any) []finding.Finding {
	var out []finding.Finding
	add := func(at finding.Path, format string, args ...any) {
		out = append(out, finding.Finding{Path: at.String(), Message: fmt.Sprintf(format, args...)})
	}
	for _, r := range rules.Respelled(doc) {
		twin := ""
		if r.Twin {
			twin = "; the same block sets it under another spelling too, and k0s keeps whichever its decoder meets last"
		}
		add(finding.Path(r.Path), "is read by k0s %s as %s (its decoder matches keys without regard to case), while the agent, the guard and the checks read keys as spelled%s; spell it %s", rules.Version, r.Field, twin, r.Field)
	}
	for _, block := range rules.ArgBlocks() {
		at := finding.Path("").Fields(block)
		args, _ := lookup(doc, at.Field("extraArgs")).(map[string]any)
		for _, key := range sortedKeys(args) {
			switch {
			case strings.HasPrefix(key, "-") || strings.Contains(key, "="):
				add(at.Field("extraArgs").Field(key), "is a flag's name with dashes or a value in it: k0s writes each extraArgs key as --key=value, so the component is handed another flag than the agent reads; give the flag's name alone as the key, and its value as the key's value")
			case strings.Contains(key, "_"):
				add(at.Field("extraArgs").Field(key), "%s; write %s", msgUnderscore, strings.ReplaceAll(key, "_", "-"))
			}
		}
		raw, _ := lookup(doc, at.Field("rawArgs")).([]any)
		for i, a := range raw {
			if s, ok := a.(string); ok && strings.Contains(flagAsWritten(s), "_") {
				add(at.Field("rawArgs").Index(i), "%s; write its name with - for _", msgUnderscore)
			}
		}
	}
	for _, block := range rules.EnvBlocks() {
		at := finding.Path("").Fields(block).Field("envVars")
		vars, _ := lookup(doc, at).(map[string]any)
		for _, key := range sortedKeys(vars) {
			// Upper-cased from Felix's own name, so a Kelvin sign or a long
			// s, which lower-case to k and stay ſ, is refused too; and since
			// one name in capitals is one spelling, no two variables left
			// name one of Felix's.
			if felix := felixName(key); felix != "" && key != strings.ToUpper(felix) {
				add(at.Field(key), "is a Felix variable not spelled in capitals: Felix lower-cases its FELIX_ variables' names before reading them, so it may name one another key names too, while the agent reads the name as written; write it %s", strings.ToUpper(felix))
			}
		}
	}
	return out
}

// msgUnderscore: kube-apiserver, kube-controller-manager, kube-scheduler and
// kube-proxy normalise flag names through component-base's cli.Run
// (cli/run.go:89, cli/flag/flags.go:29-35 at v0.36.3); etcd (Go's flag
// package) and kube-router (pflag without a normalize func) refuse the
// name as unknown, and stop.
const msgUnderscore = "has _ in a flag's name, which the Kubernetes components read as - (component-base's WordSepNormalizeFunc), so it sets the flag the agent reads and guards under the name with -, and which etcd and kube-router refuse, and stop; no flag of k0s's components has _"

// felixName is the name Felix reads an environment variable under, "" for
// one it does not read (felix/config/env_var_loader.go: the name lower-cased,
// with the prefix felix_).
func felixName(key string) string {
	lower := strings.ToLower(key)
	if !strings.HasPrefix(lower, "felix_") {
		return ""
	}
	return lower
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
