package hostile

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
)

// TestPatchSecretsLeakNowhere puts a helm repository's password into
// k0s.patch, spelled every way testdata/patch holds, and delivers each
// document every way a node or a workstation takes one: a file named on
// the command line, the node's own file, a cloud-config from cloud-init,
// and a directory validate reads. Every command's output, every sd_notify
// line and every file written (the applied record among them) is searched
// for the password; it may rest only in the 0600 k0s.yaml it is for, and
// it must rest there, or the test did not make it flow.
func TestPatchSecretsLeakNowhere(t *testing.T) {
	eachPatchDoc(t, "testdata/patch", 3, func(t *testing.T, r runSetup, a *agent, p patchRun) {
		dir, config := p.dir, p.config

		// A workstation's checks, of the file and of the directory.
		a.run(t, "validate", config)
		a.run(t, "validate", "--format", "json", dir)

		held := map[string]bool{}
		for _, shape := range p.shapes() {
			root := newRoot(t, r.secrets)
			given := shape.flags
			if shape.file != "" {
				write(t, filepath.Join(root, shape.file), shape.text, 0o600)
			}
			with := func(args ...string) []string { return append(append(args, "--root", root), given...) }
			a.run(t, with("plan", "--facts", r.factsFile)...)
			a.run(t, with("plan", "--facts", r.factsFile, "--format", "json")...)
			if code, out := a.run(t, with("apply", "--facts", r.factsFile)...); code != 0 {
				t.Fatalf("%s: the document must provision:\n%s", shape.name, out)
			}
			a.run(t, with("resolve")...)
			a.run(t, with("resolve", "--format", "json")...)
			a.run(t, "status", "--root", root)
			a.run(t, "status", "--root", root, "--format", "json")
			a.run(t, with("plan", "--again", "--facts", r.factsFile)...)
			a.run(t, with("apply", "--again", "--facts", r.factsFile)...)
			if shape.file != "" {
				// What the node was handed holds the secrets by design.
				if err := os.Remove(filepath.Join(root, shape.file)); err != nil {
					t.Fatal(err)
				}
			}
			checkFiles(t, root, r.secrets, held)
		}
		all := strings.Join(append(a.out, a.notes.Text()), "\n")
		if found := leaks(all, r.secrets); len(found) > 0 {
			t.Errorf("the outputs show %v:\n%s", found, all)
		}
		if !held["HELM_PASS"] {
			t.Error("no k0s.yaml holds the password: the test did not make it flow")
		}
	})
}

// indent puts a document under a cloud-config's corium: key.
func indent(doc string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRespelledPatchSecretsRefusedUnshown: a helm repository's password
// under a key k0s reads as password only by folding its case (alone, or
// beside the key's own spelling) is refused by every command and every
// delivery, at the key, and no output shows the password while refusing it;
// nothing is written for the node.
func TestRespelledPatchSecretsRefusedUnshown(t *testing.T) {
	eachPatchDoc(t, "testdata/patch-refused", 2, func(t *testing.T, r runSetup, a *agent, p patchRun) {
		dir, config := p.dir, p.config
		refused := func(args ...string) {
			t.Helper()
			code, out := a.run(t, args...)
			if code == 0 || !strings.Contains(out, "repositories") || !strings.Contains(out, "spell it password") {
				t.Errorf("%s: exit %d, want a refusal naming the respelled key:\n%s", args[0], code, out)
			}
		}
		refused("validate", config)
		refused("validate", "--format", "json", dir)
		for _, shape := range p.shapes() {
			root := newRoot(t, r.secrets)
			if shape.file != "" {
				write(t, filepath.Join(root, shape.file), shape.text, 0o600)
			}
			with := func(args ...string) []string { return append(append(args, "--root", root), shape.flags...) }
			refused(with("plan", "--facts", r.factsFile)...)
			refused(with("apply", "--facts", r.factsFile)...)
			if _, err := os.Stat(filepath.Join(root, "etc/k0s/k0s.yaml")); err == nil {
				t.Errorf("%s: a refused document wrote k0s.yaml", shape.name)
			}
			if shape.file != "" {
				if err := os.Remove(filepath.Join(root, shape.file)); err != nil {
					t.Fatal(err)
				}
			}
			checkFiles(t, root, r.secrets, map[string]bool{})
		}
		all := strings.Join(append(a.out, a.notes.Text()), "\n")
		if found := leaks(all, r.secrets); len(found) > 0 {
			t.Errorf("the outputs show %v:\n%s", found, all)
		}
	})
}

// patchRun is a patch document of testdata over the run's base, written
// as a file and as a cloud-config beside it in dir.
type patchRun struct{ dir, config, doc, cloudConfig string }

func newPatchRun(t *testing.T, r runSetup, file string) (*agent, patchRun) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := patchRun{dir: t.TempDir()}
	p.doc = strings.TrimRight(r.base, "\n") + "\n" + expand(string(raw), r.secrets, r.srv.URL)
	p.config = filepath.Join(p.dir, "config.yaml")
	write(t, p.config, p.doc, 0o600)
	p.cloudConfig = "#cloud-config\ncorium:\n" + indent(p.doc)
	write(t, filepath.Join(p.dir, "user-data"), p.cloudConfig, 0o600)
	return &agent{bin: r.bin, env: r.env, notes: notifytest.Listen(t)}, p
}

// eachPatchDoc runs check on each patch document of dir (at least least of
// them), in parallel, each with a run of the agent and the document
// written both ways, over one setup whose HELM_PASS is the password.
func eachPatchDoc(t *testing.T, dir string, least int, check func(*testing.T, runSetup, *agent, patchRun)) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) < least {
		t.Fatalf("want the patch documents in %s, found %d (%v)", dir, len(files), err)
	}
	r := newRunSetup(t)
	r.secrets["HELM_PASS"] = secret{"H" + rand.Text(), k0sHolder}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			t.Parallel()
			a, p := newPatchRun(t, r, file)
			check(t, r, a, p)
		})
	}
}

// deliveryShape is a way a node is handed the document.
type deliveryShape struct {
	name  string
	flags []string // what hands the document over, if not the file
	file  string   // where under the root the node is handed it
	text  string
}

// shapes are the ways a node is handed p's document: named with
// --config, as the node's own file, as cloud-init's cloud-config.
func (p patchRun) shapes() []deliveryShape {
	return []deliveryShape{
		{"--config", []string{"--config", p.config}, "", ""},
		{"the node's file", nil, "etc/corium/config.yaml", p.doc},
		{"cloud-init", nil, "var/lib/cloud/instance/cloud-config.txt", p.cloudConfig},
	}
}
