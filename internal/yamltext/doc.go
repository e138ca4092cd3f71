// Package yamltext turns gopkg.in/yaml.v3's error messages into text fit for
// a log line or a status file: the line number taken out, and any document
// text the parser quotes (an anchor's name, a value) replaced. A secret can
// sit anywhere in a broken document, `authPass: *Pw12345` included, and the
// parser's message is the first thing an operator pastes into a ticket.
//
// ShownLine reduces a line of a broken document to its shape (indentation,
// keys shaped like field names, punctuation), so a syntax error can show
// where it stands without showing what the line holds.
//
// ClosingQuote, ClosingBracket and SkipProperties read a value as written
// on its line (where a quoted scalar or a flow collection closes, where a
// value starts after its anchor and tag). Nodes' End is where a value of a
// parsed tree ends in its text, which yaml.v3 does not say: the one rule
// both maskers that hide a value where it stands use (a finding's window,
// schema; a plan's k0s.yaml, k0syaml), so they hide the same lines of it.
//
// It parses no YAML (it reads yaml.v3's nodes and the text they came from)
// and knows nothing of the corium block.
package yamltext
