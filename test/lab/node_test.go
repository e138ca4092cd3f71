package lab

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// LabNode is a node brought up: its namespace, its root (the tree the agent
// wrote), and a process holding the private mount namespace in which its
// /run/wireguard is its own.
type LabNode struct {
	*Node
	NS   *netns.Netns
	Root string
	dir  string
	// holder is the pid of the process that keeps the node's mount
	// namespace; Exec enters it and the network namespace.
	holder int
}

// newLabNode makes the node's namespace, plugs it into the underlay, sets
// the image's sysctls and starts the holder of its mount namespace.
func newLabNode(t testing.TB, u *underlay, n *Node, s *Scenario, dir string) *LabNode {
	t.Helper()
	ln := &LabNode{Node: n, NS: newNamespace(t, "l"+n.Name), dir: filepath.Join(dir, n.Name)}
	ln.Root = filepath.Join(ln.dir, "root")
	if err := os.MkdirAll(ln.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	u.plugNode(t, n, ln.NS, s.Underlay)
	if !n.NoSysctls {
		ln.NS.Run(t, append([]string{"sysctl", "-qw"}, imageSysctls(t)...)...)
	}
	ln.startHolder(t)
	return ln
}

// imageSysctls are the image's sysctl settings (key=value), read from
// the file the image ships, so the lab sets what a node has and no other.
func imageSysctls(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "image/usr/lib/sysctl.d/50-corium.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("50-corium.conf: %q is not key = value", line)
		}
		out = append(out, strings.TrimSpace(k)+"="+strings.TrimSpace(v))
	}
	return out
}

// startHolder starts the process whose mount namespace gives the node a
// /run/wireguard of its own: wireguard-go puts each device's control
// socket there, and every node's device is wg0.
func (ln *LabNode) startHolder(t testing.TB) {
	t.Helper()
	if err := os.MkdirAll("/run/wireguard", 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ip", "netns", "exec", ln.NS.Name, "unshare", "--mount", "--propagation", "private",
		"sh", "-c", "mount -t tmpfs -o mode=0700 tmpfs /run/wireguard && echo ready && exec sleep infinity")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		t.Fatalf("%s: the mount namespace's holder did not start: %q %v", ln.Name, line, err)
	}
	ln.holder = cmd.Process.Pid
}

// Exec runs a command in the node's network and mount namespaces, with
// wg-quick set to use wireguard-go, and returns its output.
func (ln *LabNode) Exec(args ...string) (string, error) {
	cmd := exec.Command("nsenter", append([]string{"-t", strconv.Itoa(ln.holder), "-m", "-n", "--"}, args...)...)
	cmd.Env = append(os.Environ(), netns.WgQuickEnv...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// MustExec is Exec failing the test on error.
func (ln *LabNode) MustExec(t testing.TB, args ...string) string {
	t.Helper()
	out, err := ln.Exec(args...)
	if err != nil {
		t.Fatalf("%s: %s: %v\n%s", ln.Name, strings.Join(args, " "), err, out)
	}
	return out
}

// writeInputs writes the node's document and host facts where apply
// reads them, outside its root, and its Files under the root.
func (ln *LabNode) writeInputs(t testing.TB, s *Scenario) {
	t.Helper()
	for path, content := range ln.Files {
		writeFile(t, filepath.Join(ln.Root, path), []byte(content))
	}
	doc, err := yaml.Marshal(ln.Doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ln.docPath(), doc, 0o600); err != nil {
		t.Fatal(err)
	}
	facts, err := json.Marshal(ln.facts(s))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ln.factsPath(), facts, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (ln *LabNode) docPath() string   { return filepath.Join(ln.dir, "config.yaml") }
func (ln *LabNode) factsPath() string { return filepath.Join(ln.dir, "facts.json") }

// facts are the node's network as the agent would gather it on the node:
// eth0 with its underlay address, the default route out of it.
func (ln *LabNode) facts(s *Scenario) hostfacts.Facts {
	f := s.Underlay
	if ln.Site != Open {
		f = IPv4
	}
	addr := ln.underlayAddr(f)
	prefix, _ := netip.ParsePrefix(prefixOnOpen(addr))
	// One default route, of whichever family: defaultRoute6 is only for
	// a second one beside an IPv4 route.
	return hostfacts.Facts{
		Interfaces:   []hostfacts.InterfaceFacts{{Name: "eth0", Addresses: []netip.Prefix{prefix}}},
		DefaultRoute: &hostfacts.RouteFacts{Interface: "eth0", Source: addr},
	}
}

// agent runs the real agent binary and fails the test with its output on
// error.
func agent(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command(agentbin.Path(t), args...).CombinedOutput()
	if err != nil {
		t.Fatalf("corium-agent %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// provision is the node's first boot as far as the network goes: apply
// into its root, the guard loaded into its namespace, the rendered
// wg-quick file brought up unchanged.
func (ln *LabNode) provision(t testing.TB, s *Scenario) {
	t.Helper()
	ln.writeInputs(t, s)
	agent(t, "apply", "--root", ln.Root, "--config", ln.docPath(), "--facts", ln.factsPath())
	ln.loadGuard(t)
	ln.MustExec(t, "wg-quick", "up", ln.wgConf())
}

// again is apply --again with the node's changed document, the guard
// reloaded and the new wg-quick file handed to the running interface as
// wg-quick@.service's reload does (wg syncconf with wg-quick strip).
func (ln *LabNode) again(t testing.TB, s *Scenario) {
	t.Helper()
	ln.writeInputs(t, s)
	agent(t, "apply", "--again", "--root", ln.Root, "--config", ln.docPath(), "--facts", ln.factsPath())
	ln.loadGuard(t)
	ln.MustExec(t, "bash", "-c", `exec wg syncconf wg0 <(exec wg-quick strip "$1")`, "-", ln.wgConf())
}

func (ln *LabNode) loadGuard(t testing.TB) {
	t.Helper()
	if !ln.NoGuard {
		agent(t, "firewall", "apply", "--root", ln.Root, "--netns", ln.NS.Path())
	}
}

func (ln *LabNode) wgConf() string { return filepath.Join(ln.Root, "etc/wireguard/wg0.conf") }

// NodeAddress is the address the agent chose for the node, as it recorded
// it (/var/lib/corium/node-address).
func (ln *LabNode) NodeAddress(t testing.TB) netip.Addr {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ln.Root, "var/lib/corium/node-address"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := netip.ParseAddr(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: node-address: %v", ln.Name, err)
	}
	return a
}

func (ln *LabNode) String() string { return fmt.Sprintf("%s (%s)", ln.Name, ln.Role) }

// dialContext dials from inside the node's network namespace, for an HTTP
// transport that talks to what listens there on loopback.
func (ln *LabNode) dialContext(ctx context.Context, network, addr string) (c net.Conn, err error) {
	err = ln.NS.Do(func() (err error) {
		c, err = (&net.Dialer{}).DialContext(ctx, network, addr)
		return err
	})
	return c, err
}
