package hostile

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
)

const (
	corpus = "../../testdata/hostile"
	// inputs is where the test puts what the node is handed (secret files,
	// the bearer token) under a root; those hold secrets by design.
	inputs   = "/run/test-inputs"
	baseline = "00-baseline.yaml"
	facts    = `{"interfaces": [{"name": "eth0", "addresses": ["192.0.2.11/24"]},
 {"name": "wg0", "addresses": ["10.10.0.1/24"]}, {"name": "wg1", "addresses": ["10.20.0.1/24"]}],
 "defaultRoute": {"interface": "eth0", "source": "192.0.2.11"}}`
)

// agent runs the binary the way the node's units do.
type agent struct {
	bin   string
	env   []string
	notes *notifytest.Socket
	out   []string // everything every run printed, each with its command line
	// unresolved is what the commands that read no secret printed, for a
	// document that writes a secret into a public field (see publicTo).
	unresolved []string
	publicTo   []string
}

func (a *agent) run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var buf bytes.Buffer
	code := a.exec(t, &buf, &buf, args...)
	a.record(args, buf.String())
	return code, buf.String()
}

func (a *agent) exec(t *testing.T, stdout, stderr io.Writer, args ...string) int {
	t.Helper()
	cmd := exec.Command(a.bin, args...)
	// A copy: the parallel runs share a.env's array, and an append into
	// its spare room from two of them at once tears the string one reads.
	cmd.Env = append(slices.Clip(a.env), "NOTIFY_SOCKET="+a.notes.Path)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		t.Fatalf("running %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode()
}

// record keeps what a command printed for the search.
func (a *agent) record(args []string, printed string) {
	text := "$ corium-agent " + strings.Join(args, " ") + "\n" + printed
	if slices.Contains(a.publicTo, args[0]) {
		a.unresolved = append(a.unresolved, text)
	} else {
		a.out = append(a.out, text)
	}
}

// cmdline runs the cmdline command. The line it prints carries a document
// by design, base64 encoded, so the search gets the document decoded out
// of it too: whatever cmdline lets onto the line every user of the node
// reads, and a document it accepts holds no secret (an inline one, or
// credentials in a secret's URL, it refuses; a cloud-config's other keys it
// leaves off). A refusal prints no line, and says why on stderr without
// quoting. It returns the exit code.
func (a *agent) cmdline(t *testing.T, args ...string) int {
	t.Helper()
	args = append([]string{"cmdline"}, args...)
	var out, errOut bytes.Buffer
	code := a.exec(t, &out, &errOut, args...)
	printed := out.String() + errOut.String()
	switch {
	case code == 0:
		doc, ok := onTheLine(out.String())
		if !ok {
			t.Errorf("%v printed no corium.config=data: line: %q", args, out.String())
		}
		printed += "\n(the document on the line)\n" + doc
	case out.Len() > 0:
		t.Errorf("%v: exit %d, but a line on stdout", args, code)
	}
	a.record(args, printed)
	return code
}

// onTheLine decodes the document a line cmdline printed carries, its
// --grub quotes undone.
func onTheLine(line string) (string, bool) {
	for _, p := range strings.Fields(line) {
		if b64, ok := strings.CutPrefix(strings.Trim(p, "'"), "corium.config=data:;base64,"); ok {
			doc, err := base64.StdEncoding.DecodeString(b64)
			return string(doc), err == nil
		}
	}
	return "", false
}

// TestHostileDocumentsLeakNoSecret runs every corpus document through every
// command, from a file and inline on the kernel command line, and searches
// all that came out.
func TestHostileDocumentsLeakNoSecret(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "*.yaml"))
	if err != nil || len(files) < 40 {
		t.Fatalf("want at least 40 hostile documents in %s, found %d (%v)", corpus, len(files), err)
	}
	r := newRunSetup(t)
	bin, secrets, srv, factsFile, env, base := r.bin, r.secrets, r.srv, r.factsFile, r.env, r.base

	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			doc := expand(string(raw), secrets, srv.URL)
			dir := t.TempDir()
			config := filepath.Join(dir, "config.yaml")
			write(t, config, doc, 0o600)
			a := &agent{bin: bin, env: env, notes: notifytest.Listen(t), publicTo: publicTo(string(raw))}

			a.run(t, "validate", config)
			a.run(t, "validate", "--format", "json", config)
			a.run(t, "validate", "--for", "cmdline", config)
			code := a.cmdline(t, config)
			if marked(string(raw), "# cmdline: ") == "prints a line" && code != 0 {
				t.Errorf("cmdline: exit %d, want the line", code)
			}
			a.cmdline(t, "--grub", config)

			// A first boot from the file.
			fresh := newRoot(t, secrets)
			a.run(t, "plan", "--root", fresh, "--config", config, "--facts", factsFile)
			a.run(t, "plan", "--root", fresh, "--config", config, "--facts", factsFile, "--format", "json")
			code, out := a.run(t, "apply", "--root", fresh, "--config", config, "--facts", factsFile)
			if name == baseline && code != 0 {
				t.Fatalf("the baseline must provision:\n%s", out)
			}
			a.run(t, "resolve", "--root", fresh, "--config", config)
			a.run(t, "resolve", "--root", fresh, "--config", config, "--format", "json")
			a.run(t, "status", "--root", fresh)
			a.run(t, "status", "--root", fresh, "--format", "json")

			// An again run on a node the baseline provisioned: the old side of
			// every diff holds the real secrets.
			provisioned := newRoot(t, secrets)
			baseFile := filepath.Join(dir, "baseline.yaml")
			write(t, baseFile, base, 0o600)
			if code, out := a.run(t, "apply", "--root", provisioned, "--config", baseFile, "--facts", factsFile); code != 0 {
				t.Fatalf("provisioning with the baseline:\n%s", out)
			}
			a.run(t, "plan", "--again", "--root", provisioned, "--config", config, "--facts", factsFile)
			a.run(t, "plan", "--again", "--root", provisioned, "--config", config, "--facts", factsFile, "--format", "json")
			a.run(t, "apply", "--again", "--root", provisioned, "--config", config, "--facts", factsFile)
			a.run(t, "status", "--root", provisioned)

			// The same document inline on the kernel command line.
			pxe := newRoot(t, secrets)
			write(t, filepath.Join(pxe, "proc/cmdline"), "BOOT_IMAGE=/vmlinuz corium.config=data:;base64,"+base64.StdEncoding.EncodeToString([]byte(doc))+" quiet\n", 0o444)
			a.run(t, "plan", "--root", pxe, "--facts", factsFile)
			a.run(t, "apply", "--root", pxe, "--facts", factsFile)
			a.run(t, "resolve", "--root", pxe, "--format", "json")
			a.run(t, "status", "--root", pxe, "--format", "json")

			all := strings.Join(append(a.out, a.notes.Text()), "\n")
			if found := leaks(all, secrets); len(found) > 0 {
				t.Errorf("the outputs show %v:\n%s", found, all)
			}
			if found := leaks(strings.Join(a.unresolved, "\n"), secrets); len(found) > 1 {
				t.Errorf("the commands that read no secret show more than the one in a public field: %v", found)
			}
			held := map[string]bool{}
			for _, root := range []string{fresh, provisioned, pxe} {
				checkFiles(t, root, secrets, held)
			}
			// A document that says which secrets it makes flow is held
			// to it, so a refusal cannot pass for keeping a secret safe.
			for _, n := range strings.Fields(marked(string(raw), "# holds: ")) {
				if !held[n] {
					t.Errorf("no file holds %s where it belongs: the document did not provision with it", n)
				}
			}
			if name == baseline {
				for n := range secrets {
					if secrets[n].holder != "" && strings.Contains(base, secrets[n].value) && !held[n] {
						t.Errorf("the baseline provisioned, but no file holds %s: the test did not make it flow", n)
					}
				}
			}
		})
	}
}

// publicTo reads a document's "# public to: CMD..." line: the commands that
// read no secret and so cannot know that a public field holds one.
func publicTo(doc string) []string {
	return strings.Fields(marked(doc, "# public to: "))
}

// marked is the rest of a document's line that starts with prefix, "" when
// there is none: what the document says of itself to the test.
func marked(doc, prefix string) string {
	for _, l := range strings.Split(doc, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest
		}
	}
	return ""
}

// newRoot is a root holding what a node is handed before the agent runs.
func newRoot(t *testing.T, s map[string]secret) string {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "etc/machine-id"), "0123456789abcdef0123456789abcdef\n", 0o444)
	write(t, filepath.Join(root, inputs, "pass"), s["FILE_PASS"].value+"\n", 0o600)
	write(t, filepath.Join(root, inputs, "psk"), s["FILE_PSK"].value+"\n", 0o600)
	write(t, filepath.Join(root, inputs, "bearer"), s["BEARER"].value+"\n", 0o600)
	return root
}

// checkFiles fails for every file under root that holds a secret it is not
// for, or holds one without being 0600 in a 0700 directory; held records
// which secrets rest where they should.
func checkFiles(t *testing.T, root string, s map[string]secret, held map[string]bool) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		node := "/" + strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if d.IsDir() || strings.HasPrefix(node, inputs+"/") || node == "/proc/cmdline" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil // a dangling .wants link
		}
		for _, name := range leaks(string(b), s) {
			sec := s[name]
			info, _ := os.Lstat(p)
			dirInfo, _ := os.Stat(filepath.Dir(p))
			switch {
			case !mayHold(node, sec):
				t.Errorf("%s holds %s, which belongs only in %q", node, name, sec.holder)
			case info.Mode().Perm() != 0o600 || dirInfo.Mode().Perm() != 0o700:
				t.Errorf("%s holds %s with mode %04o in a directory of mode %04o", node, name, info.Mode().Perm(), dirInfo.Mode().Perm())
			case strings.Contains(string(b), sec.value):
				held[name] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(fmt.Errorf("writing %s: %w", p, err))
	}
}
