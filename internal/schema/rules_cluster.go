package schema

import (
	"github.com/corium/corium-agent/internal/finding"
)

// join: a worker needs a token, a single node starts its own cluster.
func (v *crossCheck) join() {
	j := v.cfg.Join
	has := j.Token != nil || j.TokenFrom != nil
	if j.Token != nil && j.Token.IsZero() {
		v.errorf("join.token", "must not be empty")
	} else if j.Token != nil && v.cfg.Role != RoleSingle {
		if err := CheckJoinToken(j.Token.Reveal(), v.cfg.Role); err != nil {
			v.errorf("join.token", "%v", err)
		}
	}
	switch v.cfg.Role {
	case RoleWorker:
		if !has {
			v.errorf("join", "a worker needs join.token or join.tokenFrom to join its cluster")
		}
	case RoleSingle:
		if j.Token != nil {
			v.errorf("join.token", "a single node starts its own cluster and joins none; remove it or choose another role")
		}
		if j.TokenFrom != nil {
			v.errorf("join.tokenFrom", "a single node starts its own cluster and joins none; remove it or choose another role")
		}
	}
}

// joining reports whether the node joins an existing cluster.
func (v *crossCheck) joining() bool {
	return v.cfg.Role == RoleWorker ||
		(v.cfg.Role.IsController() && v.cfg.Role != RoleSingle && (v.cfg.Join.Token != nil || v.cfg.Join.TokenFrom != nil))
}

// node: Kubernetes refuses two taints with the same key and effect, and
// the kubelet labels of the Kubernetes namespaces that are not its own; and
// a controller alone runs no kubelet, so no Node object carries its labels
// or taints (k0s passes --labels and --taints to the kubelet only).
func (v *crossCheck) node() {
	if v.cfg.Role == RoleController {
		for path, set := range map[string]bool{"node.labels": len(v.cfg.Node.Labels) > 0, "node.taints": len(v.cfg.Node.Taints) > 0} {
			if set {
				v.warnf(path, "does nothing on a controller: it runs no kubelet, so there is no Kubernetes node to carry it; use controller+worker, or drop it")
			}
		}
	}
	v.nodeLabels()
	seen := map[[2]string]int{}
	for i, t := range v.cfg.Node.Taints {
		if t.Key == "" || t.Effect == "" {
			continue
		}
		k := [2]string{t.Key, t.Effect}
		if first, dup := seen[k]; dup {
			v.errorf(finding.Path("node.taints").Index(i).String(), "duplicates node.taints[%d] (same key and effect)", first)
			continue
		}
		seen[k] = i
	}
}
