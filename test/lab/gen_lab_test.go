package lab

import (
	"bufio"
	"fmt"
	"hash/crc32"
	"net/netip"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/cluster/clustergen"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// A lab built from a generated set (internal/cluster/clustergen): the set's
// own documents, unchanged, on the set's own networks. Each distinct
// network of the set's hosts is a bridge of one router namespace, which
// routes between them: site A, site B, the private network behind a
// masquerade (the nodes that only dial out) and the one behind a 1:1 NAT
// (cloud hosts, dialled at a public address of site B that the router
// maps both ways). As a cloud's or an office's NAT does, the router lets
// another network into those two only through the NAT: a connection
// opened from elsewhere to a private address there is dropped. The
// attacker sits at the first controller's site.

// genPlace is where a generated node sits.
type genPlace struct {
	own    netip.Prefix // the address on its eth0
	public netip.Addr   // the address a 1:1 NAT maps to own; invalid without one
	bridge string       // the router's bridge of its network
	gw     netip.Addr   // the router's address there
	// setGuards: some node of the set guards its cluster ports.
	setGuards bool
}

// genLab is a lab of a generated set: the Lab, each node's facts as the
// facts command gathered them (DIR/NODE.json, as validate --cluster --facts
// DIR reads them), and what kept a node from coming up.
type genLab struct {
	*Lab
	g        *clustergen.Set
	setDir   string // the documents, NAME.yaml, facts/NAME.json and with sites cluster.topology
	notUp    []string
	upTook   time.Duration
	verdict  *Verdict
	problems []string
}

// genScenario is the lab's scenario of a generated set: its nodes placed on
// their networks, each with its document as written (parsed for what the
// checks read of it).
func genScenario(t testing.TB, g *clustergen.Set) *Scenario {
	t.Helper()
	s := &Scenario{outside: map[string]bool{}, vipOnLast: true}
	if g.IPv6 {
		s.Underlay = IPv6
	}
	guards := false
	inSet := map[string]bool{}
	for _, gn := range g.Nodes {
		guards = guards || gn.ClusterPorts != "open"
		inSet[gn.Private.PublicKey().String()] = true
	}
	for i, gn := range g.Nodes {
		n := &Node{Name: gn.Name, Role: gn.Role, index: i + 1, pubKey: gn.Private.PublicKey().String(),
			overlay: []netip.Prefix{netip.PrefixFrom(gn.Overlay, 24)}}
		p := &genPlace{own: gn.Underlay, setGuards: guards}
		switch {
		case !gn.Dialled:
			n.Site = Masquerade
		case gn.Host.IsValid():
			n.Site, p.own, p.public = OneToOne, gn.Host, gn.Underlay.Addr()
		}
		p.bridge, p.gw = siteOf(p.own)
		n.gen = p
		n.kine = gn.DataSource != ""
		n.Doc = parseGenDoc(t, gn)
		for _, peer := range n.Doc.Wireguard[0].Peers {
			if !inSet[peer.PublicKey] {
				s.outside[peer.PublicKey] = true
			}
		}
		if gn.VIP != "" {
			n.ha = true
			if !s.VIP.IsValid() {
				s.VIP = netip.MustParsePrefix(gn.VIP)
			}
		}
		s.Nodes = append(s.Nodes, n)
	}
	return s
}

// siteOf is the router's bridge for the network of a host address, and
// the router's address on it (the network's first).
func siteOf(p netip.Prefix) (string, netip.Addr) {
	m := p.Masked()
	return fmt.Sprintf("s%08x", crc32.ChecksumIEEE([]byte(m.String()))), m.Addr().Next()
}

// parseGenDoc reads what the lab's checks use of a generated document;
// the agent is given the document's text itself.
func parseGenDoc(t testing.TB, gn *clustergen.Node) *Doc {
	t.Helper()
	// A document's address may be one string; the lab's Doc has a list.
	var m map[string]any
	if err := yaml.Unmarshal([]byte(gn.Document()), &m); err != nil {
		t.Fatalf("%s: %v", gn.File(), err)
	}
	for _, w := range m["wireguard"].([]any) {
		w := w.(map[string]any)
		if a, ok := w["address"].(string); ok {
			w["address"] = []string{a}
		}
	}
	b, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	d := &Doc{}
	if err := yaml.Unmarshal(b, d); err != nil {
		t.Fatalf("%s: %v", gn.File(), err)
	}
	if d.Firewall.ClusterPorts == "" {
		d.Firewall.ClusterPorts = "open" // the default clustergen leaves unwritten
	}
	return d
}

// newGenUnderlay is the router with a bridge for every network of the
// set's hosts and of its 1:1 NATs' public addresses, forwarding between
// them with the set's NAT (and into a network behind NAT only what the NAT
// let in or what answers its hosts), dropping fragments (fragments_test.go),
// and the attacker.
func newGenUnderlay(t testing.TB, s *Scenario) *underlay {
	t.Helper()
	u := &underlay{sw: newNamespace(t, "lsw"), router: newNamespace(t, "lrt")}
	made := map[string]bool{}
	bridge := func(p netip.Prefix) string {
		br, gw := siteOf(p)
		if !made[br] {
			made[br] = true
			newBridge(t, u.router, br, "")
			args := []string{"ip", "addr", "add", netip.PrefixFrom(gw, p.Bits()).String(), "dev", br}
			if gw.Is6() {
				args = append(args, "nodad")
			}
			u.router.Run(t, args...)
		}
		return br
	}
	var nat strings.Builder
	nat.WriteString("table inet labnat {\n chain pre { type nat hook prerouting priority dstnat;\n")
	var post, private []string
	for _, n := range s.Nodes {
		bridge(n.gen.own)
		if n.Site != Open && !slices.Contains(private, n.gen.bridge) {
			private = append(private, n.gen.bridge)
		}
		switch n.Site {
		case OneToOne:
			pub := netip.PrefixFrom(n.gen.public, n.gen.own.Bits())
			br := bridge(pub)
			u.router.Run(t, "ip", "addr", "add", pub.String(), "dev", br)
			fmt.Fprintf(&nat, "  ip daddr %s dnat ip to %s\n", n.gen.public, n.gen.own.Addr())
			post = append(post, fmt.Sprintf("  ip saddr %s snat ip to %s\n", n.gen.own.Addr(), n.gen.public))
		case Masquerade:
			fam := "ip"
			if n.gen.own.Addr().Is6() {
				fam = "ip6"
			}
			rule := fmt.Sprintf("  %s saddr %s oifname != %q masquerade\n", fam, n.gen.own.Masked(), n.gen.bridge)
			if !strings.Contains(strings.Join(post, ""), rule) {
				post = append(post, rule)
			}
		}
	}
	nat.WriteString(" }\n chain post { type nat hook postrouting priority srcnat;\n")
	nat.WriteString(strings.Join(post, ""))
	nat.WriteString(" }\n")
	// A private network behind NAT is reached from another network only
	// through its NAT: a connection into it that another network opens is
	// dropped unless the router mapped it there from a public address;
	// replies to what its hosts opened come back.
	nat.WriteString(" chain inward { type filter hook forward priority filter; policy accept;\n")
	nat.WriteString("  ct state established,related accept\n  ct status dnat accept\n")
	for _, br := range private {
		fmt.Fprintf(&nat, "  iifname != %q oifname %q drop\n", br, br)
	}
	nat.WriteString(" }\n}\n")
	u.router.Run(t, "sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
	runStdin(t, nat.String(), "ip", "netns", "exec", u.router.Name, "nft", "-f", "-")
	dropFragments(t, u.router)
	// The attacker: at the first node's site, its network's address 250.
	first := s.Nodes[0].gen
	b := first.own.Masked().Addr().As16()
	b[15] = 250
	atk := netip.AddrFrom16(b)
	if first.own.Addr().Is4() {
		atk = atk.Unmap()
	}
	u.attacker = newNamespace(t, "latk")
	plug(t, u.router, bridge(first.own), "p-atk", u.attacker, netip.PrefixFrom(atk, first.own.Bits()).String())
	defaultVia(t, u.attacker.Run, first.gw)
	return u
}

// plugGen puts a generated node on its network's bridge, its default
// route through the router.
func (u *underlay) plugGen(t testing.TB, n *Node, ns *netns.Netns) {
	t.Helper()
	plug(t, u.router, n.gen.bridge, "p-"+n.Name, ns, n.gen.own.String())
	defaultVia(t, ns.Run, n.gen.gw)
}

func defaultVia(t testing.TB, run func(testing.TB, ...string) string, gw netip.Addr) {
	t.Helper()
	if gw.Is6() {
		run(t, "ip", "-6", "route", "add", "default", "via", gw.String())
		return
	}
	run(t, "ip", "route", "add", "default", "via", gw.String())
}

// upGen brings up a generated set: every node's namespace first, then on
// each its secrets where its document reads them (a file under its root,
// or a credential systemd delivers to the agent's unit), its host facts
// gathered by the facts command in its namespace, apply with those facts,
// the guard and wg-quick up; then the stand-ins and the virtual IP. A node
// that does not come up is noted (the cluster does not work) and the rest
// is left down.
func upGen(t testing.TB, g *clustergen.Set) *genLab {
	t.Helper()
	requireLab(t)
	start := time.Now()
	s := genScenario(t, g)
	gl := &genLab{Lab: &Lab{S: s, dir: t.TempDir()}, g: g}
	gl.setDir = filepath.Join(gl.dir, "set")
	if err := os.MkdirAll(filepath.Join(gl.setDir, "facts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if g.Sites {
		// The set's sites and NATs, as validate --cluster --topology
		// reads them (no node reads it).
		if err := os.WriteFile(filepath.Join(gl.setDir, clustergen.TopologyName), []byte(g.TopologyFile()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gl.u = newGenUnderlay(t, s)
	for _, n := range s.Nodes {
		gl.Nodes = append(gl.Nodes, newLabNode(t, gl.u, n, s, gl.dir))
	}
	// The nodes boot at once, as a cluster's do.
	bin, globs := agentbin.Path(t), importedCredentials(t)
	errs := make([]error, len(gl.Nodes))
	var wg sync.WaitGroup
	for i, ln := range gl.Nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = gl.provision(ln, g.Nodes[i], bin, globs, fixture.CredentialsDir(t, nil))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			gl.notUp = append(gl.notUp, fmt.Sprintf("%s: does not come up: %v", gl.Nodes[i].Name, err))
		}
	}
	if len(gl.notUp) == 0 {
		for _, ln := range gl.Nodes {
			gl.startServices(t, ln)
		}
		gl.startVIP(t)
	}
	gl.upTook = time.Since(start)
	t.Logf("the lab of %s is up in %v", g, gl.upTook.Round(time.Millisecond))
	return gl
}

// genSecret is the value of each secret a generated document names, by
// its file or credential name: the node's own key under its own names.
func genSecrets(gn *clustergen.Node) map[string]string {
	return map[string]string{
		"/etc/corium/wg0.key":          gn.Private.String(),
		gn.Credential:                  gn.Private.String(),
		"/etc/corium/controller-token": fixture.ControllerJoinToken(""),
		"corium.join-token":            fixture.JoinToken(""),
		"/etc/corium/psk":              "aW5zZWN1cmUtbGFiLXByZXNoYXJlZC1rZXktMDAwMDA=",
		"corium.kine":                  "postgres://kine:lab@192.0.2.5:5432/kine",
		"/etc/corium/kine-datasource":  "postgres://kine:lab@192.0.2.5:5432/kine",
		"corium.vrrp":                  "labvrrp1",
	}
}

// importedCredentials are the credential name globs the image's unit
// imports (ImportCredential=): systemd delivers the agent those alone.
func importedCredentials(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "image/usr/lib/systemd/system/corium-agent.service"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var globs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "ImportCredential="); ok {
			globs = append(globs, v)
		}
	}
	if len(globs) == 0 {
		t.Fatal("corium-agent.service imports no credential")
	}
	return globs
}

// provision is the node's first boot: its secrets in place (credentials
// in credDir as systemd delivers them to the unit: those its
// ImportCredential= globs match), its facts gathered in its namespace,
// apply, the guard, the overlay. bin is the agent.
func (gl *genLab) provision(ln *LabNode, gn *clustergen.Node, bin string, globs []string, credDir string) error {
	doc := ln.docPath()
	files := map[string]string{doc: gn.Document(), filepath.Join(gl.setDir, gn.File()): gn.Document()}
	for name, v := range genSecrets(gn) {
		if strings.HasPrefix(name, "/") {
			files[filepath.Join(ln.Root, name)] = v + "\n"
			continue
		}
		for _, g := range globs {
			if ok, _ := path.Match(g, name); ok {
				files[filepath.Join(credDir, name)] = v
			}
		}
	}
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			return err
		}
	}
	facts, err := exec.Command(bin, "facts", "--root", ln.Root, "--config", doc, "--netns", ln.NS.Path()).Output()
	if err != nil {
		return fmt.Errorf("corium-agent facts: %w", err)
	}
	factsPath := filepath.Join(gl.setDir, "facts", gn.Name+".json")
	if err := os.WriteFile(factsPath, facts, 0o644); err != nil {
		return err
	}
	apply := exec.Command(bin, "apply", "--root", ln.Root, "--config", doc, "--facts", factsPath)
	apply.Env = append(os.Environ(), "CREDENTIALS_DIRECTORY="+credDir)
	if out, err := apply.CombinedOutput(); err != nil {
		return fmt.Errorf("corium-agent apply: %w: %s", err, lastLine(out))
	}
	if out, err := exec.Command(bin, "firewall", "apply", "--root", ln.Root, "--netns", ln.NS.Path()).CombinedOutput(); err != nil {
		return fmt.Errorf("corium-agent firewall apply: %w: %s", err, lastLine(out))
	}
	if out, err := ln.Exec("wg-quick", "up", ln.wgConf()); err != nil {
		return fmt.Errorf("wg-quick up: %w: %s", err, lastLine([]byte(out)))
	}
	return nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// run is the lab's truth about the set: nothing kept a node from coming
// up, every dialled tunnel opens from its dialer alone, and the verdict
// (the pairs over the overlay, the handshakes, the virtual IP, the open
// network's view) finds nothing.
func (gl *genLab) run(t testing.TB) []string {
	t.Helper()
	if len(gl.notUp) > 0 {
		gl.problems = gl.notUp
		return gl.problems
	}
	cold := &Verdict{}
	start := time.Now()
	gl.coldDials(t, cold)
	gl.primed = true
	t.Logf("the cold dials took %v", time.Since(start).Round(time.Millisecond))
	gl.verdict = gl.Verdict(t)
	gl.problems = append(append([]string(nil), cold.Problems...), gl.verdict.Problems...)
	if gl.verdict.Checked == 0 {
		t.Fatal("the lab checked nothing")
	}
	return gl.problems
}
