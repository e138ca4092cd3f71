package deptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Drivers are the imports that reach outside the process: the network (and
// TLS, which only a network client needs), other programs, the kernel's
// netlink, nftables and WireGuard devices (wgctrl's client, reached through
// its internal packages: its key type, wgtypes, is a leaf any package may
// link), the system bus. A package that promises to be pure links none of
// them; driverReasons says why for each.
var Drivers = slices.Sorted(maps.Keys(driverReasons))

// Without returns list without the imports named in drop, for a package
// whose promise allows one driver (a resolver that fetches over https).
func Without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
}

// Forbid fails t when pkg (an import path or a relative directory such as
// ".") links any of forbidden, directly or through another package. A
// forbidden entry matches the package itself and every package beneath it.
func Forbid(t testing.TB, pkg string, forbidden ...string) {
	t.Helper()
	deps, err := list(pkg)
	if err != nil {
		t.Fatalf("listing the dependencies of %s: %v", pkg, err)
	}
	all := Violations(deps, forbidden)
	// A forbidden package reached only through another forbidden one says
	// nothing new: name the ways in.
	shown := slices.DeleteFunc(slices.Clone(all), func(v Violation) bool { return len(v.ImportedBy) == 0 })
	if len(shown) == 0 {
		shown = all
	}
	for _, bad := range shown {
		t.Errorf("%s links %s (imported by %s); it promises not to", pkg, bad.Path, strings.Join(bad.ImportedBy, ", "))
	}
}

// Package is one package of a dependency listing.
type Package struct {
	ImportPath string
	Imports    []string
	// Deps is every package it links, directly or not.
	Deps     []string
	Standard bool
	// DepOnly marks a package listed only as a dependency of those asked
	// for.
	DepOnly bool
}

// Violation is one forbidden package and the packages of the listing that
// import it.
type Violation struct {
	Path       string
	ImportedBy []string
}

// Violations returns the forbidden packages of deps, in the listing's order.
func Violations(deps []Package, forbidden []string) []Violation {
	var out []Violation
	for _, d := range deps {
		if !matches(d.ImportPath, forbidden) {
			continue
		}
		v := Violation{Path: d.ImportPath}
		for _, by := range deps {
			if slices.Contains(by.Imports, d.ImportPath) && !matches(by.ImportPath, forbidden) {
				v.ImportedBy = append(v.ImportedBy, by.ImportPath)
			}
		}
		out = append(out, v)
	}
	return out
}

func matches(path string, forbidden []string) bool {
	for _, f := range forbidden {
		if path == f || strings.HasPrefix(path, f+"/") {
			return true
		}
	}
	return false
}

// ListAll lists the packages patterns match and every package they link,
// by import path, in one run of the go tool.
func ListAll(patterns ...string) (map[string]Package, error) {
	deps, err := list(patterns...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Package, len(deps))
	for _, p := range deps {
		out[p.ImportPath] = p
	}
	return out, nil
}

// Module is the path of the module the go tool runs in.
func Module() (string, error) {
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func list(patterns ...string) ([]Package, error) {
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json=ImportPath,Imports,Deps,Standard,DepOnly"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.Join(err, errors.New(strings.TrimSpace(stderr.String())))
	}
	var deps []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p Package
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return deps, nil
		} else if err != nil {
			return nil, err
		}
		deps = append(deps, p)
	}
}
