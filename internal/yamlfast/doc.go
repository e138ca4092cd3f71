// Package yamlfast is an accelerator for reading node configurations: for
// the block-style YAML subset those configurations use, Parse builds the
// very yaml.Node tree gopkg.in/yaml.v3 would build, about ten times
// faster and with a handful of allocations instead of several per node
// (BenchmarkParse against BenchmarkYAMLv3: a 2,000-peer config of 342 KB
// in about 4 ms and 16 allocations, where yaml.v3 takes about 44 ms and
// 101,000 allocations).
//
// It is not a YAML parser of its own. yaml.v3 stays the authority: Parse
// answers ok=false at the first thing outside the subset or in doubt, and
// every such document, every error and every message comes from yaml.v3
// when the caller decodes it there instead.
//
// The subset: ASCII text with LF line ends; blank lines and comments;
// block mappings with plain or quoted one-line keys; block sequences,
// compact ("- key: value") and indentless ("key:\n- a"); one-line plain,
// single-quoted and backslash-free double-quoted scalars; flow sequences
// and mappings that open and close on one line; empty values. Anchors,
// aliases, tags, block scalars, multi-line scalars, explicit keys,
// directives, document markers, tabs outside comments and non-ASCII bytes
// are left to yaml.v3.
//
// Comments are not kept: HeadComment, LineComment and FootComment are
// empty in the trees Parse returns, where yaml.v3 would fill them in.
// Every other field of every node (Kind, Style, Tag, Value, Line, Column,
// Content) equals yaml.v3's; the tests compare the two parsers on the
// repository's YAML files, on generated documents and under fuzzing.
package yamlfast
