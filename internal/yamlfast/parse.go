package yamlfast

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// bailout is the panic value that unwinds the parser when the input leaves
// the subset; Parse turns it into ok=false so yaml.v3 takes over.
type bailout struct{}

func bail() { panic(bailout{}) }

// panicOnBug is set by the tests so that a bug shows as a panic instead
// of a silent fallback to yaml.v3.
var panicOnBug = false

// Parse returns the tree yaml.v3's Decoder would produce for data, or
// ok=false when data is outside the subset this package recognises (or is
// malformed). The caller then decodes with yaml.v3 itself.
func Parse(data []byte) (doc *yaml.Node, ok bool) {
	est, good := precheck(data)
	if !good {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			// Any other panic is a bug here, not in the input: yaml.v3 can
			// still read the document, so the caller is not crashed. The
			// tests turn such panics back on to find them.
			if _, is := r.(bailout); !is && panicOnBug {
				panic(r)
			}
			doc, ok = nil, false
		}
	}()
	p := parser{src: string(data), line: 1}
	p.slab.init(est)
	p.skipLines(0)
	if p.eof {
		return nil, false
	}
	line, col := p.line, p.col()
	root := p.block()
	if !p.eof {
		bail()
	}
	doc = p.slab.node()
	doc.Kind = yaml.DocumentNode
	doc.Line, doc.Column = line, col+1
	p.stack = append(p.stack, root)
	doc.Content = p.slab.carve(&p.stack, 0)
	return doc, true
}

// precheck rejects bytes outside printable ASCII, LF and tab (tab is only
// accepted later inside comments), and estimates how many nodes the
// document holds so the slabs are allocated once.
func precheck(data []byte) (nodes int, ok bool) {
	if len(data) == 0 {
		return 0, false
	}
	var bad byte
	for _, c := range data {
		bad |= badByte[c]
	}
	if bad != 0 {
		return 0, false
	}
	// Most lines hold a key and a value; a flow collection adds itself and
	// one node per entry. Counting single bytes is cheap; a document that
	// needs more gets further chunks.
	nodes = 4 + 2*(bytes.Count(data, []byte{'\n'})+1) + bytes.Count(data, []byte{','}) +
		2*(bytes.Count(data, []byte{'['})+bytes.Count(data, []byte{'{'}))
	return nodes, true
}

var badByte = func() (t [256]byte) {
	for c := range t {
		if (c < 0x20 || c >= 0x7f) && c != '\n' && c != '\t' {
			t[c] = 1
		}
	}
	return t
}()

// parser walks the source once. pos is a byte offset; because the input
// is ASCII, the column of pos is pos-lineStart.
type parser struct {
	src       string
	pos       int
	line      int // 1-based line of pos
	lineStart int
	eof       bool // no content line is left
	depth     int  // collections open
	slab      slab
	stack     []*yaml.Node // children of the collections being built
}

func (p *parser) col() int { return p.pos - p.lineStart }

func (p *parser) at(i int) byte {
	if i < len(p.src) {
		return p.src[i]
	}
	return 0
}

// restBlank skips spaces and reports whether the line holds nothing
// more: its end, the end of input, or a comment after whitespace. It
// leaves pos after the spaces.
func (p *parser) restBlank() bool {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	switch p.at(p.pos) {
	case 0, '\n':
		return true
	case '#':
		return p.pos > start
	case '\t':
		bail()
	}
	return false
}

// endLine requires the rest of the line to be blank and moves to the
// next content line.
func (p *parser) endLine() {
	if !p.restBlank() {
		bail()
	}
	p.nextLine()
}

// nextLine skips the rest of the current line (a comment at most), then
// blank and comment lines, and leaves pos at the first non-space byte of
// the next content line, or sets eof.
func (p *parser) nextLine() {
	i := p.pos
	for i < len(p.src) && p.src[i] != '\n' {
		i++
	}
	if i >= len(p.src) {
		p.pos, p.eof = i, true
		return
	}
	p.skipLines(i + 1)
}

// skipLines starts at the beginning of a line (offset i, one line after
// p.line unless i is 0).
func (p *parser) skipLines(i int) {
	src := p.src
	if i > 0 {
		p.line++
	}
	for {
		p.lineStart = i
		j := i
		for j < len(src) && src[j] == ' ' {
			j++
		}
		if j >= len(src) {
			p.pos, p.eof = j, true
			return
		}
		switch src[j] {
		case '\n':
			i = j + 1
			p.line++
			continue
		case '#':
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if j >= len(src) {
				p.pos, p.eof = j, true
				return
			}
			i = j + 1
			p.line++
			continue
		case '\t':
			bail()
		}
		if j == i && j+3 <= len(src) && (src[i:i+3] == "---" || src[i:i+3] == "...") {
			// a document marker, or close enough to one to leave to yaml.v3
			bail()
		}
		p.pos = j
		return
	}
}
