package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// publicNote is the public list docs/reference.md quotes under
// firewall.publicPorts, the API's port and, without the load balancer, it
// alone.
var publicNote = regexp.MustCompile("shows `(public [^`]+)` for `publicPorts: \\[(\\d+)\\]`")

// The paragraph under firewall.publicPorts in docs/reference.md quotes what
// the guard's summary shows for the demo (an HA controller with
// publicPorts: [6443]), and says the API's port stands alone without the
// load balancer: both are held to plan's guard line.
func TestPublicPortsNoteIsTheSummary(t *testing.T) {
	ref, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	m := publicNote.FindStringSubmatch(string(ref))
	if m == nil {
		t.Fatal("docs/reference.md quotes no guard summary under firewall.publicPorts")
	}
	quoted, api := m[1], m[2]
	code, out, errOut := runCLI(t, demoArgs("plan", fixture.DemoRoot(t, demo))...)
	if code != exitOK {
		t.Fatalf("plan: exit %d\n%s", code, errOut)
	}
	if line := guardLine(t, out); !strings.Contains(line, "; "+quoted+";") {
		t.Errorf("docs/reference.md says the summary shows %q; plan's guard line is\n%s", quoted, line)
	}

	// Without the load balancer, the API's port alone.
	doc, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	noLB := writeConfig(t, "nolb.yaml", string(doc)+"k0s: {patch: {spec: {network: {controlPlaneLoadBalancing: {keepalived: {disableLoadBalancer: true}}}}}}\n")
	code, out, errOut = runCLI(t, "plan", "--root", fixture.DemoRoot(t, demo), "--config", noLB, "--facts", filepath.Join(demo, "facts.json"))
	if code != exitOK {
		t.Fatalf("plan without the load balancer: exit %d\n%s", code, errOut)
	}
	if line := guardLine(t, out); !strings.Contains(line, "; public "+api+"/tcp;") {
		t.Errorf("without the load balancer the summary should show public %s/tcp alone:\n%s", api, line)
	}
}
