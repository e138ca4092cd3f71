package source

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/schema"
)

// FilePath is the node's configuration file, the first place the agent
// looks: a cloud-config's write_files may write it.
const FilePath = "/etc/corium/config.yaml"

// Delivery is the document a file hands a node, taken out of what wraps it,
// for a workstation that checks the file before any node boots: the file
// itself (standalone, or a #cloud-config with corium:), the
// /etc/corium/config.yaml a cloud-config's write_files writes (which the
// chain reads first), or the data: document of a kernel command line, as
// the kernel shows it or as a grub.cfg's linux line hands it over.
type Delivery struct {
	// Data is the document the agent reads.
	Data []byte
	// Via is where in the file the document is: "" for the file itself,
	// "write_files[N].content", "corium.config", or in a boot loader's
	// script the line with the loader's word for it (Loader.via): "line N
	// (GRUB linux) corium.config" in a grub.cfg, "line N (iPXE)
	// corium.config" in an iPXE script.
	Via string
	// How says how it was taken out ("gz+b64", "data: URL, 812 bytes,
	// sha256 verified"); "" for the file itself.
	How string
	// OnCmdline says the document is on the kernel command line, where
	// every user of the node reads it.
	OnCmdline bool
	// Pin is the command line's corium.config.sha256=, checked; "" when it
	// pins nothing.
	Pin string
	// Notes are warnings about the delivery itself, each "FIELD: message"
	// in the file's own terms.
	Notes []Note
	// Cmdline measures the kernel command line the file holds, as the
	// kernel is handed it; nil when the file is no command line.
	Cmdline *CmdlineSize
	// Credentials are the agent's credentials that command line sets
	// (CheckCredentials).
	Credentials []LineCredential

	// line and indent place Data's first line in the file when its lines
	// are the file's (a literal block written as is); line 0 otherwise.
	line, indent int
	// place is where a document decoded out of a command line stands in
	// the file (the parameter; Via says it otherwise), carrier the file's
	// line holding a decoded document, 0 when no one line does (Decoded).
	place   string
	carrier int
	// masked is Data as an excerpt shows it, made once (Excerpt).
	masked     *schema.Masked
	maskedDone bool
	// parsed is Data as Unpack parsed it when Data is the file itself, and
	// tree the document a command line carries as Params.Accept read it;
	// both nil when Data was taken out of the file undecoded (Tree parses
	// it then).
	parsed *schema.Parsed
	tree   *schema.Tree
}

// Tree is the document parsed for the schema (schema.ReadTree), from the
// parse Unpack made of it when it made one: the file itself and a command
// line's data: document are parsed once, a write_files content when asked
// here. The error is a *schema.SyntaxError.
func (d *Delivery) Tree() (*schema.Tree, error) {
	switch {
	case d.tree != nil:
		return d.tree, nil
	case d.parsed != nil:
		return d.parsed.Tree(false)
	}
	return schema.ReadTree(d.Data, false)
}

// Described says where in the file the document is and how it was taken
// out ("write_files[0].content (gz+b64)"); "" for the file itself.
func (d *Delivery) Described() string {
	if d.Via == "" || d.How == "" {
		return d.Via
	}
	return d.Via + " (" + d.How + ")"
}

// Note is a warning about how a file delivers its document.
type Note struct {
	Path    string
	Message string
}

// Position is where a line and column of Data stand in the file; ok is
// false when Data is not the file's text (decoded, or the file itself,
// where the position needs no mapping: then it is returned as given).
func (d *Delivery) Position(line, col int) (int, int, bool) {
	switch {
	case d.Via == "":
		return line, col, true
	case d.line == 0 || line < 1:
		return line, col, false
	}
	return d.line + line - 1, d.indent + col, true
}

// Where names a place in the document as a reader finds it: the file and
// the position in it, or, when the document is not the file's text, the
// file with where in it the document is, and the position in the document.
func (d *Delivery) Where(file string, line, col int) (string, int, int) {
	if l, c, ok := d.Position(line, col); ok {
		return file, l, c
	}
	return file + " (" + d.Via + ")", line, col
}

// Unpack finds the document a file hands a node, offline: nothing is
// fetched and nothing but data is read. A kernel command line (as
// /proc/cmdline shows it, or as a boot loader's script hands it over: the
// line a grub.cfg's entries boot, all of them one document, the line an
// iPXE script boots, each read as its interpreter runs it; each Loader in
// turn) must carry the document inline (data:), and its
// corium.config.sha256= pin is checked; a cloud-config's write_files entry
// for /etc/corium/config.yaml is decoded as cloud-init decodes it. The error says why the file cannot
// deliver a document (a broken encoding, a pin that does not match, a
// command line naming a URL); it never quotes the document. A YAML syntax
// error is not Unpack's to report: the document is handed on as it is, for
// the schema to report with its line.
func Unpack(data []byte) (*Delivery, error) {
	if line, ok := commandLine(data); ok {
		return unpackCmdline(line, lineOf(data), ParamConfig, "")
	}
	parsed := schema.ReadYAML(data)
	root := parsed.First()
	var (
		d      *Delivery
		script bool
		err    error
	)
	// A loader's script that does not name the parameter is no script of
	// the agent's (booted), so a document without it is read once.
	if bytes.Contains(data, []byte(ParamConfig)) {
		d, script, err = unpackLoaders(data)
	}
	if root == nil || topMapping(root) == nil {
		// Not a YAML mapping: perhaps a boot loader's script, which
		// quotes the line its own way.
		switch {
		case err != nil:
			return nil, err
		case script:
			return d, nil
		}
	} else if script || err != nil {
		// The boot loader runs the file as a script, whatever YAML makes
		// of it: which of the two the node gets is the loader's choice.
		return nil, errors.New("the file reads both as a YAML document and as a boot loader's script naming " + ParamConfig + "=, and the boot loader runs it as a script; keep the document and the script apart")
	}
	itself := &Delivery{Data: data, parsed: parsed}
	if !schema.IsCloudConfig(data) || root == nil {
		// Not a cloud-config, or not YAML: the schema reads it as it is,
		// and reports a syntax error with its line.
		return itself, nil
	}
	// Which write_files, and which corium:, a repeated key would have the
	// agent read is not the one cloud-init keeps.
	if dups := schema.CloudConfigDuplicates(topMapping(root)); len(dups) > 0 {
		f := dups[0]
		return nil, fmt.Errorf("line %d: %s: %s", f.Line, f.Path, f.Message)
	}
	files, err := writeFiles(root, data)
	if err != nil {
		return nil, err
	}
	if files = writtenAt(files, FilePath); len(files) == 0 {
		return itself, nil // the block is under corium:, if anywhere
	}
	d, err = deliverWritten(files)
	if err == nil && topValue(root, schema.BlockKey) != nil {
		d.Notes = append(d.Notes, Note{schema.BlockKey, "is never read: " + FilePath + ", which write_files writes, comes first in the agent's sources; keep one of the two"})
	}
	return d, err
}

// UnpackFile is Unpack of a file that may be named for a boot loader's
// script (a suffix of the loader table's, .cfg, .ipxe): such a file is read
// as that loader's script alone, never as YAML, since the loader never
// reads it as anything else.
func UnpackFile(name string, data []byte) (*Delivery, error) {
	for _, l := range loaders {
		for _, suffix := range l.Suffixes {
			if !strings.HasSuffix(name, suffix) {
				continue
			}
			d, ok, err := l.unpack(data)
			switch {
			case err != nil:
				return nil, err
			case !ok:
				return nil, fmt.Errorf("a %s file is read as %s, and this one boots no kernel line naming %s=; name a YAML document .yaml, or make the script again with corium-agent cmdline %s", suffix, l.Noun, ParamConfig, l.Flag())
			}
			return d, nil
		}
	}
	return Unpack(data)
}

// commandLine says whether data is a kernel command line naming a corium
// document: one line holding corium.config=. A YAML document is never one
// line with such a word.
func commandLine(data []byte) (string, bool) {
	// Looked at as bytes: a document of many lines is not copied to be
	// turned down.
	trimmed := bytes.TrimSpace(data)
	if bytes.ContainsAny(trimmed, "\n\r") {
		return "", false
	}
	line := string(trimmed)
	_, ok := parseCmdline(line).get(ParamConfig)
	return line, ok
}

// lineOf is the number of the line data's text starts on: the line of a
// file holding one line, after the blank lines before it.
func lineOf(data []byte) int {
	lead := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	return 1 + bytes.Count(data[:lead], []byte("\n"))
}

// unpackCmdline reads the document line carries; at is the file's line
// holding it, via says where it is in the file, quoted how the line was
// taken out of it.
func unpackCmdline(line string, at int, via, quoted string) (*Delivery, error) {
	val, _ := parseCmdline(line).get(ParamConfig)
	if !hasScheme(val, "data") {
		return nil, fmt.Errorf("%s= does not carry the document inline (data:), so it is read only at boot; check the document it names instead", ParamConfig)
	}
	p, err := ReadParams(line)
	if err != nil {
		return nil, err
	}
	n, err := p.ReadInline()
	switch {
	case err != nil:
		return nil, err
	case n.Absent != "":
		return nil, errors.New(n.Absent + "; it must hold a corium block")
	}
	_, how, _ := strings.Cut(n.Detail, "(")
	size := MeasureCmdline(line)
	return &Delivery{Data: n.Data, Via: via, How: quoted + "data: URL, " + strings.TrimSuffix(how, ")"), OnCmdline: true, Pin: p.Pin, Cmdline: &size, Credentials: LineCredentials(line), tree: n.Tree, place: ParamConfig, carrier: at}, nil
}

// topMapping is the document's top-level mapping, nil when it has none.
func topMapping(root *yaml.Node) *yaml.Node {
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return root.Content[0]
}

// writtenAt keeps the entries that write p.
func writtenAt(files []WriteFile, p string) []WriteFile {
	var out []WriteFile
	for _, f := range files {
		if f.Path == p {
			out = append(out, f)
		}
	}
	return out
}

// deliverWritten is the file cloud-init leaves at /etc/corium/config.yaml:
// each entry replaces what the one before wrote, or adds to it (append).
func deliverWritten(entries []WriteFile) (*Delivery, error) {
	d := &Delivery{}
	var via []string
	for _, f := range entries {
		at := fmt.Sprintf("write_files[%d]", f.Index)
		if f.Defer {
			// cloud-init's final stage runs after corium-agent.
			return nil, fmt.Errorf("%s.defer: writes %s in cloud-init's final stage, after corium-agent has read its configuration; drop defer", at, FilePath)
		}
		if !f.Append {
			d.Data, via = nil, nil
		}
		d.Data = append(d.Data, f.Content...)
		via = append(via, at+".content")
		d.How = f.Encoding
		d.line, d.indent, d.carrier = f.blockLine, f.blockIndent, f.contentLine
		if f.Unknown {
			d.Notes = append(d.Notes, Note{at + ".encoding", "is not an encoding cloud-init knows, so it writes the content as it stands; use b64, gzip or gz+b64, or drop encoding for plain text"})
		}
		if groupOrOtherReadable(f.Permissions) {
			d.Notes = append(d.Notes, Note{at + ".permissions", "lets other users of the node read the configuration, which may carry join material; use \"0600\""})
		}
	}
	d.Via = strings.Join(via, "+")
	if len(via) > 1 {
		d.line, d.carrier = 0, 0 // several entries make the file: no one place in the cloud-config
	}
	return d, nil
}
