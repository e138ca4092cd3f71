package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/status"
)

func init() {
	register("resolve", command{summary: "show which source the configuration comes from, and the document", run: runResolve})
}

// resolved is resolve's output; its JSON form is part of the CLI contract.
type resolved struct {
	Source string          `json:"source"`
	Tried  []chain.Attempt `json:"tried"`
	// Pin is the corium.config.sha256= that binds the node to the kernel
	// command line's document, omitted when the line pins none.
	Pin    string         `json:"pin,omitempty"`
	Config *schema.Config `json:"config"`
	// Error says why Config is missing when a source failed or the document
	// is invalid.
	Error string `json:"error,omitempty"`
}

func runResolve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := newFlags("resolve", "", "Runs the source chain and shows which source the configuration comes from, each\nsource tried with its outcome, and the document with its defaults.", stderr)
	root := flags.String("root", "/", "the tree every source path is read under")
	configFile := flags.String("config", "", "read this `file` instead of running the chain")
	format := formatFlag(flags)
	if code, ok := parseNoArgs(flags, args, stdout); !ok {
		return code
	}
	if !checkFormat(stderr, "resolve", *format) || !checkRoot(stderr, "resolve", *root) || refusesTopology(stderr, "resolve", *configFile) {
		return exitUsage
	}

	// The provenance goes to stdout; the log carries only what needs
	// attention (retries, the failure).
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	res, err := chain.Find(ctx, chain.Options{Root: rootfs.New(*root), ConfigFile: *configFile, Logger: log})
	out := resolved{Source: res.Source, Tried: res.Tried, Pin: res.Pin}
	code := exitOK
	said := "" // the error as stderr's last line says it, when not out.Error
	switch {
	case err != nil:
		out.Error, code = err.Error(), exitFailed
		if *configFile != "" && errors.As(err, new(*fs.PathError)) {
			code = exitUsage
		}
	case res.Source != "":
		doc, findings, err := schema.LoadTree(ctx, res.Tree, bootstrap.ChecksFor(res)...)
		printFindings(stderr, res.Source, findings.Shown())
		if err != nil {
			out.Error, code = fmt.Sprintf("the document from %s is invalid: %v", res.Source, err), exitFailed
			// Its findings are on the lines above, with their positions.
			said = fmt.Sprintf("the document from %s is invalid: %s above", res.Source, count(len(findings.Errors()), "error"))
			break
		}
		// Shown as a plan shows it: the secrets in k0s.patch hidden too.
		if out.Config, err = doc.Config.Redacted(); err != nil {
			out.Error, code = err.Error(), exitFailed
		}
	}

	if *format == "json" {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "corium-agent resolve: encoding the output: %v\n", err)
			return exitFailed
		}
	} else if err := writeResolvedText(stdout, out); err != nil {
		fmt.Fprintf(stderr, "corium-agent resolve: %v\n", err)
		return exitFailed
	}
	if said == "" {
		said = out.Error
	}
	if said != "" {
		fmt.Fprintf(stderr, "corium-agent resolve: %s\n", said)
	}
	return code
}

func writeResolvedText(w io.Writer, out resolved) error {
	var b bytes.Buffer
	switch {
	case out.Source != "":
		fmt.Fprintf(&b, "source: %s\n", (&status.Provenance{Source: out.Source, Pin: out.Pin}).SourceLine())
	case out.Error != "":
		fmt.Fprintln(&b, "source: none (a source failed; the chain stopped there)")
	default:
		fmt.Fprintln(&b, "source: none (no source holds a corium block; the node stays unconfigured)")
	}
	if out.Source == "" && out.Pin != "" {
		fmt.Fprintf(&b, "pin: %s\n", status.PinNote(out.Pin))
	}
	fmt.Fprintln(&b, "tried:")
	for _, a := range out.Tried {
		fmt.Fprintf(&b, "  - %s: %s", a.Source, a.Outcome)
		if a.Reason != "" {
			fmt.Fprintf(&b, " (%s)", a.Reason)
		}
		b.WriteByte('\n')
	}
	if out.Config != nil {
		var doc bytes.Buffer
		enc := yaml.NewEncoder(&doc)
		enc.SetIndent(2)
		if err := enc.Encode(out.Config); err != nil {
			return fmt.Errorf("encoding the configuration: %w", err)
		}
		b.WriteString("config:\n")
		for _, line := range strings.SplitAfter(strings.TrimRight(doc.String(), "\n"), "\n") {
			b.WriteString("  " + line)
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// printFindings writes one line per finding, in document order:
// SOURCE:LINE:COL: severity: PATH: message.
func printFindings(w io.Writer, from string, findings schema.Findings) {
	for _, f := range findings {
		at := from
		if f.Line > 0 {
			at = fmt.Sprintf("%s:%d:%d", from, f.Line, f.Col)
		}
		fmt.Fprintf(w, "%s: %s: %s\n", at, f.Severity, f)
	}
}
