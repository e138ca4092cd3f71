package render

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0s/rules"
)

// checkWithK0s holds the rendered install line and ClusterConfig to what
// the k0s the image carries refuses at `k0s install` (package k0s/rules,
// written from that release's source). The render itself is tested to pass;
// what this catches at a node is a k0s.patch that k0s would refuse, after
// the overlay is up and before the marker, so it is refused here, before
// the first write.
//
// The problems name ClusterConfig paths and never a value (the rules'
// promise: a patch may hold a password or a DSN); a path the operator wrote
// under k0s.patch reads the same with k0s.patch. in front. They are joined
// on one line, so the journal and status.json hold the whole refusal.
func checkWithK0s(args []string, config []byte) error {
	err := rules.CheckInstall(args[1:], config)
	if err == nil {
		return nil
	}
	return fmt.Errorf("k0s %s would refuse what was rendered (k0s.patch is merged into %s as written; a path spec.x here is k0s.patch.spec.x in the configuration): %s",
		rules.Version, K0sConfigPath, strings.ReplaceAll(err.Error(), "\n", "; "))
}

// k0sConfigOf is the ClusterConfig among a step's files, nil for a worker.
func k0sConfigOf(step plan.Step) []byte {
	for _, f := range step.Files {
		if f.Path == K0sConfigPath {
			return f.Content
		}
	}
	return nil
}
