package crash

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// entry is one path of a tree as a reader after a crash would see it.
type entry struct {
	mode    fs.FileMode
	content []byte // file bytes or link target; nil for directories
}

// tree maps node paths ("/etc/x") to what is there.
type tree map[string]entry

// snapshot reads every path under dir, skipping node paths for which skip
// says true (and everything beneath them).
func snapshot(t *testing.T, dir string, skip func(string) bool) tree {
	t.Helper()
	out := tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		node := "/" + strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		if p == dir {
			return nil
		}
		if skip != nil && skip(node) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := entry{mode: info.Mode()}
		switch {
		case info.Mode().IsRegular():
			e.content, err = os.ReadFile(p)
		case info.Mode()&fs.ModeSymlink != 0:
			var target string
			target, err = os.Readlink(p)
			e.content = []byte(target)
		}
		out[node] = e
		return err
	})
	if err != nil {
		t.Fatalf("reading the tree under %s: %v", dir, err)
	}
	return out
}

// diff lists how got differs from want, one line per path, sorted.
func diff(want, got tree) []string {
	var out []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			out = append(out, "missing "+p)
		case g.mode != w.mode:
			out = append(out, fmt.Sprintf("%s: mode %v, want %v", p, g.mode, w.mode))
		case !bytes.Equal(g.content, w.content):
			out = append(out, fmt.Sprintf("%s: content differs (%d bytes, want %d)", p, len(g.content), len(w.content)))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			out = append(out, "unexpected "+p)
		}
	}
	sort.Strings(out)
	return out
}

// isTemp says whether a node path is one of rootfs's temp names.
func isTemp(p string) bool {
	base := filepath.Base(p)
	return strings.HasPrefix(base, ".") && strings.Contains(base, ".tmp-")
}

// checkCut checks a tree left by a killed run against the uninterrupted
// run's final tree: every path with a final name holds complete, final
// content (or one of the versions in also, for a path written more than
// once), and anything else is a hidden temp file.
func checkCut(got, final tree, also map[string][][]byte, inProgress func(string, []byte) bool) []string {
	var out []string
	for p, g := range got {
		w, ok := final[p]
		switch {
		case isTemp(p):
			continue
		case !ok && inProgress != nil && inProgress(p, g.content):
			continue
		case !ok:
			out = append(out, "a path the finished run does not have: "+p)
		case g.mode.Type() != w.mode.Type():
			out = append(out, fmt.Sprintf("%s: type %v, want %v", p, g.mode.Type(), w.mode.Type()))
		case g.mode.IsRegular() && g.mode.Perm() != w.mode.Perm():
			out = append(out, fmt.Sprintf("%s: mode %v, want %v", p, g.mode, w.mode))
		case w.content != nil && !bytes.Equal(g.content, w.content) && !oneOf(g.content, also[p]):
			out = append(out, fmt.Sprintf("%s: visible with content that is not a finished version (%d bytes)", p, len(g.content)))
		}
	}
	sort.Strings(out)
	return out
}

func oneOf(b []byte, versions [][]byte) bool {
	for _, v := range versions {
		if bytes.Equal(b, v) {
			return true
		}
	}
	return false
}

// appearedWithoutTemp lists files and links present in cut but not in prev
// (the tree one write point earlier) whose temp file prev did not show: a
// write through rootfs is always cut once with its temp file in place,
// right before the rename, so a file that appears without one was written
// some other way, with nothing to stop a reader seeing it half-written.
func appearedWithoutTemp(prev, cut tree) []string {
	var out []string
	for p, e := range cut {
		if _, ok := prev[p]; ok || isTemp(p) || e.mode.IsDir() {
			continue
		}
		prefix := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp-")
		found := false
		for q := range prev {
			if strings.HasPrefix(q, prefix) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
