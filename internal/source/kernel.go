package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
)

const (
	defaultWait = 2 * time.Minute
	maxWait     = time.Hour
	maxBody     = 1 << 20
)

// kernelLine is /proc/cmdline read once per run, with the chain's
// parameters on it: Find needs the pin before the first source, the
// command line source its document.
type kernelLine struct {
	absent string // why there is no line
	err    error  // reading it, or its parameters, failed
	params params
}

func readKernelLine(root rootfs.Root) *kernelLine {
	raw, err := root.ReadFile(CmdlinePath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &kernelLine{absent: CmdlinePath + " does not exist"}
	case err != nil:
		return &kernelLine{err: fmt.Errorf("reading %s: %w", CmdlinePath, bare(err))}
	}
	p, err := readParams(string(raw))
	return &kernelLine{err: err, params: p}
}

// binding is the pin the line carries; nil when it carries none.
func (k *kernelLine) binding() *binding {
	if !k.params.pinned || k.err != nil {
		return nil
	}
	return &binding{pin: k.params.pin, shown: k.params.shown}
}

// tryCmdline is source 3: corium.config= on the kernel command line.
func tryCmdline(ctx context.Context, o *Options, k *kernelLine) (answer, error) {
	switch {
	case k.err != nil:
		return answer{}, k.err
	case k.absent != "":
		return answer{absent: k.absent}, nil
	}
	return k.params.read(ctx, o)
}

// fromCmdline reads the document a kernel command line names.
func fromCmdline(ctx context.Context, o *Options, line string) (answer, error) {
	p, err := readParams(line)
	if err != nil {
		return answer{}, err
	}
	return p.read(ctx, o)
}

// read reads the document the checked parameters name.
func (p params) read(ctx context.Context, o *Options) (answer, error) {
	if !p.hasConfig {
		return answer{absent: paramConfig + "= is not on the kernel command line"}, nil
	}
	var (
		val, pin, shown = p.config, p.pin, p.shown
		data            []byte
		err             error
		notes           []string // for the provenance of a used document
	)
	switch {
	case strings.HasPrefix(val, "/"):
		data, err = o.Root.ReadFile(val)
		if errors.Is(err, fs.ErrNotExist) {
			if pin != "" {
				// A pin names one document: the line says which config this
				// node must run, so falling through to a later source (a
				// baked default) would run another.
				return answer{}, fmt.Errorf("%s=%s: the file does not exist, and %s= pins the document it must hold; provide the file or drop the pin",
					paramConfig, val, paramSHA256)
			}
			return answer{absent: paramConfig + "=" + val + ": the file does not exist"}, nil
		}
		if err != nil {
			return answer{}, fmt.Errorf("%s=%s: reading: %w", paramConfig, val, bare(err))
		}
		if blank(data) && pin == "" {
			return answer{absent: paramConfig + "=" + val + ": the file is empty"}, nil
		}
	case hasScheme(val, "data"):
		if data, err = decodeDataURL(val); err != nil {
			if p.cut != "" {
				return answer{}, truncated(p.cut, err.Error())
			}
			return answer{}, fmt.Errorf("%s=data:...: %w", paramConfig, err)
		}
		notes = append(notes, fmt.Sprintf("%d bytes inline", len(data)))
	default: // https, or http with a pin: readParams refused every other form
		if data, err = fetchConfig(ctx, o, val, pin != "", p.wait); err != nil {
			return answer{}, fmt.Errorf("%s: %w", paramConfig, err) // fetch names the URL
		}
	}

	if err := checkPin(data, pin); err != nil {
		if p.cut != "" {
			return answer{}, truncated(p.cut, "the document's digest does not match the pin")
		}
		return answer{}, fmt.Errorf("%s=%s: %w", paramConfig, shown, err)
	}
	if blank(data) {
		return answer{}, fmt.Errorf("%s=%s: the document is empty", paramConfig, shown)
	}
	tree, absent, err := inspect(data, false)
	if err != nil {
		return answer{}, fmt.Errorf("%s=%s: %w", paramConfig, shown, err)
	}
	switch {
	case absent != "" && pin != "":
		// Absent would hand the node to the image default: another document.
		return answer{}, fmt.Errorf("%s=%s: %s, and %s= pins this document, so no other source may stand in; put the corium block in it, or drop the pin",
			paramConfig, shown, absent, paramSHA256)
	case absent != "":
		return answer{absent: paramConfig + "=" + shown + ": " + absent}, nil
	}
	if pin != "" {
		notes = append(notes, "sha256 verified")
	}
	detail := paramConfig + "=" + shown
	if len(notes) > 0 {
		detail += " (" + strings.Join(notes, ", ") + ")"
	}
	return answer{data: data, tree: tree, detail: detail, onCmdline: hasScheme(val, "data")}, nil
}
