package chain

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// readLocal reads a source file under the root: missing or blank is absent,
// unreadable fails, otherwise the document must hold a corium block.
func readLocal(root rootfs.Root, p string, cloudConfig bool) (answer, error) {
	data, err := root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return answer{absent: p + " does not exist"}, nil
	}
	if err != nil {
		return answer{}, fmt.Errorf("reading %s: %w", p, bare(err))
	}
	if source.Blank(data) {
		return answer{absent: p + " is empty"}, nil
	}
	tree, absent, err := source.Inspect(data, cloudConfig)
	if err != nil {
		return answer{}, fmt.Errorf("reading %s: %w", p, err)
	}
	if absent != "" {
		return answer{absent: p + ": " + absent}, nil
	}
	return answer{data: data, tree: tree}, nil
}

// fromFlag reads --config FILE, which replaces the chain: with nothing to
// fall through to, every problem (missing and blank included) is a failure.
// The file is read as validate reads it (source.Unpack): a cloud-config's
// write_files, a kernel command line or a GRUB entry hands over the document
// in it, and the provenance says where in the file it was.
func fromFlag(ctx context.Context, o Options) (*Result, error) {
	p := o.ConfigFile
	res := &Result{Tried: []Attempt{}}
	fail := func(err error) (*Result, error) {
		res.record(o.Logger, Attempt{Source: p, Outcome: Failed, Reason: err.Error()})
		return res, err
	}
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		return fail(fmt.Errorf("reading %s: is a directory; name the one file that holds the node's document", p))
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return fail(fmt.Errorf("reading %s: %w", p, err))
	}
	d, err := source.Unpack(data)
	if err != nil {
		return fail(fmt.Errorf("reading %s: %w", p, err))
	}
	// A document without a block (blank, a list, a cloud-config without
	// corium:) is not absent here, with no source after it: validation
	// refuses it in validate's words.
	tree, err := d.Tree() // the parse Unpack made, not a second one
	var syn *schema.SyntaxError
	if errors.As(err, &syn) {
		err = fmt.Errorf("YAML syntax error: %w", syn)
	}
	if err != nil {
		if d.Via != "" {
			p += " (" + d.Via + ")"
		}
		return fail(fmt.Errorf("reading %s: %w", p, err))
	}
	for _, n := range d.Notes {
		o.Logger.Warn("the file's delivery of the document", "file", p, "field", n.Path, "warning", n.Message)
	}
	res.record(o.Logger, Attempt{Source: p, Outcome: Used, Reason: d.Described()})
	res.Source, res.Data, res.Tree, res.OnCmdline, res.Pin = p, d.Data, tree, d.OnCmdline, d.Pin
	return res, nil
}

// bare drops the host path from a *fs.PathError, so a message names the node
// path once, not the root-prefixed path beside it.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
