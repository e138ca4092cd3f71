package cluster

import (
	"context"
	"errors"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// Read reads one file as validate reads it, the way the node is handed it:
// the document out of what wraps it (source.UnpackFile: a boot loader's
// script by its suffix, never as YAML), parsed and validated
// with the checks its way in adds (a document inline on the kernel command
// line is readable by every user). A file that delivers no document, or no
// YAML, is a Node without a Doc whose Findings say why. The error is only
// ctx's, when it ends first.
func Read(ctx context.Context, file string, data []byte, opts ...schema.Option) (Node, error) {
	n := Node{File: file}
	d, err := source.UnpackFile(file, data)
	if err != nil {
		n.Delivery = &source.Delivery{Data: data}
		n.Findings = schema.Findings{{Severity: finding.Error, Message: err.Error()}}
		return n, nil
	}
	n.Delivery = d
	if d.OnCmdline {
		opts = append(opts, schema.ForCmdline())
	}
	// Parsed once: the document Unpack parsed to tell its shape is the one
	// checked.
	doc, findings, err := schema.CheckTree(ctx, d.Tree, opts...)
	var syn *schema.SyntaxError
	switch {
	case errors.As(err, &syn):
		findings = schema.Findings{syn.Finding()}
	case err != nil:
		return n, err
	default:
		n.Doc = doc
	}
	n.Findings = delivered(d, findings)
	if len(d.Credentials) > 0 {
		var cfg *schema.Config
		if n.Doc != nil {
			cfg = n.Doc.Config
		}
		n.Findings = append(n.Findings, source.CheckCredentials(d.Credentials, cfg)...)
	}
	return n, nil
}

// Shape is how the document holds the block: none without one.
func (n Node) Shape() schema.Shape {
	if n.Doc == nil {
		return schema.ShapeNone
	}
	return n.Doc.Shape
}

// Where names the file and says where in it the findings' lines count:
// "" when in the file itself, else the place of the document in it
// ("write_files[0].content"), which was encoded.
func (n Node) Where() string {
	if _, _, ok := n.Delivery.Position(1, 1); ok {
		return ""
	}
	return n.Delivery.Via
}

// delivered places a document's findings in the file it came in, after
// what Unpack noticed about the delivery itself, and whether a command line
// fits what the kernel keeps of it.
func delivered(d *source.Delivery, fs schema.Findings) schema.Findings {
	out := make(schema.Findings, 0, len(fs)+len(d.Notes)+1)
	for _, n := range d.Notes {
		out = append(out, finding.Finding{Path: n.Path, Severity: finding.Warning, Message: n.Message})
	}
	if d.Cmdline != nil {
		if f := source.CmdlineFit(*d.Cmdline); f != nil {
			out = append(out, *f)
		}
	}
	for _, f := range fs {
		if l, c, ok := d.Position(f.Line, f.Col); ok {
			f.Line, f.Col = l, c
		}
		out = append(out, f)
	}
	return out
}
