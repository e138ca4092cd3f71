package store

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

func TestWriteReadRoundTrip(t *testing.T) {
	root := rootfs.New(t.TempDir())
	in := &status.Status{
		Command:   "apply",
		Root:      root.Dir(),
		StartedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Outcome:   status.Failed,
		Error:     "writing /etc/k0s/k0s.yaml: disk full",
		Provenance: &status.Provenance{Source: "/etc/corium/config.yaml", Tried: []status.Attempt{
			{Source: "/etc/corium/config.yaml", Outcome: "used"},
		}},
		Steps: []status.Step{{Name: "k0s", Outcome: status.StepFailed, DurationMS: 3}},
	}
	if err := Write(root, in); err != nil {
		t.Fatal(err)
	}
	info, err := root.Stat(status.Path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != fs.FileMode(0o600) {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	out, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if out.Error != in.Error || out.Outcome != status.Failed || out.Provenance.Source != in.Provenance.Source || len(out.Steps) != 1 || out.Steps[0].Name != "k0s" {
		t.Errorf("round trip lost data: %+v", out)
	}
}

func TestReadMissingNamesThePath(t *testing.T) {
	_, err := Read(rootfs.New(t.TempDir()))
	if err == nil || !strings.Contains(err.Error(), status.Path) {
		t.Fatalf("error %v does not name %s", err, status.Path)
	}
}
