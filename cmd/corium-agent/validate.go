package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

func init() {
	register("validate", command{summary: "check configuration files offline (exit 0 valid, 1 invalid, 2 usage)", run: runValidate})
}

// validateReport is one file's result in --format json. The shape is stable:
//
//	{"files": [{"file": "node.yaml", "valid": false, "shape": "standalone",
//	  "findings": [{"path": "wireguard[0].mtu", "line": 9, "col": 10,
//	                "severity": "error", "message": "must be at least 576"}],
//	  "error": "reading node.yaml: ..."}]}
//
// "shape" is standalone, embedded or none; "error" is set only when the file
// could not be read (then "valid" is false and there are no findings).
type validateReport struct {
	File     string          `json:"file"`
	Valid    bool            `json:"valid"`
	Shape    string          `json:"shape,omitempty"`
	Findings schema.Findings `json:"findings"`
	Error    string          `json:"error,omitempty"`
}

func runValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", " FILE...", "Checks configuration files offline, as a node reads them; - reads standard input.\nExit 0 valid, 1 invalid, 2 usage or an unreadable file.", stderr)
	strict := fs.Bool("strict", false, "treat warnings as errors")
	usedFor := fs.String("for", "", "add the checks for where the files are used: cmdline (a document for corium.config=data:)")
	format := formatFlag(fs)
	files, code, ok := parseFlags(fs, args, stdout)
	if !ok {
		return code
	}
	if !checkFormat(stderr, "validate", *format) {
		return exitUsage
	}
	var opts []schema.Option
	forCmdline := false
	switch *usedFor {
	case "":
	case "cmdline":
		opts, forCmdline = append(opts, schema.ForCmdline()), true
	default:
		fmt.Fprintf(stderr, "corium-agent validate: --for %q: the only use with checks of its own is cmdline\n", *usedFor)
		return exitUsage
	}
	if len(files) == 0 {
		return usageError(fs, "no file to check; name one, or - for standard input")
	}
	if readsStdinTwice(files) {
		return usageError(fs, "- (standard input) can be read once")
	}
	reports := make([]validateReport, 0, len(files))
	for _, file := range files {
		if ctx.Err() != nil {
			// Stopped (SIGTERM): say so once, and check no further file.
			fmt.Fprintf(stderr, "corium-agent validate: stopped before %s: %v\n", file, context.Cause(ctx))
			return exitFailed
		}
		r := validateFile(ctx, file, *strict, forCmdline, opts...)
		switch {
		case ctx.Err() != nil:
			code = exitFailed
		case r.Error != "":
			code = exitUsage
		case !r.Valid && code == exitOK:
			code = exitFailed
		}
		reports = append(reports, r)
		if *format == "text" {
			printText(stdout, stderr, r)
		}
	}
	if *format == "json" {
		if err := writeJSON(stdout, struct {
			Files []validateReport `json:"files"`
		}{reports}); err != nil {
			fmt.Fprintf(stderr, "corium-agent validate: writing json: %v\n", err)
			return exitFailed
		}
	}
	return code
}

func validateFile(ctx context.Context, file string, strict, forCmdline bool, opts ...schema.Option) validateReport {
	data, name, err := readInput(file)
	r := validateReport{File: name, Findings: schema.Findings{}}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	doc, findings, err := schema.Check(ctx, data, opts...)
	var syn *schema.SyntaxError
	switch {
	case errors.As(err, &syn):
		r.Shape = schema.ShapeNone.String()
		r.Findings = schema.Findings{syn.Finding()}
		return r
	case err != nil:
		r.Error = err.Error()
		return r
	}
	r.Shape = doc.Shape.String()
	if forCmdline {
		if f := cmdlineFit(source.InlineParams(data)); f != nil {
			findings = append(findings, *f)
		}
	}
	r.Findings = findings
	r.Valid = len(r.Findings.Errors()) == 0 && (!strict || len(r.Findings.Warnings()) == 0)
	return r
}

// printText writes one line per finding, FILE:LINE:COL: [warning: ]PATH:
// message, the form editors and grep understand.
func printText(stdout, stderr io.Writer, r validateReport) {
	if r.Error != "" {
		fmt.Fprintf(stderr, "corium-agent validate: %s\n", r.Error)
		return
	}
	for _, f := range r.Findings {
		fmt.Fprintln(stdout, formatFinding(r.File, f))
	}
	if r.Valid {
		fmt.Fprintf(stdout, "%s: valid\n", r.File)
	}
}

func formatFinding(file string, f schema.Finding) string {
	pos := file
	if f.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", file, f.Line, max(f.Col, 1))
	}
	sev := ""
	if f.Severity == schema.SeverityWarning {
		sev = " warning:"
	}
	return fmt.Sprintf("%s:%s %s", pos, sev, f)
}
