package k0s_test

import (
	"flag"
	"slices"
	"testing"

	"github.com/corium/corium-agent/internal/k0s"
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
