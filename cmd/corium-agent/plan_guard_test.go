package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// guardLine is plan's line on the guard.
func guardLine(t *testing.T, out string) string {
	t.Helper()
	var found []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "guard: ") {
			found = append(found, l)
		}
	}
	if len(found) != 1 {
		t.Fatalf("plan prints %d guard lines, want 1:\n%s", len(found), out)
	}
	return found[0]
}

// plan's summary says what the guard apply writes guards, leaves public
// and trusts, as the file apply writes has it; a port made public moves
// from one list to the other; with clusterPorts: open it says the guard
// is off.
func TestPlanSummarisesTheGuard(t *testing.T) {
	code, out, errOut := runCLI(t, demoArgs("plan", fixture.DemoRoot(t, demo))...)
	if code != exitOK {
		t.Fatalf("plan: exit %d\n%s", code, errOut)
	}
	line := guardLine(t, out)
	root := fixture.DemoRoot(t, demo)
	if code, _, errOut := runCLI(t, demoArgs("apply", root)...); code != exitOK {
		t.Fatalf("apply: exit %d\n%s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(root, firewall.FilePath))
	if err != nil {
		t.Fatal(err)
	}
	g, err := firewall.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	want := "guard: on (clusterPorts: overlay): guarded " + joinPorts(g.Ports) + "; trusted " + strings.Join(g.Interfaces, " ") +
		", and pods on " + strings.Join(g.PodInterfaces, " ") + "; public " + joinPorts(g.PublicPorts) + ";"
	if !strings.HasPrefix(line, want) || !strings.Contains(line, "addressed to "+g.Endpoint.Address) {
		t.Errorf("plan's guard line\n%s\nis not the guard apply wrote: want it to begin\n%s", line, want)
	}
	for _, p := range []string{"10250/tcp", "6443/tcp", "wg0", "wg1"} {
		if !strings.Contains(line, p) {
			t.Errorf("the guard line names no %s: %s", p, line)
		}
	}

	worker := "role: worker\njoin: {tokenFrom: {file: /run/t}}\nwireguard:\n  - name: wg0\n    address: 10.10.0.5/24\n    nodeAddress: true\n    privateKeyFrom: {credential: c}\n    peers:\n      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=\n        endpoint: 192.0.2.1:51820\n        allowedIPs: [10.10.0.0/24]\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"guarded", worker + "firewall: {clusterPorts: overlay}\n", "guard: on (clusterPorts: overlay): guarded 179/tcp 8080/tcp 10249/tcp 10250/tcp 10256/tcp 20244/tcp; trusted lo wg0, and pods on kube-bridge tun-*; public none"},
		{"a public port", worker + "firewall: {clusterPorts: overlay, publicPorts: [10250]}\n", "guard: on (clusterPorts: overlay): guarded 179/tcp 8080/tcp 10249/tcp 10256/tcp 20244/tcp; trusted lo wg0, and pods on kube-bridge tun-*; public 10250/tcp"},
		{"open", worker + "firewall: {clusterPorts: open}\n", "guard: off (clusterPorts: open): every cluster port is reachable from any link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", writeConfig(t, "w.yaml", tc.doc))
			if code != exitOK {
				t.Fatalf("plan: exit %d\n%s", code, errOut)
			}
			if line := guardLine(t, out); !strings.HasPrefix(line, tc.want) {
				t.Errorf("guard line\n%s\nwant it to begin\n%s", line, tc.want)
			}
		})
	}
}
