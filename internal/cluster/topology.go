package cluster

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/yamltext"
)

// A topology describes the set as no node document can: which nodes share
// an underlay (sites), and where a node is reached from where (a 1:1 NAT:
// its private address inside its site, its public one outside). ADR 6
// keeps a node's document to its own view, so this is no node's
// configuration: validate --cluster --topology FILE reads it, and nothing
// on a node ever does. Its file's name ends in TopologySuffix, a suffix no
// directory of documents is read for, so that it is never taken for a
// node's document, and plan, apply and resolve refuse it by that name.

// TopologySuffix is how a topology file's name ends.
const TopologySuffix = ".topology"

// IsTopologyName says whether a file's name is a topology's.
func IsTopologyName(name string) bool {
	return strings.HasSuffix(name, TopologySuffix) && len(name) > len(TopologySuffix)
}

// Topology is a set's topology file, read.
type Topology struct {
	// File is the file as it was named.
	File  string
	Sites []Site
	NAT   []NAT
	// pos are the positions of the file's fields, by path.
	pos map[string][2]int
}

// Site is a set of nodes that share an underlay: they reach each other at
// their private addresses.
type Site struct {
	Name  string
	Nodes []string // node.name, or a file's name less its extension
}

// NAT is a node behind a 1:1 NAT: dialled at Private from its own site and
// at Public from everywhere else. A 1:1 NAT maps addresses, not ports.
type NAT struct {
	Node            string
	Private, Public netip.Addr
}

// ParseTopology reads a topology file strictly: an unknown key, a value of
// the wrong type, a site or node given twice, an address that is no IP
// are findings at their field path, and the topology is then nil.
func ParseTopology(file string, data []byte) (*Topology, Findings) {
	t := &Topology{File: file, pos: map[string][2]int{}}
	p := &topoParser{t: t}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamltext.Message(err)
		p.errorf("", line, 0, "yaml syntax: %s", msg)
		return nil, p.out
	}
	if len(doc.Content) == 0 {
		p.errorf("", 0, 0, "holds no topology: give sites (the nodes that share an underlay) and nat (the nodes behind a 1:1 NAT)")
		return nil, p.out
	}
	p.top(doc.Content[0])
	if len(p.out) > 0 {
		return nil, p.out
	}
	return t, nil
}

// topoParser walks the file's YAML, collecting findings.
type topoParser struct {
	t   *Topology
	out Findings
}

func (p *topoParser) errorf(path string, line, col int, format string, args ...any) {
	p.out = append(p.out, Finding{
		File:    p.t.File,
		Finding: finding.Finding{Path: path, Line: line, Col: col, Severity: finding.Error, Message: fmt.Sprintf(format, args...)},
		Related: []Place{},
		order:   -1,
	})
}

// at records n's position for path and returns it.
func (p *topoParser) at(path finding.Path, n *yaml.Node) {
	p.t.pos[path.String()] = [2]int{n.Line, n.Column}
}

func (p *topoParser) bad(path finding.Path, n *yaml.Node, format string, args ...any) {
	p.errorf(path.String(), n.Line, n.Column, format, args...)
}

// fields walks a mapping, calling each known key's function with its
// value; an unknown or repeated key is a finding.
func (p *topoParser) fields(path finding.Path, n *yaml.Node, known map[string]func(finding.Path, *yaml.Node)) bool {
	if n.Kind != yaml.MappingNode {
		p.bad(path, n, "must be a mapping")
		return false
	}
	p.at(path, n)
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	slices.Sort(names)
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		at := path.Field(k.Value)
		if path == "" {
			at = finding.Path(k.Value)
		}
		f, ok := known[k.Value]
		switch {
		case !ok:
			p.bad(at, k, "unknown key; known keys here: %s", strings.Join(names, ", "))
		case seen[k.Value] > 0:
			p.bad(at, k, "duplicate key; first given on line %d", seen[k.Value])
		default:
			seen[k.Value] = k.Line
			p.at(at, v)
			f(at, v)
		}
	}
	return true
}

// items walks a sequence.
func (p *topoParser) items(path finding.Path, n *yaml.Node, each func(finding.Path, *yaml.Node)) {
	if n.Kind != yaml.SequenceNode {
		p.bad(path, n, "must be a list")
		return
	}
	for i, v := range n.Content {
		p.at(path.Index(i), v)
		each(path.Index(i), v)
	}
}

// text is a scalar string, "" (reported) when n is none.
func (p *topoParser) text(path finding.Path, n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || n.Value == "" {
		p.bad(path, n, "must be a name")
		return ""
	}
	return n.Value
}

func (p *topoParser) addr(path finding.Path, n *yaml.Node) netip.Addr {
	if n.Kind != yaml.ScalarNode {
		p.bad(path, n, "must be an IP address")
		return netip.Addr{}
	}
	a, err := netip.ParseAddr(n.Value)
	if err != nil || a.Zone() != "" {
		p.bad(path, n, "must be an IP address, without a port or a prefix length")
		return netip.Addr{}
	}
	return a.Unmap()
}

// once says whether name is given here first among seen (the paths that
// gave each name); a later one is a finding, naming the first (format's
// verbs: the name, then that path).
func (p *topoParser) once(seen map[string]string, path finding.Path, v *yaml.Node, name, format string) bool {
	if name == "" {
		return false
	}
	if first, dup := seen[name]; dup {
		p.bad(path, v, format, name, first)
		return false
	}
	seen[name] = path.String()
	return true
}

// required reports the keys a mapping lacks.
func (p *topoParser) required(path finding.Path, n *yaml.Node, keys ...string) {
	for _, k := range keys {
		if _, ok := p.t.pos[path.Field(k).String()]; !ok {
			p.bad(path, n, "lacks %s", k)
		}
	}
}

func (p *topoParser) top(n *yaml.Node) {
	siteOf := map[string]string{} // node -> the path naming it first
	siteNames := map[string]string{}
	natOf := map[string]string{}
	p.fields("", n, map[string]func(finding.Path, *yaml.Node){
		"sites": func(path finding.Path, v *yaml.Node) {
			p.items(path, v, func(path finding.Path, v *yaml.Node) {
				var s Site
				ok := p.fields(path, v, map[string]func(finding.Path, *yaml.Node){
					"name": func(path finding.Path, v *yaml.Node) {
						s.Name = p.text(path, v)
						p.once(siteNames, path, v, s.Name, "%s is also the name of %s: each site has a name of its own")
					},
					"nodes": func(path finding.Path, v *yaml.Node) {
						p.items(path, v, func(path finding.Path, v *yaml.Node) {
							name := p.text(path, v)
							if p.once(siteOf, path, v, name, "%s is also in %s: a node is at one site") {
								s.Nodes = append(s.Nodes, name)
							}
						})
					},
				})
				if ok {
					p.required(path, v, "name", "nodes")
					p.t.Sites = append(p.t.Sites, s)
				}
			})
		},
		"nat": func(path finding.Path, v *yaml.Node) {
			p.items(path, v, func(path finding.Path, v *yaml.Node) {
				var x NAT
				ok := p.fields(path, v, map[string]func(finding.Path, *yaml.Node){
					"node": func(path finding.Path, v *yaml.Node) {
						x.Node = p.text(path, v)
						p.once(natOf, path, v, x.Node, "%s is also in %s: one node is behind one NAT")
					},
					"private": func(path finding.Path, v *yaml.Node) { x.Private = p.addr(path, v) },
					"public":  func(path finding.Path, v *yaml.Node) { x.Public = p.addr(path, v) },
				})
				if ok {
					p.required(path, v, "node", "private", "public")
					if x.Public.IsValid() && x.Public == x.Private {
						pub := path.Field("public").String()
						p.errorf(pub, p.t.pos[pub][0], p.t.pos[pub][1], "is the private address too: a 1:1 NAT maps one address to another; leave a node dialled at one address out of nat")
					}
					p.t.NAT = append(p.t.NAT, x)
				}
			})
		},
	})
}

// at is a place in the topology file.
func (t *Topology) at(path string) Place {
	pos := t.pos[path]
	return Place{File: t.File, Path: path, Line: pos[0], Col: pos[1]}
}
