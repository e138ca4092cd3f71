package yamlfast

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// token scans the node at pos, in block context or inside a flow
// collection: a flow collection on one line, a quoted scalar on one line,
// or a one-line plain scalar.
func (p *parser) token(flow bool) *yaml.Node {
	switch p.src[p.pos] {
	case '[', '{':
		return p.flow()
	case '\'', '"':
		return p.quoted()
	}
	return p.plain(flow)
}

// plain scans a plain scalar. It ends at ": ", at " #", at the end of the
// line and, in flow context, at a flow indicator. Anything yaml.v3 would
// read differently (tabs, indicators that start other tokens) bails.
func (p *parser) plain(flow bool) *yaml.Node {
	src := p.src
	start := p.pos
	c := src[start]
	next := p.at(start + 1)
	switch c {
	case '-':
		if flow {
			if !isWord(next) {
				bail()
			}
		} else if next == 0 || next == ' ' || next == '\n' || next == '\t' {
			bail()
		}
	case '?', ':':
		if flow || next == 0 || next == ' ' || next == '\n' || next == '\t' {
			bail()
		}
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\n', '\t':
		bail()
	}
	stop := &blockStop
	if flow {
		stop = &flowStop
	}
	i, end := start, start
scan:
	for {
		for i < len(src) && stop[src[i]] == 0 {
			i++
		}
		if i >= len(src) {
			end = i
			break
		}
		switch src[i] {
		case ':':
			switch n := p.at(i + 1); n {
			case 0, ' ', '\n', '\t':
				if i == start || src[i-1] != ' ' {
					end = i
				}
				break scan
			case ',', '[', ']', '{', '}':
				if flow {
					bail()
				}
			}
			i++
		case ' ':
			end = i
			for i < len(src) && src[i] == ' ' {
				i++
			}
			if i >= len(src) {
				break scan
			}
			switch src[i] {
			case '\n', '#':
				break scan
			}
		case '\n':
			end = i
			break scan
		case ',', '[', ']', '{', '}':
			if i == start || src[i-1] != ' ' {
				end = i
			}
			break scan
		default: // '\t', and '?' in flow context
			bail()
		}
	}
	v := src[start:end]
	if v == "<<" {
		bail()
	}
	n := p.slab.node()
	n.Kind, n.Value, n.Line, n.Column = yaml.ScalarNode, v, p.line, start-p.lineStart+1
	if tag, ok := plainTag(v); ok {
		n.Tag = tag
	} else {
		n.Tag = n.ShortTag()
	}
	p.pos = end
	return n
}

// blockStop and flowStop mark the bytes a plain scalar's scan must look
// at; all others are copied as they are.
var blockStop, flowStop = func() (b, f [256]byte) {
	for _, c := range " \n\t:" {
		b[c], f[c] = 1, 1
	}
	for _, c := range ",[]{}?" {
		f[c] = 1
	}
	return b, f
}()

// isWord is the conservative set of bytes after which '-' or ':' in flow
// context cannot be read as an indicator.
func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '/' || c == '_'
}

// quoted scans a single- or double-quoted scalar that closes on its own
// line. Double-quoted escapes are left to yaml.v3.
func (p *parser) quoted() *yaml.Node {
	src := p.src
	q := src[p.pos]
	start := p.pos + 1
	i := start
	escaped := false
	for {
		if i >= len(src) {
			bail()
		}
		c := src[i]
		if c == q {
			if q == '\'' && p.at(i+1) == '\'' {
				escaped = true
				i += 2
				continue
			}
			break
		}
		if c == '\n' || c == '\t' || c == '\\' && q == '"' {
			bail()
		}
		i++
	}
	v := src[start:i]
	n := p.slab.node()
	n.Kind, n.Tag, n.Line, n.Column = yaml.ScalarNode, "!!str", p.line, p.col()+1
	if q == '\'' {
		n.Style = yaml.SingleQuotedStyle
		if escaped {
			v = strings.ReplaceAll(v, "''", "'")
		}
	} else {
		n.Style = yaml.DoubleQuotedStyle
	}
	n.Value = v
	p.pos = i + 1
	return n
}

// flow scans a flow sequence or mapping that closes on its own line. Its
// entries are scalars or nested flow collections; flow mappings need
// "key: value" pairs, and a sequence entry that is itself a pair bails.
func (p *parser) flow() *yaml.Node {
	p.enter()
	defer p.leave()
	n := p.slab.node()
	n.Line, n.Column, n.Style = p.line, p.col()+1, yaml.FlowStyle
	closer := byte(']')
	if p.src[p.pos] == '{' {
		closer = '}'
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
	} else {
		n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
	}
	p.pos++
	base := len(p.stack)
	p.flowSpaces()
	if p.src[p.pos] == closer {
		p.pos++
		return n
	}
	for {
		k := p.token(true)
		p.stack = append(p.stack, k)
		p.flowSpaces()
		if closer == '}' {
			// A key, like a block one, must reach its ':' within 1024 characters.
			if k.Kind != yaml.ScalarNode || p.src[p.pos] != ':' || p.at(p.pos+1) != ' ' ||
				p.pos-(p.lineStart+k.Column-1) > 1000 {
				bail()
			}
			p.pos++
			p.flowSpaces()
			p.stack = append(p.stack, p.token(true))
			p.flowSpaces()
		}
		c := p.src[p.pos]
		p.pos++
		if c == closer {
			break
		}
		if c != ',' {
			bail()
		}
		p.flowSpaces()
		if c := p.src[p.pos]; c == ']' || c == '}' || c == ',' {
			bail()
		}
	}
	n.Content = p.slab.carve(&p.stack, base)
	return n
}

// flowSpaces skips spaces inside a flow collection, which must not run
// past its line.
func (p *parser) flowSpaces() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos >= len(p.src) {
		bail()
	}
	switch p.src[p.pos] {
	case '\n', '\t', '#':
		bail()
	}
}
