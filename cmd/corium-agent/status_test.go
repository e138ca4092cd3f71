package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status/report"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

func statusFirstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// withLive points the status command's live parts at o for one test.
func withLive(t *testing.T, live func(o *report.Options)) {
	t.Helper()
	orig := openLive
	openLive = func(_ context.Context, root rootfs.Root) (report.Options, func()) {
		o := report.Options{Root: root}
		live(&o)
		return o, func() {}
	}
	t.Cleanup(func() { openLive = orig })
}

// noDevices has no WireGuard device at all.
type noDevices struct{}

func (noDevices) Device(string) (*wgtypes.Device, error) { return nil, os.ErrNotExist }

// wrongKeyDevices has every device, with a public key nobody configured.
type wrongKeyDevices struct{}

func (wrongKeyDevices) Device(name string) (*wgtypes.Device, error) {
	return &wgtypes.Device{Name: name, PublicKey: wgtypes.Key{1}}, nil
}

func TestStatusCLIUnprovisioned(t *testing.T) {
	code, out, _ := runCLI(t, "status", "--root", t.TempDir())
	if code != exitNothing || !strings.HasPrefix(statusFirstLine(out), "unprovisioned") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestStatusCLIProvisionedDemo(t *testing.T) {
	secrets := fixture.DemoSecrets(t, demo)
	root := fixture.DemoRoot(t, demo)
	if code, out, errOut := runCLI(t, demoArgs("apply", root)...); code != exitOK {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errOut)
	}

	// Under a root that is not the host, nothing live is read, and the
	// verdict says so instead of guessing.
	code, text, errText := runCLI(t, "status", "--root", root)
	first := statusFirstLine(text)
	if code != exitOK || first != "ok (could not check: unit states, wireguard devices, route, firewall, listening sockets)" || !strings.Contains(text, "firewall:     unknown: root is "+root+", not the host") {
		t.Errorf("exit %d, verdict %q", code, first)
	}
	for _, want := range []string{"tunnel wg0:", "tunnel wg1:", "node address: 10.10.0.1", "provisioned:  yes", "installed with 10.10.0.1"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}

	code, js, errJS := runCLI(t, "status", "--root", root, "--format", "json")
	var r report.Report
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("exit %d, not JSON: %v\n%s", code, err, js)
	}
	if code != exitOK || r.Verdict.State != report.OK || !r.Provisioned || len(r.Interfaces) != 2 || r.Interfaces[0].Peers[0].Class != report.Unknown {
		t.Errorf("exit %d, report %+v", code, r)
	}
	noDemoSecrets(t, secrets, map[string]string{"text": text, "text stderr": errText, "json": js, "json stderr": errJS})

	// After a reboot the public key comes from the record of what each
	// device must be, which the status file's loss does not touch.
	if err := os.Remove(filepath.Join(root, "run/corium/status.json")); err != nil {
		t.Fatal(err)
	}
	withLive(t, func(o *report.Options) { o.Devices = wrongKeyDevices{} })
	code, text, errText = runCLI(t, "status", "--root", root)
	_, js, errJS = runCLI(t, "status", "--root", root, "--format", "json")
	if code != exitFailed || !strings.Contains(text, "drift publicKey: want ") || !strings.Contains(text, "(from /var/lib/corium/wireguard.json)") {
		t.Errorf("exit %d, no public key drift from the devices record:\n%s", code, text)
	}
	noDemoSecrets(t, secrets, map[string]string{"text after reboot": text, "stderr after reboot": errText, "json after reboot": js, "json stderr after reboot": errJS})

	// The same root with every device gone is degraded at the tunnel.
	withLive(t, func(o *report.Options) { o.Devices = noDevices{} })
	code, text, _ = runCLI(t, "status", "--root", root)
	if want := "degraded: tunnel: wg0: the device is absent; see journalctl -u wg-quick@wg0.service (and 1 more)"; code != exitFailed || statusFirstLine(text) != want {
		t.Errorf("exit %d, verdict %q, want %q", code, statusFirstLine(text), want)
	}
}

func TestStatusCLIFailedRun(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	if err := os.Remove(filepath.Join(root, "run/corium/secrets/join-token")); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runCLI(t, demoArgs("apply", root)...); code != exitFailed {
		t.Fatalf("apply without its join token: exit %d", code)
	}
	code, out, _ := runCLI(t, "status", "--root", root)
	if first := statusFirstLine(out); code != exitFailed || !strings.HasPrefix(first, "failed: secrets: ") || !strings.Contains(first, "join.tokenFrom") {
		t.Errorf("exit %d, verdict %q", code, first)
	}
}

func TestStatusCLIUsage(t *testing.T) {
	for _, args := range [][]string{
		{"status", "--format", "yaml"},
		{"status", "extra"},
		{"status", "--root", "/nonexistent/dir"},
		{"status", "--bogus"},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
