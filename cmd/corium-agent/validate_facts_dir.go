package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

// The nodes of a cluster run on hosts of their own, so with --cluster,
// --facts may name a directory holding each node's facts: NODE.json, by
// the node's node.name or by its document's file name less its extension.
// Every check that needs the host's network (plan's, and the cluster
// check's route MTU, VRRP interface and endpoint owners) then runs with
// each node's own. One file keeps its meaning: the same host's facts for
// every file's own check, and none for the set's.

// readFactsFlag reads --facts: one file, or with --cluster a directory of
// each node's. A file found there is read only when it is a regular file;
// any other is not read, and comes back in unread, to be named as an entry
// of a directory of documents is (notReadError): its node is then checked
// without facts, with noFacts' warning.
func readFactsFlag(path string, asCluster bool) (facts *hostfacts.Facts, byNode map[string]*hostfacts.Facts, unread []validateReport, err error) {
	info, err := os.Stat(path)
	if err != nil || !info.IsDir() {
		f, err := bootstrap.ReadFacts(path)
		return f, nil, nil, err
	}
	if !asCluster {
		return nil, nil, nil, fmt.Errorf("%s is a directory: each node's facts are read from one with --cluster; name one file otherwise", path)
	}
	names, err := filepath.Glob(filepath.Join(path, "*.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	if len(names) == 0 {
		return nil, nil, nil, fmt.Errorf("%s holds no NODE.json: write each node's facts there, named by its node.name or its file's name", path)
	}
	byNode = map[string]*hostfacts.Facts{}
	for _, name := range names {
		f, err := bootstrap.ReadFoundFacts(name)
		var nr *rootfs.NotRegularError
		if errors.As(err, &nr) {
			unread = append(unread, validateReport{File: name, Error: (&notReadError{path: name, what: nr.Type}).Error(), Findings: schema.Findings{}, notRead: true})
			continue
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", filepath.Base(name), err)
		}
		byNode[strings.TrimSuffix(filepath.Base(name), ".json")] = f
	}
	return nil, byNode, unread, nil
}

// nodeFacts is n's facts among byNode, nil when none is its.
func (c checks) nodeFacts(n cluster.Node) *hostfacts.Facts {
	f, _ := cluster.FactsFor(n, c.byNode)
	return f
}

// noFacts says that a node's facts are missing from the directory.
func noFacts(n cluster.Node) string {
	var names []string
	for _, name := range cluster.FactsNames(n) {
		names = append(names, name+".json")
	}
	return fmt.Sprintf("--facts holds no facts for this node (%s): the checks that need its host's network are not run for it; write them there", strings.Join(names, " or "))
}

// factsUsed: a facts file no node takes is a typo in its name, and leaves
// that node's host unchecked. Not judged while a file's document could not
// be read: its node.name, which may be the file's name, is not known.
func factsUsed(byNode map[string]*hostfacts.Facts, reports []validateReport) error {
	if byNode == nil {
		return nil
	}
	used := map[string]bool{}
	for _, r := range reports {
		if r.node.Doc == nil {
			return nil
		}
		if _, name := cluster.FactsFor(r.node, byNode); name != "" {
			used[name] = true
		}
	}
	var unused []string
	for name := range byNode {
		if !used[name] {
			unused = append(unused, name+".json")
		}
	}
	if len(unused) == 0 {
		return nil
	}
	slices.Sort(unused)
	verb := "is"
	if len(unused) > 1 {
		verb = "are"
	}
	return fmt.Errorf("%s %s no node's: name each file by a node's node.name or its document's file name", strings.Join(unused, ", "), verb)
}
