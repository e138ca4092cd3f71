package source

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// Named is the document a kernel command line names, judged: its bytes and
// tree, or why the command line hands over none.
type Named struct {
	Data []byte
	Tree *schema.Tree
	// Absent says why there is no document to run, when a later source may
	// stand in (nothing pins this one); "" when there is one.
	Absent string
	// Detail says where the document came from, for the provenance:
	// "corium.config=data:... (812 bytes inline, sha256 verified)".
	Detail string
	// OnCmdline says the document itself is on the command line.
	OnCmdline bool
}

// Inline says whether corium.config= carries the document itself (data:),
// which needs nothing read to be had.
func (p Params) Inline() bool { return hasScheme(p.Config, "data") }

// ReadInline decodes the document corium.config=data: carries and judges
// it (Accept). Only the pin can show that a line the kernel cut at its
// limit did not cut the document.
func (p Params) ReadInline() (Named, error) {
	data, err := decodeDataURL(p.Config)
	if err != nil {
		if p.cut != "" {
			return Named{}, truncated(p.cut, err.Error())
		}
		return Named{}, fmt.Errorf("%s=data:...: %w", ParamConfig, err)
	}
	return p.Accept(data, fmt.Sprintf("%d bytes inline", len(data)))
}

// Accept judges data, the document corium.config= names however it was
// read (a file, a URL, inline): it must match the pin, hold something, and
// hold a corium block unless nothing pins it (then it is absent). notes say,
// for the provenance, how it was read.
func (p Params) Accept(data []byte, notes ...string) (Named, error) {
	pin, shown := p.Pin, p.Shown
	if err := CheckPin(data, pin); err != nil {
		if p.cut != "" {
			return Named{}, truncated(p.cut, "the document's digest does not match the pin")
		}
		return Named{}, fmt.Errorf("%s=%s: %w", ParamConfig, shown, err)
	}
	if Blank(data) {
		return Named{}, fmt.Errorf("%s=%s: the document is empty", ParamConfig, shown)
	}
	tree, absent, err := Inspect(data, false)
	if err != nil {
		return Named{}, fmt.Errorf("%s=%s: %w", ParamConfig, shown, err)
	}
	switch {
	case absent != "" && pin != "":
		// Absent would hand the node to the image default: another document.
		return Named{}, fmt.Errorf("%s=%s: %s, and %s= pins this document, so no other source may stand in; put the corium block in it, or drop the pin",
			ParamConfig, shown, absent, ParamSHA256)
	case absent != "":
		return Named{Absent: ParamConfig + "=" + shown + ": " + absent}, nil
	}
	if pin != "" {
		notes = append(notes, "sha256 verified")
	}
	detail := ParamConfig + "=" + shown
	if len(notes) > 0 {
		detail += " (" + strings.Join(notes, ", ") + ")"
	}
	return Named{Data: data, Tree: tree, Detail: detail, OnCmdline: p.Inline()}, nil
}
