package examples

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// trixie is a throwaway copy of the boot tests' Debian trixie rootfs with
// cloud-init 25 installed (the generation Fedora 44 ships, with a closed
// top-level schema), as an overlay over the cached layers of
// scripts/rootfs.sh. Commands run in it with systemd-nspawn, not booted.
type trixie struct {
	t       *testing.T
	root    string // the merged tree
	machine string
}

func newTrixie(t *testing.T) *trixie {
	t.Helper()
	host.RequireRoot(t, "systemd-nspawn", "debootstrap", "mount")
	base := strings.TrimSpace(host.Run(t, "bash", filepath.Join(repo, "scripts", "rootfs.sh")))
	layer := strings.TrimSpace(host.Run(t, "bash", filepath.Join(repo, "scripts", "rootfs.sh"), "cloud-init"))
	base, layer = lastLine(base), lastLine(layer)
	dir := t.TempDir()
	for _, d := range []string{"upper", "work", "merged"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tx := &trixie{t: t, root: filepath.Join(dir, "merged"), machine: "corium-ex-" + filepath.Base(dir)}
	if len(tx.machine) > 64 {
		tx.machine = tx.machine[:64]
	}
	opts := fmt.Sprintf("lowerdir=%s:%s,upperdir=%s,workdir=%s", layer, base, filepath.Join(dir, "upper"), filepath.Join(dir, "work"))
	if err := syscall.Mount("overlay", tx.root, "overlay", 0, opts); err != nil {
		t.Fatalf("mounting the trixie overlay: %v", err)
	}
	t.Cleanup(func() {
		for i := 0; i < 50; i++ {
			if err := syscall.Unmount(tx.root, 0); err == nil || errors.Is(err, syscall.EINVAL) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		_ = os.RemoveAll(filepath.Join("/run/systemd/nspawn/propagate", tx.machine))
	})
	return tx
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// exec runs a command inside the tree and returns its output and exit code.
func (tx *trixie) exec(args ...string) (string, int) {
	tx.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "systemd-nspawn", append([]string{"-D", tx.root, "--machine", tx.machine,
		"--register=no", "--keep-unit", "--pipe", "--quiet", "--private-network"}, args...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			tx.t.Fatalf("systemd-nspawn %s: %v", strings.Join(args, " "), err)
		}
	}
	// nspawn's own complaint about its propagation directory is not the command's.
	var kept []string
	for _, l := range strings.Split(out.String(), "\n") {
		if !strings.Contains(l, "Attempted to remove disk file system") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n"), cmd.ProcessState.ExitCode()
}

func (tx *trixie) write(p string, data []byte, mode os.FileMode) {
	tx.t.Helper()
	full := filepath.Join(tx.root, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		tx.t.Fatal(err)
	}
	if err := os.WriteFile(full, data, mode); err != nil {
		tx.t.Fatal(err)
	}
}

// TestCloudConfigsPassCloudInit25Schema is the schema check above with the
// cloud-init a Fedora 44 node runs: there the embedded form is named for its
// corium: key, and for nothing else.
func TestCloudConfigsPassCloudInit25Schema(t *testing.T) {
	tx := newTrixie(t)
	if out, _ := tx.exec("cloud-init", "--version"); !strings.Contains(out, " 25.") {
		t.Fatalf("the cloud-init layer is not cloud-init 25: %s", out)
	}
	for _, rel := range cloudConfigs(t) {
		data := readRepo(t, rel)
		in := "/root/" + filepath.Base(rel)
		tx.write(in, data, 0o600)
		out, code := tx.exec("cloud-init", "schema", "-c", in)
		_, hasCorium := withoutCorium(t, data)
		switch {
		case code == 0:
		case hasCorium && onlyUnknownCorium(out):
			t.Logf("%s: cloud-init 25 names the corium: key, as the README says", rel)
		default:
			t.Errorf("%s: cloud-init 25 schema: exit %d\n%s", rel, code, out)
		}
		if strings.Contains(rel, "write-files") && code != 0 {
			t.Errorf("%s: the write_files form must pass cloud-init's schema without a word", rel)
		}
	}
}

// TestCloudInit25DeliversBothForms runs cloud-init's first stages on each
// cloud-init example from a NoCloud seed, with the image's cloud.cfg.d, then
// the agent's resolve in the tree cloud-init left: the corium: form is
// found in cloud-config.txt (with cloud-init's schema warning, as documented),
// the write_files form as /etc/corium/config.yaml of mode 0600 (without one);
// both carry the example's configuration.
func TestCloudInit25DeliversBothForms(t *testing.T) {
	want := load(t, readRepo(t, "examples/single-cloud-init/user-data.yaml"))
	for _, c := range []struct {
		rel        string
		source     string
		schemaWarn bool
	}{
		{"examples/single-cloud-init/user-data.yaml", chain.NameCloudInit, true},
		{"examples/single-cloud-init/user-data-write-files.yaml", chain.NameFile, false},
	} {
		t.Run(filepath.Base(c.rel), func(t *testing.T) {
			tx := newTrixie(t)
			cfg, err := os.ReadFile(filepath.Join(repo, "image/etc/cloud/cloud.cfg.d/05-corium.cfg"))
			if err != nil {
				t.Fatal(err)
			}
			tx.write("/etc/cloud/cloud.cfg.d/05-corium.cfg", cfg, 0o644)
			tx.write("/var/lib/cloud/seed/nocloud/meta-data", []byte("instance-id: corium-example\nlocal-hostname: fedora\n"), 0o644)
			tx.write("/var/lib/cloud/seed/nocloud/user-data", readRepo(t, c.rel), 0o600)
			for _, stage := range [][]string{{"cloud-init", "init", "--local"}, {"cloud-init", "init"}} {
				if out, code := tx.exec(stage...); code != 0 {
					t.Fatalf("%s: exit %d\n%s", strings.Join(stage, " "), code, out)
				}
			}
			log, _ := os.ReadFile(filepath.Join(tx.root, "var/log/cloud-init.log"))
			if warned := bytes.Contains(log, []byte("cloud-config failed schema validation")); warned != c.schemaWarn {
				t.Errorf("cloud-init's schema warning in its log: %v, want %v", warned, c.schemaWarn)
			}

			// The agent inside the tree, where cloud-init's absolute
			// instance symlink resolves as on a node.
			agentBin, err := os.ReadFile(agent)
			if err != nil {
				t.Fatal(err)
			}
			tx.write("/usr/local/bin/corium-agent", agentBin, 0o755)
			out, code := tx.exec("/usr/local/bin/corium-agent", "resolve", "--format", "json")
			var got struct {
				Source string          `json:"source"`
				Config json.RawMessage `json:"config"`
			}
			if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
				t.Fatalf("corium-agent resolve in the tree cloud-init left: exit %d, %v\n%s", code, err, out)
			}
			if got.Source != c.source {
				t.Fatalf("source %q, want %q:\n%s", got.Source, c.source, out)
			}
			if !sameJSON(t, got.Config, want) {
				t.Errorf("cloud-init delivered another configuration:\n%s", got.Config)
			}
			if c.source == chain.NameFile {
				info, err := os.Stat(filepath.Join(tx.root, source.FilePath))
				if err != nil || info.Mode().Perm() != 0o600 {
					t.Errorf("%s written by cloud-init: %v, mode %v; want 0600", source.FilePath, err, info)
				}
			}
		})
	}
}

// sameJSON says whether the JSON document holds the configuration.
func sameJSON(t *testing.T, doc json.RawMessage, cfg *schema.Config) bool {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var a, w any
	if err := json.Unmarshal(doc, &a); err != nil {
		return false
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(a, w)
}
