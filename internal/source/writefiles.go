package source

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// WriteFile is one entry of a cloud-config's write_files, decoded the way
// cloud-init's cc_write_files decodes it. cloud-init, not the agent, writes
// the file at boot; this is how a workstation sees what it will write.
type WriteFile struct {
	// Index is the entry's place in write_files.
	Index int
	// Path is where cloud-init writes it: absolute and clean.
	Path string
	// Encoding is the entry's encoding as written.
	Encoding string
	// Content is the decoded content.
	Content []byte
	// Permissions and Owner as written ("" when not).
	Permissions string
	Owner       string
	// Defer writes the file in cloud-init's final stage; Append adds the
	// content to the file instead of replacing it.
	Defer, Append bool
	// Unknown is an encoding cloud-init does not know: it writes the
	// content as it stands.
	Unknown bool

	// block is where the content's first line stands in the cloud-config
	// when it is a literal block written as is (a line of the content is
	// then a line of the file): its line and indentation; line 0 otherwise.
	blockLine, blockIndent int
	// contentLine is the line of the cloud-config where the content
	// starts; 0 when the entry has no content key.
	contentLine int
}

// maxWritten bounds what a gzip entry may inflate to: a configuration is a
// few megabytes at most, and a bomb must not take a workstation down.
const maxWritten = 64 << 20

// writeFileEntry is an entry as YAML holds it; cloud-init reads defer and
// append as booleans in any spelling it knows.
type writeFileEntry struct {
	Path        string `yaml:"path"`
	Content     string `yaml:"content"`
	Encoding    string `yaml:"encoding"`
	Permissions string `yaml:"permissions"`
	Owner       string `yaml:"owner"`
	Defer       any    `yaml:"defer"`
	Append      any    `yaml:"append"`
}

// WriteFiles reads a cloud-config's write_files. Entries without a path are
// skipped, as cloud-init skips them. The error names the entry and never
// quotes its content, which may be a whole configuration.
func WriteFiles(data []byte) ([]WriteFile, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	return writeFiles(&root, data)
}

// writeFiles reads write_files from a parsed cloud-config, data its text.
func writeFiles(root *yaml.Node, data []byte) ([]WriteFile, error) {
	list := topValue(root, "write_files")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, nil
	}
	lines := bytes.Split(data, []byte("\n"))
	var out []WriteFile
	for i, item := range list.Content {
		var e writeFileEntry
		if err := item.Decode(&e); err != nil || e.Path == "" {
			continue
		}
		f := WriteFile{
			Index: i, Path: path.Join("/", e.Path), Encoding: e.Encoding,
			Permissions: e.Permissions, Owner: e.Owner,
			Defer: cloudInitBool(e.Defer), Append: cloudInitBool(e.Append),
		}
		steps, known := extractions(e.Encoding)
		f.Unknown = !known
		content, err := extract([]byte(e.Content), steps)
		if err != nil {
			return nil, fmt.Errorf("write_files[%d].content: %w", i, err)
		}
		f.Content = content
		c := mappingValue(item, "content")
		if c != nil {
			f.contentLine = c.Line
		}
		if len(steps) == 0 && c != nil && c.Tag != "!!binary" {
			f.blockLine, f.blockIndent = literalBlock(c, lines)
		}
		out = append(out, f)
	}
	return out, nil
}

// extractions are cloud-init's steps for an encoding (canonicalize_extraction):
// case and surrounding space do not matter, and an unknown encoding is
// written as plain text (known false).
func extractions(enc string) (steps []string, known bool) {
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "gz", "gzip":
		return []string{"gzip"}, true
	case "gz+base64", "gzip+base64", "gz+b64", "gzip+b64":
		return []string{"base64", "gzip"}, true
	case "b64", "base64":
		return []string{"base64"}, true
	case "", "text/plain":
		return nil, true
	}
	return nil, false
}

func extract(content []byte, steps []string) ([]byte, error) {
	for _, s := range steps {
		var err error
		switch s {
		case "base64":
			content, err = decodeBase64(content)
		case "gzip":
			content, err = gunzip(content)
		}
		if err != nil {
			return nil, err
		}
	}
	return content, nil
}

// decodeBase64 decodes as Python's base64.b64decode does by default: bytes
// outside the alphabet (line breaks, spaces) are dropped, padding is needed.
func decodeBase64(b []byte) ([]byte, error) {
	clean := bytes.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=' {
			return r
		}
		return -1
	}, b)
	out, err := base64.StdEncoding.DecodeString(string(clean))
	if err != nil {
		return nil, errors.New("is not base64, as its encoding says")
	}
	return out, nil
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, errors.New("is not gzip data, as its encoding says")
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxWritten+1))
	switch {
	case err != nil:
		return nil, errors.New("is not gzip data, as its encoding says (it is cut short or corrupt)")
	case len(out) > maxWritten:
		return nil, fmt.Errorf("inflates to more than %d MiB", maxWritten>>20)
	}
	return out, nil
}

// cloudInitBool is cloud-init's translate_bool: true, or a string among
// true, 1, on, yes in any case.
func cloudInitBool(v any) bool {
	switch b := v.(type) {
	case nil:
		return false
	case bool:
		return b
	}
	switch strings.ToLower(strings.TrimSpace(fmt.Sprint(v))) {
	case "true", "1", "on", "yes":
		return true
	}
	return false
}

// literalBlock says where a literal block scalar's content starts: the line
// after its indicator, indented as its first line that is not blank. An
// explicit indentation indicator (|2) is left unmapped (line 0).
func literalBlock(n *yaml.Node, lines [][]byte) (line, indent int) {
	if n.Style != yaml.LiteralStyle || n.Line < 1 || n.Line > len(lines) {
		return 0, 0
	}
	header := string(lines[n.Line-1])
	if n.Column-1 < len(header) {
		header = header[n.Column-1:]
	}
	if indicator, _, _ := strings.Cut(header, " "); strings.ContainsAny(indicator, "123456789") {
		return 0, 0
	}
	for _, l := range lines[n.Line:] {
		if t := bytes.TrimLeft(l, " "); len(bytes.TrimSpace(t)) > 0 {
			return n.Line + 1, len(l) - len(t)
		}
	}
	return 0, 0
}

func topValue(root *yaml.Node, key string) *yaml.Node {
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil
	}
	return mappingValue(root.Content[0], key)
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// groupOrOtherReadable says whether permissions as cloud-init reads them
// (an octal string, or a number) let anyone but the owner read the file;
// unset is cloud-init's default, 0644.
func groupOrOtherReadable(perm string) bool {
	if perm == "" {
		return true
	}
	m, err := strconv.ParseUint(perm, 8, 32)
	if err != nil {
		return true // cloud-init falls back to its default, 0644
	}
	return m&0o044 != 0
}
