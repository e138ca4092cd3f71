package source

import (
	"fmt"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/secret"
)

// params are the chain's parameters on a kernel command line, checked
// before anything they name is read: the pin decides how every other
// source is read, so it must be known, and whole, first.
type params struct {
	config    string // corium.config=
	hasConfig bool
	// pinned says corium.config.sha256= is on the line, whatever its value:
	// it binds the node, so a malformed one fails rather than unbinds.
	pinned bool
	pin    string // the checked digest, lowercase hex
	wait   time.Duration
	cut    string // the parameter the kernel cut off (cutParam)
	shown  string // corium.config= as it may be logged
}

// readParams checks the chain's parameters on line; with neither
// corium.config= nor a pin, there is nothing to check and the source is
// absent.
func readParams(line string) (params, error) {
	// The kernel appends a newline to the line it kept.
	line = strings.TrimSuffix(line, "\n")
	args := parseCmdline(line)
	p := params{wait: defaultWait}
	p.config, p.hasConfig = args.get(paramConfig)
	rawPin, pinned := args.get(paramSHA256)
	p.pinned = pinned
	if !p.hasConfig && !pinned {
		return p, nil
	}
	// A line cut at the kernel's limit would otherwise read as a document
	// with fields missing, a pin that is not hex, or a path that does not
	// exist (and so a source that is absent).
	p.cut = cutParam(line)
	switch p.cut {
	case paramSHA256, paramWait:
		return p, truncated(p.cut, "")
	}
	var err error
	if pinned {
		if p.pin, err = parsePin(rawPin); err != nil {
			return p, err
		}
	}
	if !p.hasConfig {
		// Cut right after the pin (it comes first, see InlineParams), or
		// never written: either way no source may stand in for the pinned one.
		return p, fmt.Errorf("%s= pins a document, but %s= is not on the kernel command line to name it; add %s= naming the document, or drop the pin",
			paramSHA256, paramConfig, paramConfig)
	}
	if v, ok := args.get(paramWait); ok {
		if p.wait, err = parseWait(v); err != nil {
			return p, err
		}
	}

	// Only an inline document can show, by its pin, that it was not cut: a
	// cut path or URL names something else, which is not worth waiting for.
	switch {
	case p.cut == paramConfig && !hasScheme(p.config, "data"):
		return p, truncated(p.cut, "")
	case p.cut == paramConfig && p.pin == "":
		return p, truncated(p.cut, "without "+paramSHA256+"= before it, a complete line of this length cannot be told from a cut one")
	}

	switch val := p.config; {
	case val == "":
		return p, fmt.Errorf("%s= is empty; give an absolute path, an https:// URL or a data: URL", paramConfig)
	case strings.HasPrefix(val, "/"):
		p.shown = val
	case hasScheme(val, "https"), hasScheme(val, "http"):
		p.shown = secret.ShownURL(val)
		if hasScheme(val, "http") && p.pin == "" {
			return p, fmt.Errorf("%s=%s: plain http is refused without %s= (a configuration carries join material and must not be forgeable in transit); use https:// or pin the document's digest",
				paramConfig, p.shown, paramSHA256)
		}
	case hasScheme(val, "data"):
		p.shown = "data:..." // the document itself, join material included
	default:
		what := "a relative path"
		if scheme, _, ok := strings.Cut(val, ":"); ok && !strings.ContainsAny(scheme, "/ ") {
			what = fmt.Sprintf("a %q URL", scheme)
		}
		return p, fmt.Errorf("%s= holds %s; give an absolute path, an https:// URL (http:// with %s=) or a data: URL",
			paramConfig, what, paramSHA256)
	}
	return p, nil
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
