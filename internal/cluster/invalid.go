package cluster

import (
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// A file invalid on its own still leaves the rest of the set to check, but
// not what depends on it: a node whose document could not be read, or
// whose role is refused, is left out, and the other files' entries for it
// would all say "a peer outside the set"; a field the file's own rules
// refused makes its peers' findings about that field wrong guesses. So
// such a file takes one finding that names it and says what it stopped,
// first in the list, and the findings that involve its refused fields are
// dropped.

// leftOut are the files of the set that take no part: no configuration
// to read, or a role refused (every check depends on the role).
func leftOut(in []Node) []Node {
	var out []Node
	for _, n := range in {
		if !takesPart(n) && len(n.Findings.Errors()) > 0 {
			out = append(out, n)
		}
	}
	return out
}

func takesPart(n Node) bool {
	if n.Doc == nil || n.Doc.Config == nil || n.Delivery == nil {
		return false
	}
	for _, f := range n.Findings.Errors() {
		if f.Path == "role" {
			return false
		}
	}
	return true
}

// stopped adds one finding for each file left out, first in the list.
func (c *check) stopped(out []Node) {
	for _, n := range out {
		file := n.File
		if n.Delivery != nil && n.Delivery.Via != "" {
			file, _, _ = n.Delivery.Where(n.File, 1, 1)
		}
		c.findings = append(c.findings, Finding{
			File:    file,
			Finding: finding.Finding{Severity: finding.Error, Message: "is invalid on its own, so the set is checked without it: what the other files say of this node (their peers for it, their unicast lists) is not checked; fix its errors and check the set again"},
			Related: []Place{},
			cause:   true,
		})
	}
}

// dropDependent drops the findings that involve a field a file's own rules
// refused, and says so once at the first such file's field (after
// followFrom: a root cause and what follows from it stay).
func (c *check) dropDependent() {
	refused := map[string]*node{}
	for _, n := range c.set {
		if len(n.Findings.Errors()) > 0 {
			refused[n.at("").File] = n
		}
	}
	if len(refused) == 0 {
		return
	}
	dropped := map[*node]int{}
	kept := c.findings[:0]
	for _, f := range c.findings {
		if n := c.dependsOnRefused(f, refused); n != nil {
			dropped[n]++
			continue
		}
		kept = append(kept, f)
	}
	c.findings = kept
	for _, n := range c.set {
		k := dropped[n]
		if k == 0 {
			continue
		}
		path := n.Findings.Errors()[0].Path
		c.errorf(n, path, nil, "is refused on its own, so what the other files say of it is not checked (%d %s left out): fix this file's errors and check the set again",
			k, plural(k, "finding", "findings"))
		c.findings[len(c.findings)-1].cause = true
	}
}

// dependsOnRefused is the file whose refused field f involves at a related
// place; nil when none. A finding's own place is left to the check that
// made it, which reads a refused field only where comparing it is sound.
func (c *check) dependsOnRefused(f Finding, refused map[string]*node) *node {
	if f.cause || f.FollowsFrom != nil {
		return nil // a root cause explains it better
	}
	for _, p := range f.Related {
		n := refused[p.File]
		if n == nil {
			continue
		}
		for _, e := range n.Findings.Errors() {
			if touches(p.Path, e.Path) {
				return n
			}
		}
	}
	return nil
}

// touches says whether one path is the other or holds it.
func touches(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	within := func(x, y string) bool {
		return x == y || strings.HasPrefix(x, y+".") || strings.HasPrefix(x, y+"[")
	}
	return within(a, b) || within(b, a)
}

func plural(k int, one, many string) string {
	if k == 1 {
		return one
	}
	return many
}
