package k0syaml

import (
	"errors"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/yamltext"
)

// Redact is the text of a k0s.yaml with the agent's secrets hidden where
// they stand: the line of each key on a secret's path (Node's secret.Value
// fields, matched in any case as k0s matches them, through aliases and
// merge keys) becomes "KEY: [redacted]" and the lines its value continues
// on are left out, so a plan shows every other line of the file as it is,
// free text included, and a value spanning lines shows as one line. An
// alias under such a key hides the anchored value too. Text that does not
// parse as YAML, or a secret it cannot place on a line of its own, is an
// error quoting nothing of it: the file is to be hidden whole.
func Redact(data []byte) ([]byte, error) {
	text := string(data)
	r := redaction{lines: strings.Split(text, "\n"), replace: map[int]string{}, drop: map[int]bool{}}
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errors.New("k0s.yaml does not parse as YAML") // the error may quote a value
		}
		docs = append(docs, &doc)
	}
	r.index(docs)
	for _, doc := range docs {
		for _, path := range documentSecretPaths() {
			r.visited = map[visit]bool{}
			if err := r.find(doc, path); err != nil {
				return nil, err
			}
		}
	}
	return []byte(r.text()), nil
}

// redaction is the state of one Redact: the file's lines, the nodes in
// document order with the key each stands under, and the lines to replace
// or leave out.
type redaction struct {
	lines   []string
	order   []*yaml.Node
	at      map[*yaml.Node]int        // a node's place in order
	size    map[*yaml.Node]int        // how many nodes its subtree holds
	owner   map[*yaml.Node]*yaml.Node // the key a value node stands under
	replace map[int]string
	drop    map[int]bool
	// visited are the nodes find has searched for the rest of a path
	// (of its length), so aliases and merge keys that name one mapping
	// many times cost one search of it, not one per way to reach it.
	visited map[visit]bool
}

type visit struct {
	n    *yaml.Node
	rest int
}

// index lists the nodes of docs in document order (an alias once, not its
// target again) with each subtree's size and the key of every value.
func (r *redaction) index(docs []*yaml.Node) {
	r.at, r.size, r.owner = map[*yaml.Node]int{}, map[*yaml.Node]int{}, map[*yaml.Node]*yaml.Node{}
	var walk func(n, key *yaml.Node)
	walk = func(n, key *yaml.Node) {
		r.at[n] = len(r.order)
		r.order = append(r.order, n)
		if key != nil {
			r.owner[n] = key
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i], nil)
				walk(n.Content[i+1], n.Content[i])
			}
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, key)
			}
		}
		r.size[n] = len(r.order) - r.at[n]
	}
	for _, d := range docs {
		walk(d, nil)
	}
}

// find hides the values on path below n.
func (r *redaction) find(n *yaml.Node, path []string) error {
	n = resolve(n)
	if len(path) == 0 || r.visited[visit{n, len(path)}] {
		return nil
	}
	r.visited[visit{n, len(path)}] = true
	switch {
	case n.Kind == yaml.DocumentNode:
		for _, c := range n.Content {
			if err := r.find(c, path); err != nil {
				return err
			}
		}
	case path[0] == secret.AnyItem && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if err := r.find(c, path[1:]); err != nil {
				return err
			}
		}
	case n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolve(n.Content[i]), n.Content[i+1]
			switch {
			case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
				if err := r.find(v, path); err != nil {
					return err
				}
				if v := resolve(v); v.Kind == yaml.SequenceNode {
					for _, c := range v.Content {
						if err := r.find(c, path); err != nil {
							return err
						}
					}
				}
			case k.Kind != yaml.ScalarNode || !strings.EqualFold(k.Value, path[0]):
			case len(path) == 1:
				if err := r.hide(n.Content[i], v); err != nil {
					return err
				}
			default:
				if err := r.find(v, path[1:]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// hide hides the value v of key and, v being an alias, the value it
// names where it is anchored.
func (r *redaction) hide(key, v *yaml.Node) error {
	if err := r.hideLines(key, v); err != nil {
		return err
	}
	if v.Kind != yaml.AliasNode {
		return nil
	}
	target := resolve(v)
	owner, ok := r.owner[target]
	if !ok {
		return errors.New("a secret of k0s.yaml is an alias of a value under no key")
	}
	return r.hideLines(owner, r.valueOf(owner))
}

// valueOf is the value node of key.
func (r *redaction) valueOf(key *yaml.Node) *yaml.Node {
	return r.order[r.at[key]+r.size[key]]
}

// hideLines replaces key's line by the key and the marker, and leaves out
// the lines v continues on: up to the line before the next node in
// document order, less the blank lines, document markers and comments
// less indented than the value that close that span (a quoted scalar's
// lines are all its own).
func (r *redaction) hideLines(key, v *yaml.Node) error {
	start := key.Line - 1
	if start < 0 || start >= len(r.lines) {
		return errors.New("a secret of k0s.yaml is at no line")
	}
	prefix, ok := keyPrefix(r.lines[start], key)
	if !ok {
		return errors.New("a secret of k0s.yaml has a key the redaction cannot find on its line")
	}
	end := len(r.lines) - 1
	if next := r.at[v] + r.size[v]; next < len(r.order) && r.order[next].Line > 0 {
		end = r.order[next].Line - 2
	}
	quoted := v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
	for end > start {
		l := r.lines[end]
		t := strings.TrimLeft(l, " \t")
		indent := len(l) - len(t)
		if t == "" || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") || (!quoted && strings.HasPrefix(t, "#") && indent < key.Column) {
			end--
			continue
		}
		break
	}
	// Of two secrets on one line (a flow mapping), the first one's key
	// ends the line: the second one's would show the first value.
	if old, ok := r.replace[start]; !r.drop[start] && (!ok || len(prefix)+len(secret.Redacted)+1 < len(old)) {
		r.replace[start] = prefix + " " + secret.Redacted
	}
	for i := start + 1; i <= end; i++ {
		r.drop[i] = true
		delete(r.replace, i)
	}
	return nil
}

// keyPrefix is line up to and including the ':' that ends key, which
// starts at key.Column (counted in characters, as yaml.v3 counts).
func keyPrefix(line string, key *yaml.Node) (string, bool) {
	col, n := -1, 0
	for i := range line {
		if n == key.Column-1 {
			col = i
			break
		}
		n++
	}
	if col < 0 {
		return "", false
	}
	if key.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		end := yamltext.ClosingQuote(line, col)
		if end < 0 {
			return "", false
		}
		col = end + 1
	}
	colon := strings.IndexByte(line[col:], ':')
	if colon < 0 {
		return "", false
	}
	return line[:col+colon+1], true
}

func (r *redaction) text() string {
	out := make([]string, 0, len(r.lines))
	for i, l := range r.lines {
		switch {
		case r.drop[i]:
		case r.replace[i] != "":
			out = append(out, r.replace[i])
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}
