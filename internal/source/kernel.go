package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/secret"
)

const (
	defaultWait = 2 * time.Minute
	maxWait     = time.Hour
	maxBody     = 1 << 20
)

// tryCmdline is source 3: corium.config= on the kernel command line.
func tryCmdline(ctx context.Context, o *Options) (answer, error) {
	raw, err := o.Root.ReadFile(CmdlinePath)
	if errors.Is(err, fs.ErrNotExist) {
		return answer{absent: CmdlinePath + " does not exist"}, nil
	}
	if err != nil {
		return answer{}, fmt.Errorf("reading %s: %w", CmdlinePath, bare(err))
	}
	return fromCmdline(ctx, o, string(raw))
}

// fromCmdline reads the document a kernel command line names.
func fromCmdline(ctx context.Context, o *Options, line string) (answer, error) {
	// The kernel appends a newline to the line it kept.
	line = strings.TrimSuffix(line, "\n")
	args := parseCmdline(line)
	val, ok := args.get(paramConfig)
	if !ok {
		return answer{absent: paramConfig + "= is not on the kernel command line"}, nil
	}
	// A line cut at the kernel's limit would otherwise read as a document
	// with fields missing, a pin that is not hex, or a path that does not
	// exist (and so a source that is absent).
	cut := cutParam(line)
	switch cut {
	case paramSHA256, paramWait:
		return answer{}, truncated(cut, "")
	}
	var err error
	pin := ""
	if v, ok := args.get(paramSHA256); ok {
		if pin, err = parsePin(v); err != nil {
			return answer{}, err
		}
	}
	wait := defaultWait
	if v, ok := args.get(paramWait); ok {
		if wait, err = parseWait(v); err != nil {
			return answer{}, err
		}
	}

	// Only an inline document can show, by its pin, that it was not cut: a
	// cut path or URL names something else, which is not worth waiting for.
	switch {
	case cut == paramConfig && !hasScheme(val, "data"):
		return answer{}, truncated(cut, "")
	case cut == paramConfig && pin == "":
		return answer{}, truncated(cut, "without "+paramSHA256+"= before it, a complete line of this length cannot be told from a cut one")
	}

	var (
		data  []byte
		shown string   // the value as it may be logged
		notes []string // for the provenance of a used document
	)
	switch {
	case val == "":
		return answer{}, fmt.Errorf("%s= is empty; give an absolute path, an https:// URL or a data: URL", paramConfig)
	case strings.HasPrefix(val, "/"):
		shown = val
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
	case hasScheme(val, "https"), hasScheme(val, "http"):
		shown = secret.ShownURL(val)
		if hasScheme(val, "http") && pin == "" {
			return answer{}, fmt.Errorf("%s=%s: plain http is refused without %s= (a configuration carries join material and must not be forgeable in transit); use https:// or pin the document's digest",
				paramConfig, shown, paramSHA256)
		}
		if data, err = fetchConfig(ctx, o, val, pin != "", wait); err != nil {
			return answer{}, fmt.Errorf("%s: %w", paramConfig, err) // fetch names the URL
		}
	case hasScheme(val, "data"):
		if data, err = decodeDataURL(val); err != nil {
			if cut != "" {
				return answer{}, truncated(cut, err.Error())
			}
			return answer{}, fmt.Errorf("%s=data:...: %w", paramConfig, err)
		}
		shown = "data:..." // the document itself, join material included
		notes = append(notes, fmt.Sprintf("%d bytes inline", len(data)))
	default:
		what := "a relative path"
		if scheme, _, ok := strings.Cut(val, ":"); ok && !strings.ContainsAny(scheme, "/ ") {
			what = fmt.Sprintf("a %q URL", scheme)
		}
		return answer{}, fmt.Errorf("%s= holds %s; give an absolute path, an https:// URL (http:// with %s=) or a data: URL",
			paramConfig, what, paramSHA256)
	}

	if err := checkPin(data, pin); err != nil {
		if cut != "" {
			return answer{}, truncated(cut, "the document's digest does not match the pin")
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
	if absent != "" {
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

func parseWait(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s=%q is not a Go duration (for example 5m or 90s)", paramWait, v)
	case d < 0:
		return 0, fmt.Errorf("%s=%s is negative", paramWait, v)
	case d > maxWait:
		return 0, fmt.Errorf("%s=%s is longer than the 1h maximum", paramWait, v)
	}
	return d, nil
}

func hasScheme(v, scheme string) bool {
	_, ok := cutPrefixFold(v, scheme+":")
	if scheme == "data" {
		return ok
	}
	_, ok = cutPrefixFold(v, scheme+"://")
	return ok
}
