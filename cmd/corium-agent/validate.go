package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

func init() {
	register("validate", command{summary: "check configuration files offline (exit 0 valid, 1 invalid, 2 usage)", run: runValidate})
}

// validateReport is one file's result in --format json. The shape is stable:
//
//	{"files": [{"file": "node.yaml", "valid": false, "shape": "standalone",
//	  "via": "write_files[0].content (gz+b64)", "positionsIn": "document",
//	  "findings": [{"path": "wireguard[0].mtu", "line": 9, "col": 10,
//	                "severity": "error", "message": "must be at least 576"}],
//	  "error": "reading node.yaml: ..."}],
//	 "cluster": {"valid": false, "findings": [{"file": "w1.yaml", "path": ...,
//	   "line": ..., "col": ..., "severity": ..., "message": ...,
//	   "related": [{"file": "a1.yaml", "path": ..., "line": ..., "col": ...}]}],
//	   "error": "..."}}
//
// "shape" is standalone, embedded or none; "error" is set only when the file
// could not be read (then "valid" is false and there are no findings).
// "via" says where in the file the document is when it is not the file
// itself (a cloud-config's write_files, a kernel command line's
// corium.config=); "positionsIn" is "document" when line and col count in
// that document, not in the file (it was encoded). "cluster" is there with
// --cluster only.
type validateReport struct {
	File        string          `json:"file"`
	Valid       bool            `json:"valid"`
	Shape       string          `json:"shape,omitempty"`
	Via         string          `json:"via,omitempty"`
	PositionsIn string          `json:"positionsIn,omitempty"`
	Findings    schema.Findings `json:"findings"`
	Error       string          `json:"error,omitempty"`

	node cluster.Node // the file as the cluster check takes it
	// text is each of Findings as printed (findingText), made while the
	// delivery is at hand.
	text []string
	// errors and warnings are counted before the findings are capped, for
	// the verdict line; strict is --strict.
	errors, warnings int
	strict           bool
	// notRead: an entry found in a directory and not read (notReadError).
	notRead bool
}

// validateAbout is validate's help, naming the shapes it reads: the
// directory's documentSuffixes and each boot loader's script
// (source.Loaders).
func validateAbout() string {
	var nouns, flags []string
	for _, l := range source.Loaders() {
		nouns = append(nouns, l.Noun)
		flags = append(flags, l.Flag())
	}
	return "Checks configuration files offline, as a node reads them; - reads standard input,\n" +
		"a directory its documents (*" + strings.Join(documentSuffixes, ", *") + ", user-data), sorted.\n" +
		"A file is a node document, a cloud-config (corium: or write_files), a kernel\n" +
		"command line, " + spokenList(nouns, "or") + " (as cmdline " + strings.Join(flags, ", ") + " print them).\n" +
		"Exit 0 valid, 1 invalid, 2 usage or an unreadable file."
}

func runValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", " FILE|DIR...", validateAbout(), stderr)
	strict := fs.Bool("strict", false, "treat warnings as errors")
	usedFor := fs.String("for", "", "add the checks for where the files are used: cmdline (a document for corium.config=data:)")
	asCluster := fs.Bool("cluster", false, "also check that the files are the nodes of one cluster")
	topoFile := fs.String("topology", "", "with --cluster, the set's topology (`file` NAME"+cluster.TopologySuffix+"): its sites and the addresses a node behind a 1:1 NAT is reached at from where")
	factsFile := fs.String("facts", "", "also run the checks plan runs with the host's network as JSON (`file`, as corium-agent facts prints it on the node); with --cluster, a directory of each node's, NODE.json by node name or file name")
	format := formatFlag(fs)
	files, code, ok := parseFlags(fs, args, stdout)
	if !ok {
		return code
	}
	if !checkFormat(stderr, "validate", *format) {
		return exitUsage
	}
	if *asCluster {
		collectForSet()
	}
	c := checks{strict: *strict}
	switch *usedFor {
	case "":
	case "cmdline":
		c.opts, c.forCmdline = append(c.opts, schema.ForCmdline()), true
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
	var err error
	files, c.found, err = expandDirs(files)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	topo, err := topologyFlag(*topoFile, *asCluster, files)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	var unread []validateReport // entries of directories not read, named last
	if *factsFile != "" {
		if c.facts, c.byNode, unread, err = readFactsFlag(*factsFile, *asCluster); err != nil {
			return usageError(fs, "--facts: %v", err)
		}
	}
	reports := make([]validateReport, 0, len(files))
	checked := validateAll(ctx, files, c)
	for i, file := range files {
		r, ok := checked.next(ctx, i)
		if !ok {
			// Stopped (SIGTERM): say so once, and check no further file.
			fmt.Fprintf(stderr, "corium-agent validate: stopped before %s: %v\n", file, context.Cause(ctx))
			return exitFailed
		}
		if !*asCluster {
			r.node = cluster.Node{} // the document is not needed once printed
		}
		reports = append(reports, r)
		if *format == "text" && !*asCluster && !r.notRead {
			printText(stdout, stderr, r)
		}
	}
	files, reports, aside := setAside(files, reports)
	unread = append(aside, unread...)
	if err := factsUsed(c.byNode, reports); err != nil {
		return usageError(fs, "--facts %s: %v", *factsFile, err)
	}
	var set *clusterReport
	if *asCluster {
		// What the set shows changes what a document's own check says
		// (validate_cluster_vip.go): the files are printed once it is known.
		reports = withSetFacts(ctx, files, reports, c)
		if *format == "text" {
			for _, r := range reports {
				printText(stdout, stderr, r)
			}
		}
	}
	for _, r := range reports {
		code = fileCode(ctx, code, r)
	}
	if *asCluster {
		set = checkCluster(reports, *strict, topo)
		if !set.Valid && code == exitOK {
			code = exitFailed
		}
		if *format == "text" {
			printCluster(stdout, stderr, set, len(reports))
		}
	}
	// What a directory held (under a document's name, or --facts DIR's)
	// and validate did not read is named, as a file that cannot be read is.
	for _, r := range unread {
		if *format == "text" {
			printText(stdout, stderr, r)
		}
		reports = append(reports, r)
		code = fileCode(ctx, code, r)
	}
	if *format == "json" {
		if err := writeJSON(stdout, struct {
			Files   []validateReport `json:"files"`
			Cluster *clusterReport   `json:"cluster,omitempty"`
		}{reports, set}); err != nil {
			fmt.Fprintf(stderr, "corium-agent validate: writing json: %v\n", err)
			return exitFailed
		}
	}
	return code
}

// checks are what validate checks each file for.
type checks struct {
	strict, forCmdline bool
	opts               []schema.Option
	// facts are the host's (--facts): a valid document is then checked as
	// plan checks it on that host.
	facts *hostfacts.Facts
	// byNode are each node's facts (--cluster --facts DIR), by file name
	// less .json (validate_facts_dir.go); nil with one facts file.
	byNode map[string]*hostfacts.Facts
	// found are the files found by listing a directory (expandDirs), read
	// only when they are regular files.
	found map[string]bool
}

func validateFile(ctx context.Context, file string, c checks) validateReport {
	data, name, err := c.read(file)
	r := validateReport{File: name, Findings: schema.Findings{}}
	if err != nil {
		r.Error, r.notRead = err.Error(), errors.As(err, new(*notReadError))
		return r
	}
	// The document the node reads: out of a cloud-config's write_files or a
	// kernel command line's data:, when the file is one.
	n, err := cluster.Read(ctx, name, data, c.opts...)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	facts := c.facts
	if c.byNode != nil {
		facts = c.nodeFacts(n)
		n.Facts = facts
	}
	r.node = n
	r.Shape, r.Findings = n.Shape().String(), n.Findings
	if n.Delivery.Via != "" {
		r.Via = n.Delivery.Described()
		if _, _, decoded := n.Delivery.Decoded(); decoded {
			r.PositionsIn = "document"
		}
	}
	if c.forCmdline && n.Doc != nil && n.Delivery.Cmdline == nil {
		// A command line is measured whole as it is read (cluster.Read); a
		// document is measured as the parameters cmdline makes of it.
		doc, _, err := lineDocument(n)
		switch {
		case err == nil:
			if f := cmdlineFit(strings.Join(source.InlineParams(doc), " ")); f != nil {
				r.Findings = append(r.Findings, *f)
			}
		case len(r.Findings.Errors()) == 0:
			// cmdline could not take the block out: it refuses the same.
			r.Findings = append(r.Findings, finding.Finding{Severity: finding.Error, Message: err.Error()})
		}
	}
	if c.byNode != nil && facts == nil && n.Doc != nil && n.Doc.Config != nil {
		r.Findings = append(r.Findings, finding.Finding{Severity: finding.Warning, Message: noFacts(n)})
	}
	if facts != nil && n.Doc != nil && n.Doc.Config != nil && len(r.Findings.Errors()) == 0 {
		// What plan refuses on that host, in plan's words.
		if err := bootstrap.CheckWithFacts(n.Doc.Config, *n.Doc.K0s, facts); err != nil {
			r.Findings = append(r.Findings, finding.Finding{Severity: finding.Error, Message: err.Error()})
		}
	}
	r.errors, r.warnings, r.strict = len(r.Findings.Errors()), len(r.Findings.Warnings()), c.strict
	r.Valid = r.errors == 0 && (!c.strict || r.warnings == 0)
	all := r.Findings
	r.Findings = r.Findings.Shown() // the cluster check reads r.node's, all of them
	r.text = make([]string, len(r.Findings))
	for i, f := range r.Findings {
		r.text[i] = findingText(r.File, n.Delivery, f, all)
	}
	r.node.Compact() // kept for --cluster: its tree is parsed again if a finding needs a place
	return r
}

// printText writes each finding as findingText spells it, then the
// verdict.
func printText(stdout, stderr io.Writer, r validateReport) {
	if r.Error != "" {
		fmt.Fprintf(stderr, "corium-agent validate: %s\n", r.Error)
		return
	}
	for _, text := range r.text {
		fmt.Fprintln(stdout, text)
	}
	fmt.Fprintln(stdout, verdict(r.File, r.Valid, r.errors, r.warnings, r.strict))
}

func formatFinding(file string, f finding.Finding) string {
	pos := file
	if f.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", file, f.Line, max(f.Col, 1))
	}
	return fmt.Sprintf("%s: %s%s", pos, severityWord(f), f)
}
