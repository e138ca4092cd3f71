package vm

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The recipe pair boots the cloud-init recipe of docs/overlay.md as the
// page prints it: each #cloud-config block of its "Without the agent"
// section, with only the placeholders (<w1's private key: ...>) replaced.
// A change to the page changes what boots.

const recipeSection = "## Without the agent: the cloud-init recipe"

// placeholder is the page's <...> for a value the operator fills in.
var placeholder = regexp.MustCompile(`<([^<>\n:]+)(:[^<>\n]*)?>`)

// recipeBlocks is the section's cloud-config blocks by the k0s unit their
// drop-in names (k0scontroller.service, k0sworker.service).
func recipeBlocks(t testing.TB) map[string]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "overlay.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), recipeSection)
	if !ok {
		t.Fatalf("docs/overlay.md has no section %q", recipeSection)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	blocks := map[string]string{}
	for rest := section; ; {
		var block string
		if _, rest, ok = strings.Cut(rest, "```yaml\n"); !ok {
			break
		}
		if block, rest, ok = strings.Cut(rest, "```"); !ok {
			t.Fatal("docs/overlay.md: an unterminated yaml block in the recipe")
		}
		for _, unit := range []string{"k0scontroller.service", "k0sworker.service"} {
			if strings.Contains(block, "/etc/systemd/system/"+unit+".d/") {
				blocks[unit] = block
			}
		}
	}
	if len(blocks) != 2 {
		t.Fatalf("docs/overlay.md's recipe has blocks for %d k0s units, want the controller's and the worker's", len(blocks))
	}
	return blocks
}

// fillRecipe is a block with each placeholder replaced by its value, named
// by the placeholder's text up to its colon ("w1's private key"); a
// placeholder with no value fails the test, so none boots as text.
func fillRecipe(t testing.TB, block string, values map[string]string) string {
	t.Helper()
	return placeholder.ReplaceAllStringFunc(block, func(m string) string {
		name := strings.TrimSpace(placeholder.FindStringSubmatch(m)[1])
		v, ok := values[name]
		if !ok {
			t.Fatalf("docs/overlay.md's recipe has a placeholder %q the test has no value for", name)
		}
		return v
	})
}

// recipeValues are the placeholders' values for the recipe pair.
func recipeValues(c vmCluster) map[string]string {
	return map[string]string{
		"c1's private key": c.c1Key.String(),
		"w1's private key": c.w1Key.String(),
		"c1's public key":  c.c1Key.PublicKey().String(),
		"w1's public key":  c.w1Key.PublicKey().String(),
		"the join token":   c.joinToken,
	}
}

// cloudConfig is the part of a cloud-config the recipe uses.
type cloudConfig struct {
	WriteFiles []struct {
		Path        string `yaml:"path"`
		Permissions string `yaml:"permissions"`
		Content     string `yaml:"content"`
	} `yaml:"write_files"`
	Runcmd [][]string `yaml:"runcmd"`
}

// TestRecipeFromDocs checks, without a VM, what the recipe pair will boot:
// both blocks are there, every placeholder is filled, and each is a
// cloud-config writing the wg-quick file (0600, its key filled in) and the
// k0s drop-in, and installing and starting its k0s unit after enabling
// wg-quick@wg0.
func TestRecipeFromDocs(t *testing.T) {
	c := newCluster(t)
	for unit, block := range recipeBlocks(t) {
		text := fillRecipe(t, block, recipeValues(c))
		if !strings.HasPrefix(text, "#cloud-config\n") || strings.ContainsAny(text, "<>") {
			t.Errorf("%s: the filled recipe is not a cloud-config with every placeholder replaced:\n%s", unit, text)
		}
		var cc cloudConfig
		if err := yaml.Unmarshal([]byte(text), &cc); err != nil {
			t.Fatalf("%s: the recipe is not YAML: %v", unit, err)
		}
		files := map[string]string{}
		for _, f := range cc.WriteFiles {
			files[f.Path] = f.Permissions
			if f.Path == "/etc/wireguard/wg0.conf" && !strings.Contains(f.Content, "PrivateKey = "+map[string]string{
				"k0scontroller.service": c.c1Key.String(), "k0sworker.service": c.w1Key.String()}[unit]+"\n") {
				t.Errorf("%s: wg0.conf does not carry the node's own key", unit)
			}
		}
		if files["/etc/wireguard/wg0.conf"] != "0600" || files["/etc/systemd/system/"+unit+".d/10-wireguard.conf"] == "" {
			t.Errorf("%s: write_files = %v, want wg0.conf 0600 and the k0s drop-in", unit, files)
		}
		var cmds []string
		for _, cmd := range cc.Runcmd {
			cmds = append(cmds, strings.Join(cmd, " "))
		}
		want := []string{"systemctl enable --now wg-quick@wg0.service", "k0s install " + strings.TrimSuffix(strings.TrimPrefix(unit, "k0s"), ".service"), "systemctl start --no-block " + unit}
		if len(cmds) != len(want) {
			t.Fatalf("%s: runcmd = %q, want %d commands", unit, cmds, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(cmds[i], w) {
				t.Errorf("%s: runcmd[%d] = %q, want %q...", unit, i, cmds[i], w)
			}
		}
	}
	// The control: a placeholder the test has no value for fails.
	ft := &fakeTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		fillRecipe(ft, "PrivateKey = <c3's private key: nowhere>\n", recipeValues(c))
	}()
	if !ft.failed {
		t.Error("a placeholder without a value was filled in silently")
	}
}

// fakeTB records a Fatalf instead of ending the test (it panics, and the
// caller recovers).
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
