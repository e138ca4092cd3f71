package main

import (
	"fmt"
	"io"

	"github.com/corium/corium-agent/internal/cluster"
)

// A cluster's topology (sites, and the addresses a node behind a 1:1 NAT
// is reached at from where) describes the set, not a node: validate
// --cluster --topology FILE reads it, and nothing that configures a node
// does. Its name ends in cluster.TopologySuffix, which no directory of
// documents is read for, so plan, apply, resolve and firewall refuse it by
// that name rather than read it as a document they would refuse for its
// keys, or, worse, as a node's.

// refusesTopology says, on stderr, that file is a topology and no node's
// document, when it is one.
func refusesTopology(stderr io.Writer, cmd, file string) bool {
	if !cluster.IsTopologyName(file) {
		return false
	}
	fmt.Fprintf(stderr, "corium-agent %s: --config %s: is a cluster topology (a name ending in %s), which no node reads: it describes the set for validate --cluster --topology; give this node's own document\n", cmd, file, cluster.TopologySuffix)
	return true
}

// readTopology reads --topology: its file must be named as a topology, so
// that no directory of documents and no --config ever takes it for a
// node's document. Its own problems are findings in the file, at their
// field paths; a file that cannot be read is an error.
func readTopology(file string) (*cluster.Topology, cluster.Findings, error) {
	if !cluster.IsTopologyName(file) {
		return nil, nil, fmt.Errorf("%s: name the topology NAME%s, so that no directory of documents or --config takes it for a node's document", file, cluster.TopologySuffix)
	}
	data, name, err := readInput(file)
	if err != nil {
		return nil, nil, err
	}
	t, fs := cluster.ParseTopology(name, data)
	return t, fs, nil
}

// topologyInput is --topology read: the topology, nil when none was given
// or it has problems of its own (findings, printed first; the set is then
// checked without it, as without --topology).
type topologyInput struct {
	t        *cluster.Topology
	findings cluster.Findings
}

// topologyFlag reads --topology, which only --cluster takes; and a
// topology named among the documents is refused by name.
func topologyFlag(file string, asCluster bool, docs []string) (topologyInput, error) {
	for _, d := range docs {
		if cluster.IsTopologyName(d) {
			return topologyInput{}, fmt.Errorf("%s is a cluster topology, not a node's document: give it with --cluster --topology", d)
		}
	}
	if file == "" {
		return topologyInput{}, nil
	}
	if !asCluster {
		return topologyInput{}, fmt.Errorf("--topology describes a set of nodes: use it with --cluster")
	}
	t, fs, err := readTopology(file)
	if err != nil {
		return topologyInput{}, fmt.Errorf("--topology: %w", err)
	}
	return topologyInput{t: t, findings: fs}, nil
}
