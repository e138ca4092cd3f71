package source

import (
	"fmt"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/secret"
)

// Params are the agent's parameters on a kernel command line, checked
// before anything they name is read: the pin decides how every other
// source is read, so it must be known, and whole, first.
type Params struct {
	Config    string // corium.config=
	HasConfig bool
	// Pinned says corium.config.sha256= is on the line, whatever its value:
	// it binds the node, so a malformed one fails rather than unbinds.
	Pinned bool
	Pin    string // the checked digest, lowercase hex
	// Wait is how long a corium.config= URL may take to be there.
	Wait  time.Duration
	Shown string // corium.config= as it may be logged
	cut   string // the parameter the kernel cut off (cutParam)
}

// ReadParams checks the agent's parameters on line; with neither
// corium.config= nor a pin, there is nothing to check and the command line
// names no document.
func ReadParams(line string) (Params, error) {
	// The kernel appends a newline to the line it kept.
	line = strings.TrimSuffix(line, "\n")
	args := parseCmdline(line)
	p := Params{Wait: defaultWait}
	p.Config, p.HasConfig = args.get(ParamConfig)
	rawPin, pinned := args.get(ParamSHA256)
	p.Pinned = pinned
	if !p.HasConfig && !pinned && len(LineCredentials(line)) == 0 {
		return p, nil
	}
	// A line that hands the agent anything is read alike by the kernel,
	// PID 1 and the agent, and sets it no credential in the clear.
	if err := CheckBootLine(line); err != nil {
		return p, err
	}
	if !p.HasConfig && !pinned {
		return p, nil
	}
	// A line cut at the kernel's limit would otherwise read as a document
	// with fields missing, a pin that is not hex, or a path that does not
	// exist (and so a source that is absent).
	p.cut = cutParam(line)
	switch p.cut {
	case ParamSHA256, ParamWait:
		return p, truncated(p.cut, "")
	}
	var err error
	if pinned {
		if p.Pin, err = parsePin(rawPin); err != nil {
			return p, err
		}
	}
	if !p.HasConfig {
		// Cut right after the pin (it comes first, see InlineParams), or
		// never written: either way no source may stand in for the pinned one.
		return p, fmt.Errorf("%s= pins a document, but %s= is not on the kernel command line to name it; add %s= naming the document, or drop the pin",
			ParamSHA256, ParamConfig, ParamConfig)
	}
	if v, ok := args.get(ParamWait); ok {
		if p.Wait, err = parseWait(v); err != nil {
			return p, err
		}
	}

	// Only an inline document can show, by its pin, that it was not cut: a
	// cut path or URL names something else, which is not worth waiting for.
	switch {
	case p.cut == ParamConfig && !hasScheme(p.Config, "data"):
		return p, truncated(p.cut, "")
	case p.cut == ParamConfig && p.Pin == "":
		return p, truncated(p.cut, "without "+ParamSHA256+"= before it, a complete line of this length cannot be told from a cut one")
	}

	switch val := p.Config; {
	case val == "":
		return p, fmt.Errorf("%s= is empty; give an absolute path, an https:// URL or a data: URL", ParamConfig)
	case strings.HasPrefix(val, "/"):
		p.Shown = val
	case hasScheme(val, "https"), hasScheme(val, "http"):
		p.Shown = secret.ShownURL(val)
		if hasScheme(val, "http") && p.Pin == "" {
			return p, fmt.Errorf("%s=%s: plain http is refused without %s= (a configuration carries join material and must not be forgeable in transit); use https:// or pin the document's digest",
				ParamConfig, p.Shown, ParamSHA256)
		}
	case hasScheme(val, "data"):
		p.Shown = "data:..." // the document itself, join material included
	default:
		what := "a relative path"
		if scheme, _, ok := strings.Cut(val, ":"); ok && !strings.ContainsAny(scheme, "/ ") {
			what = fmt.Sprintf("a %q URL", scheme)
		}
		return p, fmt.Errorf("%s= holds %s; give an absolute path, an https:// URL (http:// with %s=) or a data: URL",
			ParamConfig, what, ParamSHA256)
	}
	return p, nil
}

// defaultWait and maxWait bound corium.config.wait=.
const (
	defaultWait = 2 * time.Minute
	maxWait     = time.Hour
)

func parseWait(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s=%q is not a Go duration (for example 5m or 90s)", ParamWait, v)
	case d < 0:
		return 0, fmt.Errorf("%s=%s is negative", ParamWait, v)
	case d > maxWait:
		return 0, fmt.Errorf("%s=%s is longer than the 1h maximum", ParamWait, v)
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
