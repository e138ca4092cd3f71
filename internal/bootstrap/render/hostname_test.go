package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// A node name that fits the kernel's 64 is the hostname whole, dots and all;
// a longer one leaves its first label, and the kubelet is told the name.
func TestHostnameOfALongNodeName(t *testing.T) {
	long := "rack3-u12." + strings.Repeat("d", 40) + ".dc1.example.com" // 66
	fits := "rack3-u12." + strings.Repeat("d", 38) + ".dc1.example.com" // 64
	for _, tc := range []struct {
		name, host, source, override string
	}{
		{"rack3-u12.dc1.example.com", "rack3-u12.dc1.example.com", "node.name", ""},
		{fits, fits, "node.name", ""},
		{long, "rack3-u12", "node.name's first label", "--hostname-override=" + long},
	} {
		cfg := &schema.Config{Role: schema.RoleWorker, Node: schema.Node{Name: tc.name}}
		got := DecideHostname(cfg, HostnameFacts{Current: "whatever"})
		if got.Name != tc.host || got.Source != tc.source {
			t.Errorf("%s: got %+v, want %q from %q", tc.name, got, tc.host, tc.source)
		}
		args := strings.Join(K0sInstallArgs(cfg, K0sInstall{NodeAddress: "10.10.0.21", HasToken: true}), " ")
		want := "--kubelet-extra-args=--node-ip=10.10.0.21"
		if tc.override != "" {
			want += " " + tc.override
		}
		if !strings.Contains(args, want+" ") && !strings.HasSuffix(args, want) {
			t.Errorf("%s: install line %q lacks %q", tc.name, args, want)
		}
	}
}

// What is written to /etc/hostname is what hostname -F sets, in a UTS
// namespace of its own; the kernel refuses a name one byte longer.
func TestHostnameFileIsTheKernels(t *testing.T) {
	host.RequireRoot(t, "unshare", "hostname")
	dir := t.TempDir()
	set := func(content string) (string, error) {
		file := filepath.Join(dir, "hostname")
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("unshare", "--uts", "sh", "-c", `hostname -F "$1" && hostname`, "sh", file).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	for _, name := range []string{
		"rack3-u12.dc1.example.com",
		"rack3-u12." + strings.Repeat("d", 38) + ".dc1.example.com",
		"rack3-u12." + strings.Repeat("d", 40) + ".dc1.example.com",
		strings.Repeat("a", 63) + "." + strings.Repeat("b", 189),
	} {
		cfg := &schema.Config{Node: schema.Node{Name: name}}
		h := DecideHostname(cfg, HostnameFacts{})
		got, err := set(h.Name + "\n")
		if err != nil || got != h.Name {
			t.Errorf("%s: hostname -F of %q: %q, %v", name, h.Name, got, err)
		}
	}
	if got, err := set(strings.Repeat("a", 65) + "\n"); err == nil {
		t.Errorf("the kernel took a hostname of 65 bytes, past MaxHostnameLen: %q", got)
	}
}
