package boot

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/host"
)

// A controller config with keepalived unicast peers; the broken one lacks
// the unicastSourceIP k0s requires with them.
const (
	standInCPLB = `apiVersion: k0s.k0sproject.io/v1beta1
kind: ClusterConfig
spec:
  network:
    controlPlaneLoadBalancing:
      enabled: true
      type: Keepalived
      keepalived:
        vrrpInstances:
          - virtualIPs: [192.0.2.100/24]
            interface: eth0
            authPass: vrrpPW1
            unicastSourceIP: 192.0.2.11
            unicastPeers: [192.0.2.12, 192.0.2.13]
`
	controllerUnit = "/etc/systemd/system/k0scontroller.service"
	controllerWant = "/etc/systemd/system/multi-user.target.wants/k0scontroller.service"
)

// TestBootStandInRefusesLikeK0s runs the k0s stand-in in a node's tree, not
// booted, as an image build step would: what k0s refuses at install exits
// non-zero, says why and leaves no unit; the same install with a good
// config writes and enables the unit (the control); a second install is
// refused without --force and replaces the unit with it; and the unit's
// own command refuses a bad config when it starts.
func TestBootStandInRefusesLikeK0s(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn")
	n := NewNode(t, "standin", nil)
	n.WriteFile("/etc/k0s/good.yaml", []byte(standInCPLB), 0o600)
	n.WriteFile("/etc/k0s/no-source.yaml", []byte(strings.Replace(standInCPLB, "            unicastSourceIP: 192.0.2.11\n", "", 1)), 0o600)

	install := func(args ...string) (string, error) {
		stdout, stderr, err := n.RunOffline(append([]string{"/usr/local/bin/k0s", "install"}, args...)...)
		return stdout + stderr, err
	}
	for _, tc := range []struct {
		name  string
		args  []string
		words []string
	}{
		{"unknown flag", []string{"controller", "--config", "/etc/k0s/good.yaml", "--bogus"}, []string{"--bogus: unknown flag"}},
		{"unicastPeers without unicastSourceIP", []string{"controller", "--config", "/etc/k0s/no-source.yaml"},
			[]string{"invalid node config", "vrrpInstances[0].unicastSourceIP", "unicastPeers require a valid unicastSourceIP"}},
		{"worker with a config", []string{"worker", "--config", "/etc/k0s/good.yaml"}, []string{"--config: unknown flag"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := install(tc.args...)
			t.Logf("k0s install %s:\n%s", strings.Join(tc.args, " "), out)
			if err == nil {
				t.Errorf("k0s install %s: accepted, want refused:\n%s", strings.Join(tc.args, " "), out)
			}
			for _, w := range tc.words {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if !strings.Contains(out, "stand-in, not k0s") {
				t.Errorf("the refusal does not say it is the stand-in's:\n%s", out)
			}
			for _, p := range []string{controllerUnit, controllerWant, "/etc/systemd/system/k0sworker.service"} {
				if n.Exists(p) {
					t.Errorf("a refused install left %s", p)
				}
			}
		})
	}
	if got := n.standIn().Installs(); got != 3 {
		t.Errorf("install.count records %d calls, want every call (3)", got)
	}

	good := []string{"controller", "--config", "/etc/k0s/good.yaml", "--enable-worker"}
	if out, err := install(good...); err != nil || !n.Exists(controllerUnit) || !n.Exists(controllerWant) {
		t.Fatalf("control: k0s install %s: %v, unit %v, enabled %v:\n%s", strings.Join(good, " "), err, n.Exists(controllerUnit), n.Exists(controllerWant), out)
	}
	unit := n.ReadFile(controllerUnit)
	if !strings.Contains(unit, `ExecStart=/usr/local/bin/k0s controller "--config=/etc/k0s/good.yaml" "--enable-worker=true"`) {
		t.Errorf("the unit does not run the service arguments k0s writes:\n%s", unit)
	}
	if out, err := install(good...); err == nil || !strings.Contains(out, "Init already exists") {
		t.Errorf("a second install without --force: %v, want refused as k0s refuses it:\n%s", err, out)
	}
	if out, err := install(append(good, "--force")...); err != nil || !n.Exists(controllerUnit) {
		t.Errorf("a second install with --force: %v:\n%s", err, out)
	}

	stdout, stderr, err := n.RunOffline("/usr/local/bin/k0s", "controller", "--config=/etc/k0s/no-source.yaml")
	if err == nil || !strings.Contains(stderr, "unicastSourceIP") {
		t.Errorf("k0s controller with a config k0s refuses: %v, want refused at start:\n%s%s", err, stdout, stderr)
	}
}
