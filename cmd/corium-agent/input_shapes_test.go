package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// shapeDoc is a document every command takes, with no secret to resolve.
const shapeDoc = "role: single\ncluster:\n  name: shapes\nnode:\n  name: s1\n"

// deliveryShapes writes shapeDoc in every shape a node is handed it: as it
// is, a cloud-config (corium: and write_files), the kernel command line
// cmdline prints, the same quoted for GRUB, and a grub.cfg entry holding it.
func deliveryShapes(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	plain := filepath.Join(dir, "node.yaml")
	if err := os.WriteFile(plain, []byte(shapeDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	line := func(args ...string) string {
		code, out, errOut := runCLI(t, append(append([]string{"cmdline"}, args...), plain)...)
		if code != exitOK {
			t.Fatalf("cmdline %v: exit %d\n%s", args, code, errOut)
		}
		return strings.TrimSpace(out)
	}
	indented := "    " + strings.ReplaceAll(strings.TrimSuffix(shapeDoc, "\n"), "\n", "\n    ")
	shapes := map[string]string{
		"node.yaml":      shapeDoc,
		"corium.yaml":    "#cloud-config\nhostname: s1\ncorium:\n  " + strings.ReplaceAll(strings.TrimSuffix(shapeDoc, "\n"), "\n", "\n  ") + "\n",
		"plain.yaml":     "#cloud-config\nwrite_files:\n  - path: /etc/corium/config.yaml\n    permissions: \"0600\"\n    content: |\n  " + strings.ReplaceAll(indented, "\n", "\n  ") + "\n",
		"gzb64.yaml":     "#cloud-config\nwrite_files:\n  - path: /etc/corium/config.yaml\n    permissions: \"0600\"\n    encoding: gz+b64\n    content: " + fixture.GzipBase64(t, []byte(shapeDoc)) + "\n",
		"b64.yaml":       "#cloud-config\nwrite_files:\n  - path: /etc/corium/config.yaml\n    permissions: \"0600\"\n    encoding: b64\n    content: " + base64.StdEncoding.EncodeToString([]byte(shapeDoc)) + "\n",
		"node.cmdline":   "BOOT_IMAGE=/vmlinuz root=/dev/sda1 " + line() + " quiet\n",
		"grub.cmdline":   line("--grub") + "\n",
		"grub.cfg":       "menuentry 'node' {\n  linux /vmlinuz root=/dev/sda1 " + line("--grub") + "\n  initrd /initrd.img\n}\n",
		"user-data":      "#cloud-config\ncorium:\n  role: single\n  cluster:\n    name: shapes\n  node:\n    name: s1\n",
		"not-read.txt":   "not a document",
		".hidden.yaml":   "not a document",
		"sub/other.yaml": "not read either",
	}
	out := map[string]string{}
	for name, text := range shapes {
		p := filepath.Join(dir, "shapes", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	return out
}

// notDocuments are the files of deliveryShapes a directory does not name.
var notDocuments = map[string]bool{"not-read.txt": true, ".hidden.yaml": true, "sub/other.yaml": true}

// Every command reads every shape validate reads: validate, plan, apply,
// resolve and firewall take each file the same way.
func TestEveryCommandReadsEveryShape(t *testing.T) {
	shapes := deliveryShapes(t)
	for name, file := range shapes {
		if notDocuments[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			if code, out, errOut := runCLI(t, "validate", file); code != exitOK {
				t.Errorf("validate: exit %d\n%s%s", code, out, errOut)
			}
			if code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", file); code != exitOK || !strings.Contains(out, "source: "+file) {
				t.Errorf("plan: exit %d\n%s%s", code, out, errOut)
			}
			code, out, errOut := runCLI(t, "resolve", "--root", t.TempDir(), "--config", file)
			if code != exitOK || !strings.Contains(out, "name: shapes") {
				t.Errorf("resolve: exit %d\n%s%s", code, out, errOut)
			}
			if code, out, errOut := runCLI(t, "firewall", "show", "--root", t.TempDir(), "--config", file); code != exitOK {
				t.Errorf("firewall show: exit %d\n%s%s", code, out, errOut)
			}
			root := t.TempDir()
			if code, out, errOut := runCLI(t, "apply", "--root", root, "--config", file); code != exitOK {
				t.Errorf("apply: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

// resolve's provenance says where in the file the document was.
func TestConfigProvenanceSaysWhere(t *testing.T) {
	shapes := deliveryShapes(t)
	for name, want := range map[string]string{
		"gzb64.yaml":   "used (write_files[0].content (gz+b64))",
		"node.cmdline": "used (corium.config (data: URL, ",
		"grub.cfg":     "used (line 2 (GRUB linux) corium.config (GRUB's quotes undone, data: URL, ",
	} {
		code, out, errOut := runCLI(t, "resolve", "--root", t.TempDir(), "--config", shapes[name])
		if code != exitOK || !strings.Contains(out, shapes[name]+": "+want) || strings.Contains(out, "pins sha256") != (name != "gzb64.yaml") {
			t.Errorf("%s: exit %d, want %q\n%s%s", name, code, want, out, errOut)
		}
	}
}

// A directory names the documents in it, sorted; --cluster takes them as
// the nodes of one cluster, and a directory without a document is a usage
// error.
func TestValidateDirectory(t *testing.T) {
	shapes := deliveryShapes(t)
	dir := filepath.Dir(shapes["node.yaml"])
	code, out, errOut := runCLI(t, "validate", dir)
	if code != exitOK {
		t.Fatalf("validate DIR: exit %d\n%s%s", code, out, errOut)
	}
	var read []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if f, ok := strings.CutSuffix(l, ": valid"); ok {
			read = append(read, filepath.Base(f))
		}
	}
	want := "b64.yaml corium.yaml grub.cfg grub.cmdline gzb64.yaml node.cmdline node.yaml plain.yaml user-data"
	if strings.Join(read, " ") != want {
		t.Errorf("validate DIR read %v, want %s\n%s", read, want, out)
	}
	// Nine nodes named s1 are not one cluster: the set is checked.
	if code, out, _ := runCLI(t, "validate", "--cluster", dir); code != exitFailed || !strings.Contains(out, "node.name") {
		t.Errorf("validate --cluster DIR: exit %d\n%s", code, out)
	}
	empty := t.TempDir()
	if code, _, errOut := runCLI(t, "validate", empty); code != exitUsage || !strings.Contains(errOut, "holds no document") {
		t.Errorf("an empty directory: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", dir); code != exitFailed || !strings.Contains(errOut, "is a directory; name the one file") {
		t.Errorf("plan --config DIR: exit %d\n%s%s", code, out, errOut)
	}
}
