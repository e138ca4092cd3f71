package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/shown"
)

// clusterReport is the set's result with --cluster (see validateReport).
type clusterReport struct {
	Valid    bool             `json:"valid"`
	Findings cluster.Findings `json:"findings"`
	Error    string           `json:"error,omitempty"`
	// InvalidFiles are the files that failed their own check: the set is
	// no more valid than its worst document, whatever the cross-node
	// checks say.
	InvalidFiles []string `json:"invalidFiles,omitempty"`

	strict bool // --strict, for the verdict line
}

// checkCluster checks the files as the nodes of one cluster, unless one of
// them could not be read: the set is then not the one meant, and every
// finding about the missing node would mislead.
func checkCluster(reports []validateReport, strict bool, topo topologyInput) *clusterReport {
	set := &clusterReport{Findings: cluster.Findings{}, strict: strict}
	nodes := make([]cluster.Node, 0, len(reports))
	for _, r := range reports {
		if r.Error != "" {
			set.Error = "not checked as a cluster: " + shown.Text(r.File) + " could not be read"
			return set
		}
		nodes = append(nodes, r.node)
		if !r.Valid {
			set.InvalidFiles = append(set.InvalidFiles, r.File)
		}
	}
	set.Findings = append(append(cluster.Findings{}, topo.findings...), cluster.Check(nodes, cluster.WithTopology(topo.t))...)
	set.Valid = len(set.InvalidFiles) == 0 &&
		len(set.Findings.Errors()) == 0 && (!strict || len(set.Findings.Warnings()) == 0)
	return set
}

// printCluster writes the set's findings in the form of the files' own,
// each one line (findingText's rule: file names quoted, outside text in a
// message escaped).
func printCluster(stdout, stderr io.Writer, set *clusterReport, files int) {
	if set.Error != "" {
		fmt.Fprintf(stderr, "corium-agent validate: %s\n", shown.Line(set.Error))
		return
	}
	for _, f := range set.Findings {
		fmt.Fprintln(stdout, shown.Line(formatFinding(shown.Text(f.File), f.Finding)))
		printFix(stdout, f.Fix)
	}
	name := fmt.Sprintf("cluster of %d files", files)
	errors, warnings := len(set.Findings.Errors()), len(set.Findings.Warnings())
	if len(set.InvalidFiles) > 0 && errors == 0 && (!set.strict || warnings == 0) {
		// The cross-node checks passed, but a document did not: the line
		// must not read as a verdict on the whole set.
		invalid := make([]string, len(set.InvalidFiles))
		for i, f := range set.InvalidFiles {
			invalid[i] = shown.Text(f)
		}
		fmt.Fprintf(stdout, "%s: invalid: %s failed its own check (above)\n", name, strings.Join(invalid, ", "))
		return
	}
	fmt.Fprintln(stdout, verdict(name, set.Valid, errors, warnings, set.strict))
}

// printFix writes a finding's fix under it, indented: YAML to add by hand,
// never written by validate.
func printFix(w io.Writer, fix string) {
	if fix == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimSuffix(fix, "\n"), "\n") {
		fmt.Fprintln(w, "    "+shown.Line(l))
	}
}
