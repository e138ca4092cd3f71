package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// firewallPrivateKey is the config's inline key: no firewall output may hold it.
const firewallPrivateKey = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="

const firewallDoc = `role: controller+worker
wireguard:
  - name: wg0
    address: 10.30.0.2/24
    listenPort: 51820
    nodeAddress: true
    privateKey: ` + firewallPrivateKey + `
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.11:51820
        allowedIPs: [10.30.0.1/32]
firewall:
  clusterPorts: overlay
  publicPorts: [6443]
`

type fwRun struct {
	code           int
	stdout, stderr string
}

// runFirewallOn runs `corium-agent firewall ARGS --netns NS` in-process:
// the command programs the namespace named by the flag, whichever one the
// test runs in.
func runFirewallOn(t *testing.T, ns *netns.Netns, args ...string) fwRun {
	t.Helper()
	return runFirewallCmd(t, append(args, "--netns", ns.Path())...)
}

// runFirewallIn runs `corium-agent firewall ARGS` on a thread inside the
// namespace, as a command run on some machine would: the namespace is the
// kernel it runs on.
func runFirewallIn(t *testing.T, ns *netns.Netns, args ...string) fwRun {
	t.Helper()
	var r fwRun
	if err := ns.Do(func() error {
		r = runFirewallCmd(t, args...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return r
}

func runFirewallCmd(t *testing.T, args ...string) fwRun {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"firewall"}, args...), &out, &errb)
	r := fwRun{code, out.String(), errb.String()}
	if strings.Contains(r.stdout+r.stderr, firewallPrivateKey) {
		t.Fatalf("firewall %v printed the private key", args)
	}
	return r
}

// runFirewallUnprivileged is runFirewallOn on a thread without
// CAP_NET_ADMIN, so the kernel refuses the batch. The thread is never reused.
func runFirewallUnprivileged(t *testing.T, ns *netns.Netns, args ...string) fwRun {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with its lost capability
		hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
		var data [2]unix.CapUserData
		err := unix.Capget(&hdr, &data[0])
		data[unix.CAP_NET_ADMIN/32].Effective &^= 1 << (unix.CAP_NET_ADMIN % 32)
		if err == nil {
			err = unix.Capset(&hdr, &data[0])
		}
		if err != nil {
			errb.WriteString(err.Error())
			done <- -1
			return
		}
		done <- run(context.Background(), append([]string{"firewall"}, append(args, "--netns", ns.Path())...), &out, &errb)
	}()
	code := <-done
	if code == -1 {
		t.Fatalf("dropping CAP_NET_ADMIN: %s", errb.String())
	}
	return fwRun{code, out.String(), errb.String()}
}

func TestFirewallCommand(t *testing.T) {
	host.RequireRoot(t, "ip", "nft")
	srv, pub := netns.New(t, "fwc-srv"), netns.New(t, "fwc-pub")
	netns.Veth(t, srv, "eth0", "192.0.2.1/24", pub, "eth0", "192.0.2.2/24")
	var l net.Listener
	if err := srv.Do(func() (err error) { l, err = net.Listen("tcp", "192.0.2.1:10250"); return err }); err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	reachable := func() bool {
		return pub.Do(func() error {
			c, err := net.DialTimeout("tcp", "192.0.2.1:10250", time.Second)
			if err == nil {
				c.Close()
			}
			return err
		}) == nil
	}

	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "node.yaml")
	if err := os.WriteFile(cfgFile, []byte(firewallDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root")

	r := runFirewallOn(t, srv, "show", "--root", root)
	if r.code != exitFailed || !strings.Contains(r.stderr, "no rendered guard at "+root+firewall.FilePath) {
		t.Fatalf("show without a rendered guard: %+v", r)
	}

	r = runFirewallOn(t, srv, "apply", "--config", cfgFile)
	if r.code != exitOK || !strings.Contains(r.stdout, "table:       current") || !strings.Contains(r.stdout, "guarded:     179/tcp 2380/tcp 8080/tcp 8132/tcp 9443/tcp 10249/tcp 10250/tcp 10256/tcp 20244/tcp") {
		t.Fatalf("apply --config: %+v", r)
	}
	if reachable() {
		t.Fatal("the guarded port answers on the public link after apply")
	}

	// The rendered file, as first boot writes it, is what apply/show read by default.
	cfg, _, err := schema.Load([]byte(firewallDoc))
	if err != nil {
		t.Fatal(err)
	}
	g, err := firewall.Render(cfg, schema.Effective(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "var/lib/corium"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, firewall.FilePath), g.File(), 0o600); err != nil {
		t.Fatal(err)
	}
	if r = runFirewallOn(t, srv, "show", "--root", root); r.code != exitOK || !strings.Contains(r.stdout, "current") {
		t.Fatalf("show: %+v", r)
	}

	srv.Run(t, "nft", "add", "rule", "inet", "corium", "input", "tcp", "dport", "22", "accept")
	if r = runFirewallOn(t, srv, "show", "--root", root); r.code != exitFailed || !strings.Contains(r.stdout, "table:       stale") {
		t.Fatalf("show after an edit: %+v", r)
	}
	if r = runFirewallOn(t, srv, "apply", "--root", root); r.code != exitOK || !strings.Contains(r.stdout, "current") {
		t.Fatalf("apply from the rendered file: %+v", r)
	}

	// Loud failure: the kernel refuses the batch, the command says why.
	r = runFirewallUnprivileged(t, srv, "apply", "--root", root)
	if r.code != exitFailed || !strings.Contains(r.stderr, "programming table inet corium") || !strings.Contains(r.stderr, "operation not permitted") {
		t.Fatalf("apply without CAP_NET_ADMIN: %+v", r)
	}

	if r = runFirewallOn(t, srv, "remove"); r.code != exitOK {
		t.Fatalf("remove: %+v", r)
	}
	if !reachable() {
		t.Fatal("the guarded port does not answer after remove")
	}
	if r = runFirewallOn(t, srv, "show", "--root", root); r.code != exitFailed || !strings.Contains(r.stdout, "table:       missing") {
		t.Fatalf("show after remove: %+v", r)
	}
	if r = runFirewallOn(t, srv, "remove"); r.code != exitOK {
		t.Fatalf("second remove: %+v", r)
	}

	// clusterPorts: open on kube-router with the node address on the
	// overlay leaves the pod masquerade alone in the table, shown as such.
	if r = runFirewallOn(t, srv, "apply", "--root", root); r.code != exitOK {
		t.Fatalf("apply: %+v", r)
	}
	openDoc := strings.Replace(firewallDoc, "clusterPorts: overlay", "clusterPorts: open", 1)
	openFile := filepath.Join(dir, "open.yaml")
	if err := os.WriteFile(openFile, []byte(openDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	r = runFirewallOn(t, srv, "apply", "--config", openFile)
	if r.code != exitOK || !strings.Contains(r.stdout, "guard:       off (clusterPorts: open)\nmasquerade:  pods (10.244.0.0/16) to addresses outside it, out of wg0, take the node's address (kuberouter)\n") ||
		!strings.Contains(r.stdout, "table:       current: table inet corium holds the rendered pod masquerade only; the guard is off") || strings.Contains(r.stdout, "guarded:") {
		t.Fatalf("apply with clusterPorts open on kube-router: %+v", r)
	}
	if !reachable() {
		t.Fatal("the guarded port does not answer after applying clusterPorts: open")
	}

	// On calico, clusterPorts: open leaves nothing: the table goes, "off".
	calicoFile := filepath.Join(dir, "open-calico.yaml")
	if err := os.WriteFile(calicoFile, []byte("network:\n  cni: calico\n"+openDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	if r = runFirewallOn(t, srv, "apply", "--config", calicoFile); r.code != exitOK || !strings.Contains(r.stdout, "table:       off") || strings.Contains(r.stdout, "masquerade:") {
		t.Fatalf("apply with clusterPorts open on calico: %+v", r)
	}
	if !reachable() {
		t.Fatal("the guarded port does not answer after applying clusterPorts: open")
	}
}

func TestFirewallCommandUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "usage: corium-agent firewall [flags] apply|show|remove"},
		{[]string{"open"}, exitUsage, `unknown action "open"`},
		{[]string{"remove", "--config", "node.yaml"}, exitUsage, "remove needs no config"},
		{[]string{"show", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"apply", "--bogus"}, exitUsage, "flag provided but not defined: -bogus"},
		{[]string{"--help"}, exitOK, "usage: corium-agent firewall"},
		{[]string{"show", "-h"}, exitOK, "usage: corium-agent firewall"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"firewall"}, tc.args...), &out, &errb)
		said := errb.String()
		if tc.code == exitOK {
			said = out.String() // help is the output asked for
		}
		if code != tc.code || !strings.Contains(said, tc.want) {
			t.Errorf("firewall %v = %d, %q; want %d and %q", tc.args, code, said, tc.code, tc.want)
		}
	}
}

func TestFirewallCommandRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("role: worker\nfirewall:\n  clusterPorts: overlay\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"firewall", "show", "--config", bad}, &out, &errb)
	if code != exitFailed || !strings.Contains(errb.String(), "firewall.clusterPorts") {
		t.Errorf("show --config with an invalid config = %d, %q", code, errb.String())
	}

	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "var/lib/corium"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, firewall.FilePath), []byte(`{"version":1,"on":true,"interfaces":["lo"],"podCIDR":"10.0.0.0/8"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"firewall", "apply", "--root", root}, &out, &errb)
	if code != exitFailed || !strings.Contains(errb.String(), "polices nothing") {
		t.Errorf("apply with an empty guard file = %d, %q", code, errb.String())
	}

	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"firewall", "apply", "--config", filepath.Join(dir, "absent.yaml")}, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "absent.yaml") {
		t.Errorf("apply with a missing config = %d, %q", code, errb.String())
	}
}

// show prints the endpoint the guard admits clients at, off the overlay,
// and what it leaves guarded; no kernel is needed for a root other than /.
func TestFirewallShowsTheEndpoint(t *testing.T) {
	dir := t.TempDir()
	doc := strings.Replace(firewallDoc, "role: controller+worker\n", "role: controller+worker\ncluster:\n  endpoint: 192.0.2.100\n", 1)
	file := filepath.Join(dir, "vip.yaml")
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runFirewallCmd(t, "show", "--root", dir, "--config", file)
	for _, want := range []string{
		"guarded:     179/tcp 2380/tcp 8080/tcp 8132/tcp 9443/tcp 10249/tcp 10250/tcp 10256/tcp 20244/tcp\n",
		"endpoint:    192.0.2.100, off the overlay: 8132/tcp 9443/tcp addressed to it accepted from any link\n",
		"masquerade:  pods (10.244.0.0/16) to addresses outside it, out of wg0, take the node's address (kuberouter)\n",
	} {
		if r.code != exitOK || !strings.Contains(r.stdout, want) {
			t.Errorf("show --config with an underlay endpoint: exit %d, lacks %q:\n%s%s", r.code, want, r.stdout, r.stderr)
		}
	}
}
