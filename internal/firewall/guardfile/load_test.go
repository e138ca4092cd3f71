package guardfile_test

import (
	"errors"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/guardfile"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

func TestLoad(t *testing.T) {
	root := rootfs.New(t.TempDir())
	_, err := guardfile.Load(root)
	if !errors.Is(err, firewall.ErrNotRendered) || !strings.Contains(err.Error(), root.Display(firewall.FilePath)) {
		t.Fatalf("Load without a file = %v; want firewall.ErrNotRendered naming the path", err)
	}
	g := mustRender(t)
	if _, err := root.WriteFile(firewall.FilePath, g.File(), firewall.FileMode, firewall.DirMode); err != nil {
		t.Fatal(err)
	}
	back, err := guardfile.Load(root)
	if err != nil || !reflect.DeepEqual(back, g) {
		t.Fatalf("Load = %+v, %v; want %+v", back, err, g)
	}
	info, err := root.Stat(path.Dir(firewall.FilePath))
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode = %v, %v; want 0700", info.Mode().Perm(), err)
	}
	if _, err := root.WriteFile(firewall.FilePath, []byte(`{"version":1,"on":tru`), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := guardfile.Load(root); err == nil || !strings.Contains(err.Error(), "reading "+root.Display(firewall.FilePath)) {
		t.Fatalf("Load of a torn file = %v", err)
	}
}

func mustRender(t testing.TB) firewall.Guard {
	t.Helper()
	cfg := &schema.Config{
		Role:      schema.RoleControllerWorker,
		Network:   schema.Network{PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12", CNI: schema.CNIKubeRouter},
		Storage:   schema.Storage{Type: schema.StorageEtcd},
		WireGuard: []schema.WireGuard{{Name: "wg0", NodeAddress: true}},
		Firewall:  schema.Firewall{ClusterPorts: schema.ClusterPortsOverlay},
	}
	g, err := firewall.Render(cfg, schema.Effective(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
