package k0s

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// refusals are the findings for the settings of the table's rows that move
// or rebind a listener where the guard cannot follow, each at the
// ClusterConfig path that sets it. They are problems of the effective
// configuration only where the guard is on: without it every port answers
// the underlay anyway, and nothing is left for a setting to open.
func refusals(in Input, doc map[string]any) []finding.Finding {
	if !in.Guarded {
		return nil
	}
	var out []finding.Finding
	for _, l := range table {
		if !l.Runs(in) {
			continue
		}
		for _, s := range l.Refuses {
			for _, at := range s.setIn(doc) {
				out = append(out, finding.Finding{Path: at.String(), Message: l.refusal(s)})
			}
		}
	}
	return out
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
		var out []finding.Path
		profiles := finding.Path("spec").Field("workerProfiles")
		list, _ := lookup(doc, profiles).([]any)
		for i, p := range list {
			at := profiles.Index(i).Field("values")
			if values, ok := p.(map[string]any); ok && isSet(values["values"], s.Key) {
				out = append(out, at.Field(s.Key))
			}
		}
		return out
	case EnvVar:
		at := finding.Path("").Fields(s.Block).Field("envVars")
		if isSet(lookup(doc, at), s.Key) {
			return []finding.Path{at.Field(s.Key)}
		}
		return nil
	}
	block := finding.Path("").Fields(s.Block)
	var out []finding.Path
	if isSet(lookup(doc, block.Field("extraArgs")), s.Key) {
		out = append(out, block.Field("extraArgs").Field(s.Key))
	}
	raw, _ := lookup(doc, block.Field("rawArgs")).([]any)
	for i, a := range raw {
		if str, ok := a.(string); ok && flagName(str) == s.Key {
			out = append(out, block.Field("rawArgs").Index(i))
		}
	}
	return out
}

// flagName is the name of a --name=value, --name or -name argument, "" for
// a value.
func flagName(arg string) string {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok {
		if name, ok = strings.CutPrefix(arg, "-"); !ok {
			return ""
		}
	}
	name, _, _ = strings.Cut(name, "=")
	return name
}

// isSet says whether a map holds key with a value (null is unset, as k0s
// decodes it).
func isSet(m any, key string) bool {
	mm, ok := m.(map[string]any)
	return ok && mm[key] != nil
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
