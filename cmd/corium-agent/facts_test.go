package main

import (
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// factsDoc is a controller with unicast VRRP and no ha.interface: plan
// refuses it without the host's facts (the VRRP interface is the one the
// routes to its unicast peers leave by), and its peers' endpoints, of
// both families, are the routes facts looks up.
const factsDoc = `role: controller
cluster: {endpoint: 192.0.2.100}
ha:
  enabled: true
  virtualIP: 192.0.2.100/24
  virtualRouterID: 51
  authPassFrom: {file: /run/corium/secrets/vrrp-pass}
  unicastPeers: [192.0.2.1, 192.0.2.2, 192.0.2.3]
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    listenPort: 51820
    privateKeyFrom: {file: /run/corium/secrets/wg0.key}
    peers:
      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
        endpoint: 198.51.100.7:51820
        allowedIPs: [10.10.0.2/32]
      - publicKey: 8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc=
        endpoint: "[2001:db8:b::7]:51820"
        allowedIPs: [10.10.0.3/32]
`

// TestFactsIsWhatApplyGathers sets up a node namespace with known links,
// addresses and routes (a dual-stack default route, a route to one peer
// with an MTU of its own) and runs facts there two ways: with --netns and
// inside the namespace. Both print what apply's gatherer reads there, with
// the values the setup made, and plan --facts takes it where it refuses
// without.
func TestFactsIsWhatApplyGathers(t *testing.T) {
	host.RequireRoot(t, "ip", "sysctl")
	node, gw := netns.New(t, "fct-n"), netns.New(t, "fct-g")
	netns.Veth(t, node, "ul0", "192.0.2.1/24 2001:db8:a::1/64", gw, "ul0", "192.0.2.2/24 2001:db8:a::2/64")
	node.Run(t, "ip", "route", "add", "default", "via", "192.0.2.2", "dev", "ul0")
	node.Run(t, "ip", "-6", "route", "add", "default", "via", "2001:db8:a::2", "dev", "ul0")
	node.Run(t, "ip", "route", "add", "198.51.100.7/32", "via", "192.0.2.2", "dev", "ul0", "mtu", "1380")
	doc := writeConfig(t, "c1.yaml", factsDoc)
	root := t.TempDir()

	code, viaFlag, stderr := runCLI(t, "facts", "--root", root, "--netns", node.Path(), "--config", doc)
	if code != exitOK || stderr != "" {
		t.Fatalf("facts --netns: exit %d, stderr %q", code, stderr)
	}
	var inside string
	if err := node.Do(func() error {
		code, inside, stderr = runCLI(t, "facts", "--config", doc)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if code != exitOK || stderr != "" || inside != viaFlag {
		t.Fatalf("facts inside the namespace: exit %d, stderr %q, output differs from --netns's: %v", code, stderr, inside != viaFlag)
	}

	got, err := hostfacts.Parse([]byte(viaFlag))
	if err != nil {
		t.Fatalf("facts' output does not parse as --facts: %v\n%s", err, viaFlag)
	}
	cfg, _, err := schema.Load([]byte(factsDoc))
	if err != nil {
		t.Fatal(err)
	}
	want, err := liveFacts(node.Netlink(t))(hostfacts.RouteTargets(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("facts printed\n%+v\napply's gatherer reads\n%+v", got, want)
	}
	// The setup's values, so the comparison is not of two empty reads.
	a := netip.MustParseAddr
	if d := got.DefaultRoute; d == nil || d.Interface != "ul0" || d.Source != a("192.0.2.1") {
		t.Errorf("defaultRoute = %+v, want ul0 from 192.0.2.1", d)
	}
	if d := got.DefaultRoute6; d == nil || d.Source != a("2001:db8:a::1") {
		t.Errorf("defaultRoute6 = %+v, want from 2001:db8:a::1", d)
	}
	if r := got.PeerRoute(a("198.51.100.7")); r == nil || r.MTU != 1380 || r.Interface != "ul0" {
		t.Errorf("route to 198.51.100.7 = %+v, want ul0 with the route's mtu 1380", r)
	}
	for _, to := range []string{"2001:db8:b::7", "192.0.2.2", "192.0.2.3"} {
		if got.PeerRoute(a(to)) == nil {
			t.Errorf("no peerRoute to %s, a route target of the document", to)
		}
	}

	// plan refuses the document without facts, and takes these.
	code, _, stderr = runCLI(t, "plan", "--root", root, "--config", doc)
	if code != exitFailed || !strings.Contains(stderr, "--facts") {
		t.Fatalf("plan without --facts: exit %d, stderr %q; want a refusal asking for --facts", code, stderr)
	}
	factsFile := filepath.Join(t.TempDir(), "c1.facts.json")
	if err := os.WriteFile(factsFile, []byte(viaFlag), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runCLI(t, "plan", "--root", root, "--config", doc, "--facts", factsFile); code != exitOK || stderr != "" {
		t.Fatalf("plan --facts with facts' output: exit %d, stderr %q\n%s", code, stderr, out)
	}
	if code, out, _ := runCLI(t, "validate", "--facts", factsFile, doc); code != exitOK {
		t.Errorf("validate --facts with facts' output: exit %d\n%s", code, out)
	}

	// The gateway's network is another host's: not what the node gathers.
	other, err := liveFacts(gw.Netlink(t))(hostfacts.RouteTargets(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(got, other) {
		t.Error("the node's facts equal another namespace's: the comparison tells nothing")
	}
}

// TestFactsRefusesAnotherRootsKernel: with a root other than / and no
// --netns, the network the command runs in is not that node's; facts says
// so and prints nothing, as firewall does.
func TestFactsRefusesAnotherRootsKernel(t *testing.T) {
	doc := writeConfig(t, "c1.yaml", factsDoc)
	root := t.TempDir()
	code, out, stderr := runCLI(t, "facts", "--root", root, "--config", doc)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "pass --netns PATH") {
		t.Errorf("facts --root without --netns: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "facts", "--root", root, "--netns", "/proc/self/ns/net")
	if code != exitUsage || out != "" || !strings.Contains(stderr, "no source under "+root+" holds a corium block") {
		t.Errorf("facts with no document: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "facts", "--root", root, "--netns", doc, "--config", doc)
	if code != exitFailed || out != "" || !strings.Contains(stderr, "is not a network namespace") {
		t.Errorf("facts --netns FILE: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// The -h of every command that takes --facts names the command that
// writes them.
func TestFactsFlagPointsAtFacts(t *testing.T) {
	for _, cmd := range []string{"apply", "plan", "validate"} {
		_, out, _ := runCLI(t, cmd, "-h")
		i := strings.Index(out, "-facts")
		if i < 0 || !strings.Contains(out[i:min(len(out), i+300)], "corium-agent facts") {
			t.Errorf("%s -h: --facts does not point at corium-agent facts:\n%s", cmd, out)
		}
	}
	_, out, _ := runCLI(t, "facts", "-h")
	if !strings.Contains(out, "rescue") {
		t.Errorf("facts -h does not warn about a rescue system:\n%s", out)
	}
}
