package image

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/systemd"
)

const imageDir = "../../image"

// unitDir is where the image installs its units: the vendor directory,
// below systemd.UnitDir in the search path, so the agent's drop-ins and an
// administrator's files win.
const unitDir = "usr/lib/systemd/system"

// options are a unit file's settings, by section and name, in order.
type options map[string][]string

func readUnit(t *testing.T, rel string) options {
	t.Helper()
	f, err := os.Open(filepath.Join(imageDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts, err := unit.DeserializeOptions(f)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	out := options{}
	for _, o := range opts {
		out[o.Section+"."+o.Name] = append(out[o.Section+"."+o.Name], o.Value)
	}
	return out
}

// words are the values of key, split at blanks.
func (o options) words(key string) []string {
	var out []string
	for _, v := range o[key] {
		out = append(out, strings.Fields(v)...)
	}
	return out
}

func TestAgentUnit(t *testing.T) {
	u := readUnit(t, path.Join(unitDir, render.AgentUnit))
	// The marker the agent writes last is what keeps its unit from running
	// again: a marker moved on one side only provisions every boot.
	if got, want := u["Unit.ConditionPathExists"], []string{"!" + status.MarkerPath}; !slices.Equal(got, want) {
		t.Errorf("%s ConditionPathExists = %q, want %q (status.MarkerPath)", render.AgentUnit, got, want)
	}
}

func TestFirewallUnit(t *testing.T) {
	u := readUnit(t, path.Join(unitDir, firewall.UnitName))
	if got, want := u["Unit.ConditionPathExists"], []string{firewall.FilePath}; !slices.Equal(got, want) {
		t.Errorf("%s ConditionPathExists = %q, want %q (firewall.FilePath)", firewall.UnitName, got, want)
	}
	if !slices.Contains(u.words("Unit.After"), render.AgentUnit) {
		t.Errorf("%s is not ordered after %s, which renders its file at first boot", firewall.UnitName, render.AgentUnit)
	}
	before := u.words("Unit.Before")
	for _, role := range []schema.Role{schema.RoleController, schema.RoleWorker} {
		if k0s := render.K0sUnit(role); !slices.Contains(before, k0s) {
			t.Errorf("%s is not ordered before %s (render.K0sUnit), the unit its drop-in ties to it", firewall.UnitName, k0s)
		}
	}
}

// The preset enables the units the agent relies on being enabled.
func TestPreset(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(imageDir, "usr/lib/systemd/system-preset/50-corium.preset"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{render.AgentUnit, firewall.UnitName} {
		if !regexp.MustCompile(`(?m)^enable ` + regexp.QuoteMeta(name) + `$`).Match(data) {
			t.Errorf("the preset does not enable %s", name)
		}
		if _, err := os.Stat(filepath.Join(imageDir, unitDir, name)); err != nil {
			t.Errorf("the preset enables %s, which the image does not ship: %v", name, err)
		}
	}
}

// tmpfiles.d makes the agent's directories: its state (status.Dir, where
// the guard's file lives too), the node configuration's directory and the
// status directory; and no other corium directory.
func TestTmpfilesDirectories(t *testing.T) {
	f, err := os.Open(filepath.Join(imageDir, "usr/lib/tmpfiles.d/corium.conf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	modes := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 3 && fields[0] == "d" {
			modes[fields[1]] = fields[2]
		}
	}
	if path.Dir(firewall.FilePath) != status.Dir {
		t.Errorf("the guard's file %s is outside %s, the directory tmpfiles.d makes for the agent's state", firewall.FilePath, status.Dir)
	}
	want := map[string]string{
		status.Dir:                fmt.Sprintf("%04o", firewall.DirMode),
		path.Dir(source.FilePath): "0700",
		path.Dir(status.Path):     "0755",
	}
	for dir, mode := range want {
		if got, ok := modes[dir]; !ok {
			t.Errorf("tmpfiles.d does not make %s", dir)
		} else if got != mode {
			t.Errorf("tmpfiles.d makes %s %s, want %s", dir, got, mode)
		}
	}
	for dir := range modes {
		if _, ok := want[dir]; !ok {
			t.Errorf("tmpfiles.d makes %s, which is none of the agent's directories", dir)
		}
	}
}

// corium's own paths, as the image's units may name them.
var coriumPath = regexp.MustCompile(`/(?:var/lib|etc|run|usr/share)/corium(?:/[^\s;"']*)?`)

// Every corium path a unit of the image names is one the agent owns a
// constant for: a unit that waits for or reads a file the agent no longer
// writes there fails here.
func TestUnitPathsAreTheAgents(t *testing.T) {
	known := []string{status.Dir, status.MarkerPath, status.AppliedPath, status.NodeAddressPath, status.DevicesPath,
		firewall.FilePath, source.FilePath, chain.DefaultPath, status.Path}
	files, err := filepath.Glob(filepath.Join(imageDir, unitDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	dropIns, _ := filepath.Glob(filepath.Join(imageDir, unitDir, "*.d", "*.conf"))
	files = append(files, dropIns...)
	n := 0
	for _, file := range files {
		if st, err := os.Stat(file); err != nil || st.IsDir() {
			continue
		}
		rel, _ := filepath.Rel(imageDir, file)
		for key, values := range readUnit(t, rel) {
			for _, v := range values {
				for _, p := range coriumPath.FindAllString(v, -1) {
					n++
					if !slices.Contains(known, p) {
						t.Errorf("%s %s names %s, which is none of the agent's paths", rel, key, p)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no unit of the image names a corium path: the test reads the wrong files")
	}
}

// The agent's drop-ins go where the image's units do not: systemd.UnitDir is
// the administrator's directory, the image's units the vendor's.
func TestUnitDirectories(t *testing.T) {
	if path.Join("/", unitDir) == systemd.UnitDir {
		t.Fatalf("the image installs its units in %s, where the agent writes its drop-ins and links", systemd.UnitDir)
	}
}
