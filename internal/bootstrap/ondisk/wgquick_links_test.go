package ondisk

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// Two forms of the template's [Install] section: wireguard-tools before
// v1.0.20260223, and since (src/systemd/wg-quick@.service).
const (
	wantedByOne = "[Unit]\nDescription=WireGuard via wg-quick(8) for %I\n\n[Service]\nType=oneshot\nExecStart=/usr/bin/wg-quick up %i\n\n[Install]\nWantedBy=multi-user.target\n"
	wantedByTwo = "[Unit]\nDescription=WireGuard via wg-quick(8) for %I\n\n[Service]\nType=oneshot\nExecStart=/usr/bin/wg-quick up %i\n\n[Install]\nWantedBy=multi-user.target wg-quick.target\n"
)

func rootWithTemplate(t *testing.T, dir, template string) rootfs.Root {
	t.Helper()
	root := rootfs.New(t.TempDir())
	if template != "" {
		if _, err := root.WriteFile(dir+"/wg-quick@.service", []byte(template), 0o644, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestWgQuickLinksFromTheTemplate renders the enable links from the
// template found under the root, as `systemctl --root enable` takes them:
// one per WantedBy= target, pointing at the file where it is; a bare root
// keeps the multi-user.target link to the Fedora path; a template that
// cannot be read is an error, not a silent fallback.
func TestWgQuickLinksFromTheTemplate(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	for _, c := range []struct {
		name, dir, template string
		want                []string
	}{
		{"one WantedBy", "/usr/lib/systemd/system", wantedByOne, []string{
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service -> /usr/lib/systemd/system/wg-quick@.service",
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service -> /usr/lib/systemd/system/wg-quick@.service",
		}},
		{"two WantedBy", "/usr/lib/systemd/system", wantedByTwo, []string{
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service -> /usr/lib/systemd/system/wg-quick@.service",
			"/etc/systemd/system/wg-quick.target.wants/wg-quick@wg0.service -> /usr/lib/systemd/system/wg-quick@.service",
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service -> /usr/lib/systemd/system/wg-quick@.service",
			"/etc/systemd/system/wg-quick.target.wants/wg-quick@wg1.service -> /usr/lib/systemd/system/wg-quick@.service",
		}},
		{"a root that does not merge /usr", "/lib/systemd/system", wantedByOne, []string{
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service -> /lib/systemd/system/wg-quick@.service",
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service -> /lib/systemd/system/wg-quick@.service",
		}},
		{"a bare root", "", "", []string{
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service -> /usr/lib/systemd/system/wg-quick@.service",
			"/etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service -> /usr/lib/systemd/system/wg-quick@.service",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			links, err := ReadWgQuickLinks(rootWithTemplate(t, c.dir, c.template), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range unitsStep(t, render.Inputs{Config: cfg, WgQuickLinks: links}).Links {
				got = append(got, l.Path+" -> "+l.Target)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	broken := rootWithTemplate(t, "/usr/lib/systemd/system", "[Service]\nExecStart=/usr/bin/wg-quick up %i\n")
	if _, err := ReadWgQuickLinks(broken, cfg, nil); err == nil || !strings.Contains(err.Error(), "wg-quick@wg0.service") {
		t.Errorf("a template without [Install]: got %v, want an error naming the unit", err)
	}
}

// TestAgainRemovesEveryEnableLink drops wg1 on a node whose template is
// wanted by two targets: both of its links go, wg0's stay.
func TestAgainRemovesEveryEnableLink(t *testing.T) {
	root := rootWithTemplate(t, "/usr/lib/systemd/system", wantedByTwo)
	applied := twoInterfaceConfig(schema.RoleWorker)
	apply := func(cfg *schema.Config, prev *render.Previous) {
		t.Helper()
		links, err := ReadWgQuickLinks(root, cfg, prev)
		if err != nil {
			t.Fatal(err)
		}
		steps := overlaySteps(t, render.Inputs{Config: cfg, Secrets: twoInterfaceSecrets(), Previous: prev, WgQuickLinks: links})
		if _, err := (&apply.Executor{Root: root, Live: &applytest.RecordingLive{}, LiveUnderRoot: true}).Apply(context.Background(), &plan.Plan{Steps: steps}); err != nil {
			t.Fatal(err)
		}
	}
	apply(applied, nil)
	apply(withoutWg1(schema.RoleWorker), ReadPrevious(root, applied))
	for _, target := range []string{"multi-user.target", "wg-quick.target"} {
		dir := "/etc/systemd/system/" + target + ".wants/"
		if root.Exists(dir + "wg-quick@wg1.service") {
			t.Errorf("%swg-quick@wg1.service is still there", dir)
		}
		if !root.Exists(dir + "wg-quick@wg0.service") {
			t.Errorf("%swg-quick@wg0.service went with wg1", dir)
		}
	}
}

// TestWgQuickLinksMatchSystemctl makes the links of both template forms
// with the real `systemctl --root=DIR enable` and with render, and compares
// every symlink each leaves under /etc.
func TestWgQuickLinksMatchSystemctl(t *testing.T) {
	host.RequireRoot(t, "systemctl")
	cfg := twoInterfaceConfig(schema.RoleWorker)
	for name, template := range map[string]string{"one WantedBy": wantedByOne, "two WantedBy": wantedByTwo} {
		t.Run(name, func(t *testing.T) {
			want := rootWithTemplate(t, "/usr/lib/systemd/system", template)
			got := rootWithTemplate(t, "/usr/lib/systemd/system", template)
			for _, wg := range cfg.WireGuard {
				if out, err := exec.Command("systemctl", "--root="+want.Dir(), "enable", plan.WgQuickUnit(wg.Name)).CombinedOutput(); err != nil {
					t.Fatalf("systemctl --root enable: %v\n%s", err, out)
				}
			}
			links, err := ReadWgQuickLinks(got, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			step := unitsStep(t, render.Inputs{Config: cfg, WgQuickLinks: links})
			if _, err := (&apply.Executor{Root: got}).Apply(context.Background(), &plan.Plan{Steps: []plan.Step{{Name: "links", Links: step.Links}}}); err != nil {
				t.Fatal(err)
			}
			w, g := symlinksUnder(t, want.Dir()), symlinksUnder(t, got.Dir())
			if len(w) == 0 || strings.Join(w, "\n") != strings.Join(g, "\n") {
				t.Errorf("links differ\nsystemctl:\n%s\nrender:\n%s", strings.Join(w, "\n"), strings.Join(g, "\n"))
			}
		})
	}
}

// symlinksUnder lists every symlink under root/etc as "path -> target".
func symlinksUnder(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(root, "etc"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		target, err := os.Readlink(p)
		rel, _ := filepath.Rel(root, p)
		out = append(out, "/"+rel+" -> "+target)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// The fixtures below are render's own test fixtures, through its exported
// entry points: render's tests cannot import this package, which imports
// render.
func twoInterfaceConfig(role schema.Role) *schema.Config { return rendertest.TwoInterfaceConfig(role) }

func twoInterfaceSecrets() render.Secrets { return rendertest.TwoInterfaceSecrets() }

func withoutWg1(role schema.Role) *schema.Config {
	cfg := twoInterfaceConfig(role)
	cfg.WireGuard = cfg.WireGuard[:1]
	return cfg
}

func unitsStep(t *testing.T, in render.Inputs) plan.Step {
	t.Helper()
	steps, err := render.RenderUnits(in, false)
	if err != nil {
		t.Fatal(err)
	}
	return steps[0]
}

// overlaySteps are the unit files, their reload and the interfaces (with
// those an again run removes), as Render orders them, with the guard off.
func overlaySteps(t *testing.T, in render.Inputs) []plan.Step {
	t.Helper()
	units, err := render.RenderUnits(in, false)
	if err != nil {
		t.Fatal(err)
	}
	overlay, err := render.RenderOverlay(in)
	if err != nil {
		t.Fatal(err)
	}
	return append(units, overlay...)
}
