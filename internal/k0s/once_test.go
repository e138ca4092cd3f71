package k0s_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/corium/corium-agent"

// computedAt are the only production files that compute a document's
// effective configuration (k0s.Of, or schema.Effective, its bridge from the
// contract), each with why it is the one computation there. Every other
// consumer (render, node address selection, the guard, the cluster check,
// status) takes the value as an argument: their signatures ask for it, so
// one run hands one value along. A new call elsewhere is a second owner of
// the value, and fails here.
var computedAt = map[string]string{
	"internal/schema/k0s.go":            "schema.Effective, the bridge: fills k0s.Input from the contract and calls k0s.Of",
	"internal/schema/validate.go":       "Validate: once per document; Document.K0s hands it to render, the guard, the node address and the cluster check",
	"internal/schema/reference.go":      "the generated reference's port tables: one value per role and CNI, no document",
	"internal/status/report/inspect.go": "status: once per run, for the applied record, which status reads and does not validate",
}

func TestEffectiveComputedOnce(t *testing.T) {
	got := map[string]int{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		n, err := computations(p, path.Dir(rel))
		if err != nil {
			return err
		}
		if n > 0 {
			got[rel] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range slices.Sorted(maps.Keys(got)) {
		if _, ok := computedAt[f]; !ok {
			t.Errorf("%s computes the effective k0s configuration (%d calls of k0s.Of or schema.Effective); take the value the run computed once instead (schema.Document.K0s), or say here why it is the one computation", f, got[f])
		}
	}
	for _, f := range slices.Sorted(maps.Keys(computedAt)) {
		if got[f] == 0 {
			t.Errorf("%s no longer computes the effective configuration; drop it from computedAt", f)
		}
	}
}

// computations counts the calls of k0s.Of and schema.Effective in the file
// at p, in the package at directory dir of the module.
func computations(p, dir string) (int, error) {
	f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
	if err != nil {
		return 0, err
	}
	// The names the file calls them by: imported, or its own package's.
	want := map[string]string{} // package name in the file -> function
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		fn := map[string]string{module + "/internal/k0s": "Of", module + "/internal/schema": "Effective"}[ip]
		if fn == "" {
			continue
		}
		local := path.Base(ip)
		if imp.Name != nil {
			local = imp.Name.Name
		}
		want[local] = fn
	}
	own := map[string]string{"internal/k0s": "Of", "internal/schema": "Effective"}[dir]
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		call, ok := node.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok && want[x.Name] != "" && want[x.Name] == fun.Sel.Name {
				n++
			}
		case *ast.Ident:
			if own != "" && fun.Name == own {
				n++
			}
		}
		return true
	})
	return n, nil
}
