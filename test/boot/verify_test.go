package boot

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestBootVerifyUnits runs the rootfs's own systemd-analyze verify (systemd
// 257, as on Fedora 44) on every unit image/ carries. verify exits 0 on an
// unknown or misspelt key and only warns, so any stderr output fails too.
func TestBootVerifyUnits(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn")
	n := NewNode(t, "verify", nil)
	units, err := filepath.Glob(filepath.Join(repoRoot, "image", "usr", "lib", "systemd", "system", "*.service"))
	if err != nil || len(units) < 2 {
		t.Fatalf("units in image/: %v (%v)", units, err)
	}
	for _, u := range units {
		path := "/usr/lib/systemd/system/" + filepath.Base(u)
		t.Run(filepath.Base(u), func(t *testing.T) {
			stderr, err := verify(n, path)
			if err != nil || strings.TrimSpace(stderr) != "" {
				t.Errorf("systemd-analyze verify %s: %v\nstderr:\n%s", path, err, stderr)
			}
		})
	}

	// The units image/ only adds drop-ins to, verified with the drop-ins.
	dropIns, _ := filepath.Glob(filepath.Join(repoRoot, "image", "usr", "lib", "systemd", "system", "*.service.d"))
	if len(dropIns) == 0 {
		t.Fatal("no drop-in directory in image/")
	}
	for _, d := range dropIns {
		name := strings.TrimSuffix(filepath.Base(d), ".d")
		t.Run(name+" with image/'s drop-ins", func(t *testing.T) {
			if !n.Exists("/usr/lib/systemd/system/" + name) {
				t.Fatalf("the rootfs has no %s for image/'s drop-in to extend", name)
			}
			// The distribution's unit names its man page, which a minimal
			// rootfs does not carry; that is not image/'s to check.
			stderr, err := verify(n, "--man=no", name)
			if err != nil || strings.TrimSpace(stderr) != "" {
				t.Errorf("systemd-analyze verify %s: %v\nstderr:\n%s", name, err, stderr)
			}
		})
	}

	// Negative control: the same check catches a misspelt key, which
	// systemd-analyze verify only warns about.
	n.WriteFile("/etc/systemd/system/probe-typo.service",
		[]byte("[Unit]\nDescription=probe\n[Service]\nType=oneshot\nRemainAfterExt=yes\nExecStart=/bin/true\n"), 0o644)
	if stderr, _ := verify(n, "/etc/systemd/system/probe-typo.service"); !strings.Contains(stderr, "RemainAfterExt") {
		t.Errorf("negative control: verify did not report a misspelt key on stderr: %q", stderr)
	}
}

// TestBootPreset checks image/'s preset enables both units under Fedora's
// "disable *" policy, as `systemctl preset-all` does when /etc is reset to the
// image's defaults.
func TestBootPreset(t *testing.T) {
	host.RequireRoot(t, "systemctl")
	n := NewNode(t, "preset", nil)
	// Fedora's policy (Debian's default would enable everything), and a
	// unit the policy should leave off: the control.
	n.WriteFile("/usr/lib/systemd/system-preset/99-default-disable.preset", []byte("disable *\n"), 0o644)
	n.WriteFile("/etc/systemd/system/probe-control.service",
		[]byte("[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n"), 0o644)
	units := []string{"corium-agent.service", "corium-firewall.service"}
	root := "--root=" + n.Root
	host.Run(t, "systemctl", root, "preset", "probe-control.service")
	if out, _ := exec.Command("systemctl", root, "is-enabled", "probe-control.service").Output(); strings.TrimSpace(string(out)) != "disabled" {
		t.Fatalf("control: a unit without a preset entry is %s, want disabled; the check below would prove nothing", out)
	}
	host.Run(t, append([]string{"systemctl", root, "disable"}, units...)...)
	for _, u := range units {
		if out, _ := exec.Command("systemctl", root, "is-enabled", u).Output(); strings.TrimSpace(string(out)) != "disabled" {
			t.Fatalf("%s after disable: %s", u, out)
		}
	}
	host.Run(t, append([]string{"systemctl", root, "preset"}, units...)...)
	for _, u := range units {
		out, _ := exec.Command("systemctl", root, "is-enabled", u).Output()
		if got := strings.TrimSpace(string(out)); got != "enabled" {
			t.Errorf("%s after preset = %s, want enabled", u, got)
		}
	}
}

// verify returns what systemd-analyze verify ARGS wrote on its stderr, apart
// from nspawn's own messages.
func verify(n *Node, args ...string) (string, error) {
	stderr, _, err := n.RunOffline(append([]string{"sh", "-c", `systemd-analyze verify "$@" 2>&1 >/dev/null`, "sh"}, args...)...)
	return stderr, err
}

// TestBootSysctl applies image/'s sysctl.d file with systemd-sysctl in a
// throwaway network namespace (forwarding is per namespace) and reads the
// values back from the kernel.
func TestBootSysctl(t *testing.T) {
	host.RequireRoot(t, "ip")
	bin := "/usr/lib/systemd/systemd-sysctl"
	if _, err := os.Stat(bin); err != nil {
		bin = "/lib/systemd/systemd-sysctl"
	}
	files, _ := filepath.Glob(filepath.Join(repoRoot, "image", "usr", "lib", "sysctl.d", "*.conf"))
	if len(files) == 0 {
		t.Fatal("no sysctl.d file in image/")
	}
	ns := netns.New(t, "cb-sysctl")
	for _, f := range files {
		out, err := ns.Try(bin, f)
		if err != nil || len(out) != 0 {
			t.Errorf("%s %s: %v\n%s", bin, f, err, out)
		}
	}
	for _, key := range []string{"net/ipv4/ip_forward", "net/ipv6/conf/all/forwarding"} {
		if v := strings.TrimSpace(ns.Run(t, "cat", "/proc/sys/"+key)); v != "1" {
			t.Errorf("%s = %s after applying image/'s sysctl.d, want 1", key, v)
		}
	}
}
