package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// k0s's own feature gates (pkg/featuregate), set with --feature-gates on
// `k0s install controller` and `k0s controller`. Only one exists in
// v1.36.3+k0s.0 (pkg/featuregate/features.go:8,15): IPv6SingleStack, alpha,
// so off unless enabled.
const gateIPv6SingleStack = "IPv6SingleStack"

var knownGates = map[string]string{gateIPv6SingleStack: "ALPHA"}

// gates is the state of k0s's feature gates for one command line. given is
// false when --feature-gates was not on it: k0s then never initialises its
// gates, and asking one (network.go:130 does, for an IPv6 pod CIDR) is a
// nil pointer dereference (pkg/featuregate/featuregate.go:42-43, 116-121).
type gates struct {
	given bool
	set   map[string]bool
}

func (g gates) on(name string) bool { return g.given && g.set[name] }

func (g gates) ipv6SingleStackMessage() string {
	msg := "feature gate IPv6SingleStack must be explicitly enabled to use IPv6 single stack: add --feature-gates=IPv6SingleStack=true"
	if !g.given {
		msg += " (without --feature-gates k0s " + Version + " does not even say so: it panics on its uninitialised feature gates, pkg/featuregate/featuregate.go:42)"
	}
	return msg
}

// parseGates is FeatureGates.Set (pkg/featuregate/featuregate.go:126-138)
// with parseFeatureGateFlags (featuregate.go:86-114) and
// configureFeatureGates (featuregate.go:52-75).
func parseGates(val string) (map[string]bool, error) {
	set := map[string]bool{}
	for name, stage := range knownGates {
		set[name] = stage != "ALPHA"
	}
	if val == "" {
		return set, nil
	}
	parsed := map[string]bool{}
	for _, pair := range strings.Split(val, ",") {
		key, value, found := strings.Cut(pair, "=")
		if !found {
			return nil, errors.New("invalid feature gate format, expected key=value: write --feature-gates=IPv6SingleStack=true")
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if key == "" {
			return nil, errors.New("empty feature gate key: write key=value")
		}
		on, err := strconv.ParseBool(value)
		if err != nil {
			return nil, errors.New("invalid feature gate value, expected true or false")
		}
		parsed[key] = on
	}
	// k0s's messages quote the pair, the key and the value; these do not,
	// but for a gate k0s knows.
	// k0s walks a map: with several bad gates, which one it names varies.
	keys := make([]string, 0, len(parsed))
	for k := range parsed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		stage, ok := knownGates[k]
		if !ok {
			return nil, errors.New("unknown feature gate: k0s " + Version + " knows only " + knownGateNames())
		}
		if stage == "GA" && !parsed[k] {
			return nil, fmt.Errorf("feature gate %q is GA and cannot be disabled", k)
		}
		set[k] = parsed[k]
	}
	return set, nil
}

func knownGateNames() string {
	names := make([]string, 0, len(knownGates))
	for n := range knownGates {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
