package offline

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/host"
)

const wgQuickTemplate = `[Unit]
Description=WireGuard via wg-quick(8) for %I
After=network-online.target nss-lookup.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/bin/wg-quick up %i

[Install]
WantedBy=multi-user.target
`

// wgQuickTemplateTarget is the template's [Install] since wireguard-tools
// v1.0.20260223 (commit "wg-quick@.service: add deps on wg-quick.target").
var wgQuickTemplateTarget = strings.Replace(wgQuickTemplate, "WantedBy=multi-user.target", "WantedBy=multi-user.target wg-quick.target", 1)

const multiInstall = `[Unit]
Description=stand-in with every kind of install link

[Service]
ExecStart=/bin/true

[Install]
WantedBy=multi-user.target
WantedBy=network-online.target
RequiredBy=k0scontroller.service
Alias=corium-standin-alias.service
`

// TestEnableOfflineMatchesSystemctl enables the same units with the real
// `systemctl --root=DIR enable` and with EnableOffline, in roots laid out as
// Fedora (/usr/lib) and as a root that does not merge /usr (/lib), and
// compares the symlinks each leaves behind.
func TestEnableOfflineMatchesSystemctl(t *testing.T) {
	host.RequireRoot(t, "systemctl")
	cases := []struct {
		name, dir, file, content, unit string
	}{
		{"fedora template instance", "/usr/lib/systemd/system", "wg-quick@.service", wgQuickTemplate, "wg-quick@wg0.service"},
		{"split-usr template instance", "/lib/systemd/system", "wg-quick@.service", wgQuickTemplate, "wg-quick@wg1.service"},
		{"template wanted by two targets", "/usr/lib/systemd/system", "wg-quick@.service", wgQuickTemplateTarget, "wg-quick@wg0.service"},
		{"wants, requires and alias", "/usr/lib/systemd/system", "corium-standin.service", multiInstall, "corium-standin.service"},
		{"unit in /etc", "/etc/systemd/system", "corium-standin.service", multiInstall, "corium-standin.service"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, got := t.TempDir(), t.TempDir()
			for _, dir := range []string{want, got} {
				writeUnit(t, dir, c.dir, c.file, c.content)
			}
			if out, err := exec.Command("systemctl", "--root="+want, "enable", c.unit).CombinedOutput(); err != nil {
				t.Fatalf("systemctl --root enable %s: %v\n%s", c.unit, err, out)
			}
			changed, err := EnableOffline(rootfs.New(got), c.unit)
			if err != nil {
				t.Fatal(err)
			}
			if !changed {
				t.Error("first enable reported no change")
			}
			w, g := symlinks(t, want), symlinks(t, got)
			if len(w) == 0 {
				t.Fatal("systemctl made no links; the comparison would prove nothing")
			}
			if !reflect.DeepEqual(w, g) {
				t.Errorf("links differ\nsystemctl:     %v\nEnableOffline: %v", w, g)
			}
			changed, err = EnableOffline(rootfs.New(got), c.unit)
			if err != nil || changed {
				t.Errorf("second enable: changed=%v err=%v, want no change", changed, err)
			}
		})
	}
}

func TestEnableOfflineMissingUnit(t *testing.T) {
	_, err := EnableOffline(rootfs.New(t.TempDir()), "wg-quick@wg0.service")
	if err == nil || !strings.Contains(err.Error(), "wg-quick@wg0.service") || !strings.Contains(err.Error(), "no unit file") {
		t.Fatalf("got %v, want an error naming wg-quick@wg0.service and saying there is no unit file", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing unit file is not fs.ErrNotExist, so a caller cannot tell it from a broken one: %v", err)
	}
	root := t.TempDir()
	writeUnit(t, root, "/usr/lib/systemd/system", "wg-quick@.service", "[Install\nWantedBy=multi-user.target\n")
	if _, err := OfflineLinks(rootfs.New(root), "wg-quick@wg0.service"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a broken unit file: got %v, want an error that is not fs.ErrNotExist", err)
	}
}

func TestEnableOfflineNoInstallSection(t *testing.T) {
	root := t.TempDir()
	writeUnit(t, root, "/usr/lib/systemd/system", "static.service", "[Service]\nExecStart=/bin/true\n")
	_, err := EnableOffline(rootfs.New(root), "static.service")
	if err == nil || !strings.Contains(err.Error(), "no [Install] section") {
		t.Fatalf("got %v, want an error about the missing [Install] section", err)
	}
}

func writeUnit(t *testing.T, root, dir, file, content string) {
	t.Helper()
	p := filepath.Join(root, dir, file)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// symlinks lists every symlink under root/etc as "path -> target".
func symlinks(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "etc"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			out = append(out, "/"+rel+" -> "+target)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}
