package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The pflag.Value types of k0s's own flags (pflag's built-in types serve
// the rest). Type and String are k0s's: cmdFlagsToArgs writes String into
// the unit and trims the brackets of the types it names (ServiceArgs). Set's
// errors never quote the value, where k0s's do.

// positiveDuration is positiveDurationFlag (pkg/config/cli.go:343-377).
type positiveDuration time.Duration

func (d *positiveDuration) Type() string { return "duration" }

func (d *positiveDuration) String() string {
	if *d <= 0 {
		return ""
	}
	return time.Duration(*d).String()
}

func (d *positiveDuration) Set(v string) error {
	if v == "" {
		*d = 0
		return nil
	}
	parsed, err := time.ParseDuration(v)
	if err != nil {
		return errNotDuration
	}
	if parsed <= 0 {
		return errors.New("must be positive: write a duration such as 30s")
	}
	*d = positiveDuration(parsed)
	return nil
}

// labels is k8s.io/component-base/cli/flag ConfigurationMap: key=value
// pairs, never an error.
type labels map[string]string

func (l *labels) Type() string { return "mapStringString" }

func (l *labels) String() string {
	pairs := make([]string, 0, len(*l))
	for k, v := range *l {
		pairs = append(pairs, k+"="+v)
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}

func (l *labels) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s == "" {
			continue
		}
		k, val, _ := strings.Cut(s, "=")
		(*l)[strings.TrimSpace(k)] = strings.TrimSpace(val)
	}
	return nil
}

// logLevels is logLevelsFlag (pkg/config/cli.go:140-206): each --logging
// starts again from the defaults.
type logLevels map[string]string

func (l *logLevels) Type() string { return "stringToString" }

func (l *logLevels) String() string {
	parts := make([]string, len(logComponents))
	for i, c := range logComponents {
		parts[i] = c.name + "=" + (*l)[c.name]
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func (l *logLevels) Set(val string) error {
	val = strings.TrimSuffix(strings.TrimPrefix(val, "["), "]")
	levels := logLevels{}
	for _, c := range logComponents {
		levels[c.name] = c.def
	}
	for val != "" {
		pair, rest, _ := strings.Cut(val, ",")
		val = rest
		k, v, ok := strings.Cut(pair, "=")
		if k == "" {
			return errors.New("component name cannot be empty: write component=level")
		}
		if !ok {
			return errors.New("must be of format component=level")
		}
		if _, known := levels[k]; !known {
			return errors.New("unknown component name: the components are " + logComponentNames())
		}
		levels[k] = v
	}
	*l = levels
	return nil
}

// logComponents are --logging's component names (pkg/config/cli.go:164-181)
// with their defaults (cli.go:128-138).
var logComponents = []struct{ name, def string }{
	{"containerd", "info"}, {"etcd", "info"}, {"konnectivity-server", "1"},
	{"kube-apiserver", "1"}, {"kube-controller-manager", "1"}, {"kube-scheduler", "1"}, {"kubelet", "1"},
}

func logComponentNames() string {
	names := make([]string, len(logComponents))
	for i, c := range logComponents {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// featureGates is FeatureGates (pkg/featuregate/featuregate.go:126-163).
// k0s's gates are a process-wide singleton, set once (featuregate.go:127-129);
// set is nil until then.
type featureGates struct{ set map[string]bool }

func (g *featureGates) Type() string { return "mapStringBool" }

func (g *featureGates) String() string {
	names := make([]string, 0, len(g.set))
	for n := range g.set {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + strconv.FormatBool(g.set[n])
	}
	return strings.Join(parts, ",")
}

func (g *featureGates) Set(v string) error {
	if g.set != nil {
		return errors.New("feature gates already initialized")
	}
	set, err := parseGates(v)
	if err != nil {
		return fmt.Errorf("failed to set default feature gates: %w", err)
	}
	g.set = set
	return nil
}
