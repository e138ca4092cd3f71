package chain

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/source"
)

// maxBody bounds a fetched document.
const maxBody = 1 << 20

// kernelLine is /proc/cmdline read once per run, with the chain's
// parameters on it: Find needs the pin before the first source, the
// command line source its document.
type kernelLine struct {
	absent string // why there is no line
	err    error  // reading it, or its parameters, failed
	params source.Params
}

func readKernelLine(root rootfs.Root) *kernelLine {
	raw, err := root.ReadFile(CmdlinePath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &kernelLine{absent: CmdlinePath + " does not exist"}
	case err != nil:
		return &kernelLine{err: fmt.Errorf("reading %s: %w", CmdlinePath, bare(err))}
	}
	p, err := source.ReadParams(string(raw))
	return &kernelLine{err: err, params: p}
}

// binding is the pin the line carries; nil when it carries none.
func (k *kernelLine) binding() *binding {
	if !k.params.Pinned || k.err != nil {
		return nil
	}
	return &binding{pin: k.params.Pin, shown: k.params.Shown}
}

// tryCmdline is source 3: corium.config= on the kernel command line.
func tryCmdline(ctx context.Context, o *Options, k *kernelLine) (answer, error) {
	switch {
	case k.err != nil:
		return answer{}, k.err
	case k.absent != "":
		return answer{absent: k.absent}, nil
	}
	return read(ctx, o, k.params)
}

// read reads the document the checked parameters name: a file under the
// root, a URL through the one HTTPS client, or the document inline.
func read(ctx context.Context, o *Options, p source.Params) (answer, error) {
	if !p.HasConfig {
		return answer{absent: source.ParamConfig + "= is not on the kernel command line"}, nil
	}
	if p.Inline() {
		return named(p.ReadInline())
	}
	val, pin := p.Config, p.Pin
	if !strings.HasPrefix(val, "/") { // https, or http with a pin: source.ReadParams refused every other form
		data, err := fetchConfig(ctx, o, val, pin != "", p.Wait)
		if err != nil {
			return answer{}, fmt.Errorf("%s: %w", source.ParamConfig, err) // fetch names the URL
		}
		return named(p.Accept(data))
	}
	data, err := o.Root.ReadFile(val)
	if errors.Is(err, fs.ErrNotExist) {
		if pin != "" {
			// A pin names one document: the line says which config this
			// node must run, so falling through to a later source (a
			// baked default) would run another.
			return answer{}, fmt.Errorf("%s=%s: the file does not exist, and %s= pins the document it must hold; provide the file or drop the pin",
				source.ParamConfig, val, source.ParamSHA256)
		}
		return answer{absent: source.ParamConfig + "=" + val + ": the file does not exist"}, nil
	}
	if err != nil {
		return answer{}, fmt.Errorf("%s=%s: reading: %w", source.ParamConfig, val, bare(err))
	}
	if source.Blank(data) && pin == "" {
		return answer{absent: source.ParamConfig + "=" + val + ": the file is empty"}, nil
	}
	return named(p.Accept(data))
}

// named is the answer of a judged document.
func named(n source.Named, err error) (answer, error) {
	if err != nil {
		return answer{}, err
	}
	return answer{data: n.Data, tree: n.Tree, absent: n.Absent, detail: n.Detail, onCmdline: n.OnCmdline}, nil
}
