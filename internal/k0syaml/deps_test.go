package k0syaml_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The codec is a leaf of the pure core, as the wg-quick codec is: the
// standard library, the two YAML libraries, secret.Value and yamltext's
// reading of a quoted scalar and of where a value ends. The schema or the
// k0s tree imported here would make every reader of the file link the
// contract and its validator.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "github.com/corium/corium-agent/internal/k0syaml").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"gopkg.in/yaml.v3": true,
		"sigs.k8s.io/yaml": true,
		"github.com/corium/corium-agent/internal/secret":   true,
		"github.com/corium/corium-agent/internal/yamltext": true,
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if !allowed[imp] && strings.Contains(first, ".") {
			t.Errorf("k0syaml imports %s; it links only the standard library, the two YAML libraries, secret and yamltext", imp)
		}
	}
}
