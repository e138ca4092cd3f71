package bootstrap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

const demoDir = "../../examples/demo"

// demoSecrets are the values of every secret file of the demo root; no
// output may contain any of them.
func demoSecrets(t *testing.T) []string {
	t.Helper()
	out := fixture.DemoSecrets(t, demoDir)
	if len(out) < 5 {
		t.Fatalf("want the demo's 5 secrets, found %d", len(out))
	}
	return out
}

// newDemoRoot is a fresh root holding the demo's secret files and
// machine-id, as scripts/demo.sh lays them out.
func newDemoRoot(t testing.TB) rootfs.Root {
	t.Helper()
	return rootfs.New(fixture.DemoRoot(t, demoDir))
}

// fileResolver resolves file: sources under the root; the one kind the
// demo uses. The secret package's resolver does the same and more.
type fileResolver struct{ root rootfs.Root }

func (r fileResolver) Resolve(_ context.Context, path string, src secret.Source) (secret.Value, error) {
	if src.File == "" {
		return secret.Value{}, fmt.Errorf("%s: only file sources in this test", path)
	}
	b, err := r.root.ReadFile(src.File)
	if err != nil {
		return secret.Value{}, fmt.Errorf("%s: reading %s: %w", path, src.File, err)
	}
	v := strings.TrimSpace(string(b))
	if v == "" {
		return secret.Value{}, errors.New(path + ": empty")
	}
	return secret.NewValue(v), nil
}

// entry is one path of a tree: what it is, and the inode and mtime that
// show whether it was rewritten.
type entry struct {
	Mode    fs.FileMode
	Content string
	Ino     uint64
	MtimeNs int64
}

func snapshot(t *testing.T, root rootfs.Root) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(root.Dir(), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root.Dir(), p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{Mode: info.Mode()}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			e.Ino, e.MtimeNs = st.Ino, st.Mtim.Nano()
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			e.Content, _ = os.Readlink(p)
		case info.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			e.Content = string(b)
		}
		if d.IsDir() {
			e.Ino, e.MtimeNs = 0, 0 // directories change when a temp file comes and goes
		}
		out["/"+rel] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree compares kind, mode and content, ignoring inodes and mtimes.
func sameTree(t *testing.T, want, got map[string]entry, skip ...string) {
	t.Helper()
	for _, s := range skip {
		delete(want, s)
		delete(got, s)
	}
	var diffs []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			diffs = append(diffs, "missing "+p)
		case g.Mode != w.Mode:
			diffs = append(diffs, fmt.Sprintf("%s: mode %v, want %v", p, g.Mode, w.Mode))
		case g.Content != w.Content:
			diffs = append(diffs, p+": content differs")
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, "extra "+p)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("trees differ:\n%s", strings.Join(diffs, "\n"))
	}
}

func testLogger(buf *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
