package secret_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// marker is secret.Redacted, spelt here so the scan below has a
// literal to look for that is not itself production code.
const marker = "[" + "redacted]"

// One package writes the marker: secret, whose Value prints as it and
// whose Text masks with it. Any other production file of the module
// that spells "[redacted]" in a string or names secret.Redacted writes
// it on its own, which is how four text maskers grew apart: it must ask
// secret (RedactedIn, Text, Whole, MaskValues, RedactURL) instead.
// Comments are not code and may name the marker.
func TestOnePackageWritesTheMarker(t *testing.T) {
	root := moduleRoot(t)
	const owner = "internal/secret"
	var strays []string
	ownerSeen := false
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, use := range markerUses(t, path) {
			if filepath.ToSlash(filepath.Dir(rel)) == owner {
				ownerSeen = true
				continue
			}
			strays = append(strays, rel+":"+use)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !ownerSeen {
		t.Fatalf("the scan found no use of the marker in %s, its owner: the scan is broken", owner)
	}
	for _, s := range strays {
		t.Errorf("%s writes the marker outside %s; ask secret to mask instead", s, owner)
	}
}

// markerUses are the places in the file at path that write the marker: a
// string literal holding it, or a selector naming secret.Redacted
// through the file's import of the secret package.
func markerUses(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parsing %s: %v", path, err)
	}
	secretName := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); strings.HasSuffix(p, "/internal/secret") {
			secretName = "secret"
			if imp.Name != nil {
				secretName = imp.Name.Name
			}
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && strings.Contains(s, marker) {
				out = append(out, strconv.Itoa(fset.Position(n.Pos()).Line)+": the literal "+n.Value)
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && secretName != "" && x.Name == secretName && n.Sel.Name == "Redacted" {
				out = append(out, strconv.Itoa(fset.Position(n.Pos()).Line)+": "+x.Name+".Redacted")
			}
		case *ast.Ident:
			// Inside the owner the constant is named bare.
			if n.Name == "Redacted" && f.Name.Name == "secret" {
				out = append(out, strconv.Itoa(fset.Position(n.Pos()).Line)+": Redacted")
			}
		}
		return true
	})
	return out
}

// moduleRoot is the directory of the module's go.mod, above the test's.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
