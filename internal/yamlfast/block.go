package yamlfast

import "gopkg.in/yaml.v3"

// block parses the block collection that starts at pos, the first content
// of a line (or of a sequence entry): a sequence when it is a "- " entry,
// otherwise a mapping. A bare scalar here would need multi-line rules,
// so it bails.
func (p *parser) block() *yaml.Node {
	if p.isEntry() {
		return p.sequence(p.col(), false)
	}
	key := p.token(false)
	if !p.isColon() {
		bail()
	}
	return p.mapping(key)
}

// isEntry reports whether pos holds a block sequence entry indicator.
func (p *parser) isEntry() bool {
	if p.src[p.pos] != '-' {
		return false
	}
	switch p.at(p.pos + 1) {
	case 0, ' ', '\n':
		return true
	case '\t':
		bail()
	}
	return false
}

// isColon skips spaces after a token and reports whether a value
// indicator (':' then blank or end) follows; pos is left on the ':'.
func (p *parser) isColon() bool {
	i := p.pos
	for i < len(p.src) && p.src[i] == ' ' {
		i++
	}
	if i >= len(p.src) || p.src[i] != ':' {
		return false
	}
	switch p.at(i + 1) {
	case 0, ' ', '\n':
		p.pos = i
		return true
	case '\t':
		bail()
	}
	return false
}

// mapping parses a block mapping whose first key has been scanned and
// whose ':' is at pos. Every key sits at the key's column; a line
// indented between two open collections is left to yaml.v3.
func (p *parser) mapping(key *yaml.Node) *yaml.Node {
	col := key.Column - 1
	p.enter()
	defer p.leave()
	n := p.slab.node()
	n.Kind, n.Tag, n.Line, n.Column = yaml.MappingNode, "!!map", key.Line, key.Column
	base := len(p.stack)
	for {
		// A simple key must end within 1024 characters of its start.
		if p.pos-(p.lineStart+key.Column-1) > 1000 || key.Kind != yaml.ScalarNode {
			bail()
		}
		p.stack = append(p.stack, key)
		p.pos++ // ':'
		colonLine, colonCol := p.line, p.col()
		var val *yaml.Node
		if p.restBlank() {
			p.nextLine()
			switch {
			case p.eof || p.col() < col:
				val = p.null(colonLine, colonCol)
			case p.col() == col:
				if p.isEntry() {
					val = p.sequence(col, true)
				} else {
					val = p.null(colonLine, colonCol)
				}
			default:
				val = p.block()
			}
		} else {
			if p.isEntry() {
				bail()
			}
			val = p.token(false)
			p.endValue(col)
		}
		p.stack = append(p.stack, val)
		if !p.more(col) {
			break
		}
		key = p.token(false)
		if !p.isColon() {
			bail()
		}
	}
	n.Content = p.slab.carve(&p.stack, base)
	return n
}

// sequence parses a block sequence whose entries start at column col;
// indentless is the "key:\n- a" form, which ends at the first line of
// that column that is not an entry.
func (p *parser) sequence(col int, indentless bool) *yaml.Node {
	p.enter()
	defer p.leave()
	n := p.slab.node()
	n.Kind, n.Tag, n.Line, n.Column = yaml.SequenceNode, "!!seq", p.line, col+1
	base := len(p.stack)
	for {
		if !p.isEntry() {
			if indentless {
				break
			}
			bail()
		}
		p.pos++ // '-'
		var item *yaml.Node
		if p.restBlank() {
			p.nextLine()
			if p.eof || p.col() <= col {
				bail() // an empty entry
			}
			item = p.block()
		} else if p.isEntry() {
			item = p.sequence(p.col(), false)
		} else {
			item = p.token(false)
			if p.isColon() {
				item = p.mapping(item)
			} else {
				p.endValue(col)
			}
		}
		p.stack = append(p.stack, item)
		if !p.more(col) {
			break
		}
	}
	n.Content = p.slab.carve(&p.stack, base)
	return n
}

// endValue ends the line of a one-line value in a collection at column
// col; a deeper line after it would continue the value over lines, which
// is left to yaml.v3.
func (p *parser) endValue(col int) {
	p.endLine()
	if !p.eof && p.col() > col {
		bail()
	}
}

// more reports whether the collection at column col goes on: the next
// content line starts at its column. A line between two open collections'
// columns is mis-indented, left to yaml.v3.
func (p *parser) more(col int) bool {
	if p.eof || p.col() < col {
		return false
	}
	if p.col() > col {
		bail()
	}
	return true
}

// null is the empty scalar yaml.v3 makes for a missing value, placed
// just after the indicator that announced it.
func (p *parser) null(line, col int) *yaml.Node {
	n := p.slab.node()
	n.Kind, n.Tag, n.Line, n.Column = yaml.ScalarNode, "!!null", line, col+1
	return n
}

// maxDepth keeps far below yaml.v3's limit of 10,000 nested collections,
// past which it reports an error instead of a tree.
const maxDepth = 1000

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		bail()
	}
}

func (p *parser) leave() { p.depth-- }
