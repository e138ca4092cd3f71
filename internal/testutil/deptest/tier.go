package deptest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Tier is a rung of the agent's layering: what a package placed on it may not
// import and may not link, each with the reason, as tailscale's
// tstest/deptest BadDeps gives one.
type Tier struct {
	Name string
	// BadImports are refused as the package's own imports only (go list's
	// Imports), for what the standard library links anyway: fmt imports os,
	// and what a pure package may not do is open a file itself.
	BadImports map[string]string
	// BadDeps are refused anywhere in what the package links (go list's
	// Deps), whichever package brings them in.
	BadDeps map[string]string
}

// Placement is a package's tier and what it promises beyond it.
type Placement struct {
	Tier *Tier
	// Also are further BadDeps, for a package whose doc.go promises more
	// than its tier (the plan links no schema; a resolver links TLS only).
	Also map[string]string
}

// Problem is one rule of a placement a package breaks.
type Problem struct {
	Package string
	Tier    string
	// Path is the refused package.
	Path string
	// Direct says the package imports Path itself; otherwise ImportedBy
	// names the packages of its dependencies that bring Path in.
	Direct     bool
	ImportedBy []string
	Reason     string
}

func (p Problem) String() string {
	how := "imports " + p.Path
	if !p.Direct {
		how = "links " + p.Path + " (imported by " + strings.Join(p.ImportedBy, ", ") + ")"
	}
	return fmt.Sprintf("%s (tier %s) %s: %s", p.Package, p.Tier, how, p.Reason)
}

// Check returns the rules of pl that pkg breaks. listing holds pkg and every
// package it links, each with its Imports and Deps (ListAll).
func (pl Placement) Check(pkg string, listing map[string]Package) []Problem {
	p, ok := listing[pkg]
	if !ok {
		return []Problem{{Package: pkg, Tier: pl.Tier.Name, Path: pkg, Direct: true, Reason: "not in the listing"}}
	}
	var out []Problem
	for _, imp := range p.Imports {
		if bad, ok := match(imp, pl.Tier.BadImports); ok {
			out = append(out, Problem{Package: pkg, Tier: pl.Tier.Name, Path: imp, Direct: true, Reason: pl.Tier.BadImports[bad]})
		}
	}
	deps := maps.Clone(pl.Tier.BadDeps)
	if deps == nil {
		deps = map[string]string{}
	}
	maps.Copy(deps, pl.Also)
	closure := []Package{p}
	for _, d := range p.Deps {
		closure = append(closure, listing[d])
	}
	for _, v := range Violations(closure, slices.Sorted(maps.Keys(deps))) {
		if slices.ContainsFunc(out, func(pr Problem) bool { return pr.Path == v.Path }) {
			continue // already said, as the package's own import
		}
		if len(v.ImportedBy) == 0 {
			continue // reached only through another refused package, which says it
		}
		bad, _ := match(v.Path, deps)
		out = append(out, Problem{Package: pkg, Tier: pl.Tier.Name, Path: v.Path,
			Direct: slices.Contains(v.ImportedBy, pkg), ImportedBy: v.ImportedBy, Reason: deps[bad]})
	}
	return out
}

// Unplaced compares a table keyed by path under module with the module's
// packages: missing are packages the table does not place, unknown are
// entries that name no package.
func Unplaced(table map[string]Placement, module string, listing map[string]Package) (missing, unknown []string) {
	for path, p := range listing {
		if p.DepOnly || (path != module && !strings.HasPrefix(path, module+"/")) {
			continue
		}
		if _, ok := table[strings.TrimPrefix(path, module+"/")]; !ok {
			missing = append(missing, path)
		}
	}
	for key := range table {
		if _, ok := listing[module+"/"+key]; !ok {
			unknown = append(unknown, key)
		}
	}
	slices.Sort(missing)
	slices.Sort(unknown)
	return missing, unknown
}

// match returns the entry of rules that path falls under: the package
// itself or one beneath it.
func match(path string, rules map[string]string) (string, bool) {
	for r := range rules {
		if matches(path, []string{r}) {
			return r, true
		}
	}
	return "", false
}
