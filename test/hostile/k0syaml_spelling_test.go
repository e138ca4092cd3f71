package hostile

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
)

// kineDocument is the corpus document on kine, whose k0s.yaml holds both
// of the agent's own secrets: the VRRP password and kine's datasource.
const kineDocument = "71-kine-datasource-from-a-url.yaml"

// TestExistingK0sYAMLSpellingsLeakNoSecret provisions a controller on
// kine with ha, then puts in its k0s.yaml, for each of the file's secrets,
// a value found nowhere else (a password rotated out, say) under the key
// spelled each way k0s reads it: k0s decodes the file with
// sigs.k8s.io/yaml, YAML turned into JSON for encoding/json, which
// matches a key in any case, Unicode's simple folding included
// (k0s v1.36.3+k0s.0 clusterconfig_types.go:313, internal/pkg/strictyaml;
// encoding/json: "preferring an exact match but also accepting a
// case-insensitive match"), and YAML lets the key be quoted. plan, plan
// --full and plan --format json, first boot and --again, and apply
// --again must show the old value in no form, and the --full plan shows
// the key's line redacted.
func TestExistingK0sYAMLSpellingsLeakNoSecret(t *testing.T) {
	r := newRunSetup(t)
	template, err := os.ReadFile(filepath.Join(corpus, kineDocument))
	if err != nil {
		t.Fatal(err)
	}
	docFile := filepath.Join(r.work, "kine.yaml")
	write(t, docFile, expand(string(template), r.secrets, r.srv.URL), 0o600)
	spellings := map[string]func(key string) string{
		"canonical":        func(k string) string { return k },
		"lower case":       strings.ToLower,
		"upper case":       strings.ToUpper,
		"long s for s":     func(k string) string { return strings.ReplaceAll(k, "s", "ſ") },
		"quoted":           func(k string) string { return `"` + k + `"` },
		"mixed, quoted to": func(k string) string { return `'` + strings.ToUpper(k[:1]) + k[1:] + `'` },
	}
	for _, sec := range []struct {
		key, value, old string
	}{
		{"authPass", r.secrets["FILE_PASS"].value, "Q" + strings.ToLower(rand.Text()[:4]) + "%" + rand.Text()[:1] + "3"},
		{"dataSource", r.secrets["URL_DSN"].value, "postgres://k0s:" + rand.Text()[:12] + "@" + strings.ToLower(rand.Text()[:8]) + ".olddb:5432/k0s"},
	} {
		for name, spell := range spellings {
			t.Run(sec.key+"/"+name, func(t *testing.T) {
				a := &agent{bin: r.bin, env: r.env, notes: notifytest.Listen(t)}
				root := newRoot(t, r.secrets)
				if code, out := a.run(t, "apply", "--root", root, "--config", docFile, "--facts", r.factsFile); code != 0 {
					t.Fatalf("provisioning:\n%s", out)
				}
				confPath := filepath.Join(root, "etc/k0s/k0s.yaml")
				data, err := os.ReadFile(confPath)
				if err != nil {
					t.Fatal(err)
				}
				line := sec.key + ": " + sec.value
				if strings.Count(string(data), line) != 1 {
					t.Fatalf("k0s.yaml has not one line %q, so the respelling below is not of it:\n%s", sec.key, data)
				}
				spelled := spell(sec.key)
				// The comment under it is a change the plan shows, so the
				// secret's line is in view even when its key is not
				// respelled.
				write(t, confPath, strings.Replace(string(data), line, spelled+": "+sec.old+"\n# rotated", 1), 0o600)

				var plans []string
				for _, again := range [][]string{nil, {"--again"}} {
					for _, format := range [][]string{nil, {"--full"}, {"--format", "json"}} {
						args := append(append([]string{"plan", "--root", root, "--config", docFile, "--facts", r.factsFile}, again...), format...)
						_, out := a.run(t, args...)
						plans = append(plans, out)
					}
				}
				_, applied := a.run(t, "apply", "--again", "--root", root, "--config", docFile, "--facts", r.factsFile)
				a.run(t, "status", "--root", root, "--format", "json")
				for _, out := range append(plans, applied) {
					if !strings.Contains(out, "/etc/k0s/k0s.yaml") {
						t.Errorf("the output does not show k0s.yaml, so the search below is not of it:\n%s", out)
					}
				}
				// The --full plans diff the file on disk: the old line is
				// there, redacted as it is spelled.
				for _, full := range []string{plans[1], plans[4]} {
					if !strings.Contains(full, " "+spelled+": [redacted]\n") || !strings.Contains(full, "- # rotated\n") {
						t.Errorf("plan --full does not show the old line redacted as %q:\n%s", spelled, full)
					}
				}
				all := strings.Join(append(a.out, a.notes.Text()), "\n")
				if found := leaks(all, map[string]secret{"the old " + sec.key: {value: sec.old}}); len(found) > 0 {
					t.Errorf("the outputs show %v:\n%s", found, all)
				}
				if found := leaks(all, r.secrets); len(found) > 0 {
					t.Errorf("the outputs show %v:\n%s", found, all)
				}
			})
		}
	}
}
