package schema

import "github.com/corium/corium-agent/internal/finding"

// segment is one step of a field path: a field name, a list index, or a
// free-form map key.
type segment struct {
	name  string
	index int
	kind  segmentKind
}

type segmentKind uint8

const (
	fieldSegment segmentKind = iota
	indexSegment
	keySegment
)

// pathStack is the path to the value being walked, spelled out only when a
// finding needs it: a valid document never builds a path string.
type pathStack struct{ segments []segment }

func (p *pathStack) enter(s segment) { p.segments = append(p.segments, s) }
func (p *pathStack) leave()          { p.segments = p.segments[:len(p.segments)-1] }
func (p *pathStack) depth() int      { return len(p.segments) }

// String spells the path as findings and Position write it:
// wireguard[0].peers[3].publicKey, node.labels["app"].
func (p *pathStack) String() string {
	var path finding.Path
	for _, s := range p.segments {
		switch s.kind {
		case indexSegment:
			path = path.Index(s.index)
		case keySegment:
			path = path.Key(s.name)
		default:
			path = path.Field(s.name)
		}
	}
	return path.String()
}
