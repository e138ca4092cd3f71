package boot

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// benchConfig is the node the boot benchmark provisions: a single node with
// an inline key, one peer and the guard on.
func benchConfig(key, peer wgtypes.Key) string {
	return fmt.Sprintf(`role: single
firewall:
  clusterPorts: overlay
wireguard:
  - name: wg0
    address: 10.79.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: 192.0.2.9:51820
        allowedIPs: [10.79.0.2/32]
`, key, peer.PublicKey())
}

// BenchmarkBootFirstBoot boots fresh nodes that provision themselves with
// the agent, and as many that run the floor instead (bench/boot-floor.sh:
// the same files written the same way, one reload, the overlay started, the
// guard loaded, the stand-in's install, k0s queued — fixed steps, no
// decisions), alternating, and reports the medians: agent-ms and floor-ms
// are each unit's run as systemd recorded it (start to exit), ratio is
// agent/floor. Run it with -benchtime=5x or more; each step's median is
// logged.
func BenchmarkBootFirstBoot(b *testing.B) {
	host.RequireRoot(b, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip", "nft")
	ns := netns.New(b, "cb-bench")
	var agent, floor []time.Duration
	agentSteps, floorSteps := map[string][]time.Duration{}, map[string][]time.Duration{}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		config := benchConfig(fixture.GenKey(b), fixture.GenKey(b))

		n := NewNode(b, "bench", ns)
		n.WriteFile("/etc/corium/config.yaml", []byte(config), 0o600)
		d := bootAndTime(b, n, "corium-agent.service")
		agent = append(agent, d)
		for name, ms := range agentStepDurations(b, n) {
			agentSteps[name] = append(agentSteps[name], ms)
		}
		n.Shutdown()

		f := floorNode(b, ns, config)
		floor = append(floor, bootAndTime(b, f, "corium-floor.service"))
		for name, us := range floorStepDurations(b, f) {
			floorSteps[name] = append(floorSteps[name], us)
		}
		f.Shutdown()
		b.StartTimer()
	}
	a, fl := median(agent), median(floor)
	b.ReportMetric(float64(a.Microseconds())/1000, "agent-ms")
	b.ReportMetric(float64(fl.Microseconds())/1000, "floor-ms")
	b.ReportMetric(float64(a)/float64(fl), "agent/floor")
	// Each step's median as a metric too: the log of a benchmark run
	// several times is cut short, its metrics line never is.
	for prefix, steps := range map[string]map[string][]time.Duration{"agent": agentSteps, "floor": floorSteps} {
		for name, ds := range steps {
			b.ReportMetric(float64(median(ds).Microseconds())/1000, prefix+"-"+name+"-ms")
		}
	}
	b.Logf("agent steps (median of %d): %s", len(agent), breakdown(agentSteps))
	b.Logf("floor steps (median of %d): %s", len(floor), breakdown(floorSteps))
}

// bootAndTime boots n and returns how long unit ran, start to exit.
func bootAndTime(b *testing.B, n *Node, unit string) time.Duration {
	b.Helper()
	if state := n.Boot(); state != "running" {
		b.Fatalf("state %s:\n%s", state, n.JournalText(n.BootID))
	}
	p := n.Show(unit, "Result", "ExecMainStartTimestampMonotonic", "ExecMainExitTimestampMonotonic")
	if p["Result"] != "success" {
		b.Fatalf("%s: %v\n%s", unit, p, n.JournalText(n.BootID))
	}
	us := guest.Monotonic(p, "ExecMainExitTimestampMonotonic") - guest.Monotonic(p, "ExecMainStartTimestampMonotonic")
	return time.Duration(us) * time.Microsecond
}

// floorNode is a node that runs bench/boot-floor.sh where corium-agent
// would run, with what the agent writes for config laid out for it: the
// tree a run of the agent into a scratch root writes, and its install line.
func floorNode(b *testing.B, ns *netns.Netns, config string) *Node {
	b.Helper()
	scratch := b.TempDir()
	cfgFile := filepath.Join(b.TempDir(), "config.yaml")
	if err := os.WriteFile(cfgFile, []byte(config), 0o600); err != nil {
		b.Fatal(err)
	}
	factsFile := filepath.Join(b.TempDir(), "facts.json")
	if err := os.WriteFile(factsFile, []byte(`{"interfaces": []}`), 0o600); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command(agentBinary(b), "apply", "--root", scratch, "--config", cfgFile, "--facts", factsFile).CombinedOutput(); err != nil {
		b.Fatalf("rendering the floor's files: %v\n%s", err, out)
	}
	f := NewNode(b, "floor", ns)
	f.CopyTree(scratch, "/var/lib/corium-floor/tree")
	copyLinks(b, scratch, f.Path("/var/lib/corium-floor/tree"))
	var st struct {
		Steps []struct {
			Actions []struct {
				Kind string   `json:"kind"`
				Args []string `json:"args"`
			} `json:"actions"`
		} `json:"steps"`
	}
	data, err := os.ReadFile(filepath.Join(scratch, "run/corium/status.json"))
	if err != nil || json.Unmarshal(data, &st) != nil {
		b.Fatalf("reading the scratch run's status: %v", err)
	}
	for _, s := range st.Steps {
		for _, a := range s.Actions {
			if a.Kind == "k0s-install" {
				f.WriteFile("/var/lib/corium-floor/install.args", []byte(strings.Join(a.Args, "\n")+"\n"), 0o600)
			}
		}
	}
	f.CopyFile(filepath.Join(repoRoot, "bench/boot-floor.sh"), "/usr/local/bin/boot-floor.sh", 0o755)
	f.WriteFile("/etc/systemd/system/corium-floor.service", []byte(`[Unit]
Description=first-boot floor for the boot benchmark (not the agent)
Wants=network-online.target
After=network-online.target time-sync.target cloud-init-network.service cloud-init.service
ConditionPathExists=!/var/lib/corium/provisioned

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/boot-floor.sh

[Install]
WantedBy=multi-user.target
`), 0o644)
	host.Run(b, "systemctl", "--root="+f.Root, "disable", "corium-agent.service")
	host.Run(b, "systemctl", "--root="+f.Root, "enable", "corium-floor.service")
	return f
}

// copyLinks recreates src's symlinks under dst (CopyTree copies files).
func copyLinks(b *testing.B, src, dst string) {
	b.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.Mode()&os.ModeSymlink == 0 {
			return err
		}
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		_ = os.Remove(filepath.Join(dst, rel))
		return os.Symlink(target, filepath.Join(dst, rel))
	})
	if err != nil {
		b.Fatal(err)
	}
}

// agentStepDurations are the steps of the agent's run as its status file
// records them.
func agentStepDurations(b *testing.B, n *Node) map[string]time.Duration {
	b.Helper()
	out, err := n.Exec("cat", "/run/corium/status.json")
	if err != nil {
		b.Fatalf("reading the agent's status: %v", err)
	}
	var st struct {
		Steps []struct {
			Name       string `json:"name"`
			DurationMS int64  `json:"durationMs"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		b.Fatal(err)
	}
	steps := map[string]time.Duration{}
	for _, s := range st.Steps {
		steps[s.Name] += time.Duration(s.DurationMS) * time.Millisecond
	}
	return steps
}

// floorStepDurations are the floor script's steps as it recorded them.
func floorStepDurations(b *testing.B, n *Node) map[string]time.Duration {
	b.Helper()
	steps := map[string]time.Duration{}
	for _, l := range strings.Split(strings.TrimSpace(n.ReadFile("/var/lib/corium-floor/steps")), "\n") {
		name, us, ok := strings.Cut(l, " ")
		v, err := strconv.ParseInt(us, 10, 64)
		if !ok || err != nil {
			b.Fatalf("floor steps: %q", l)
		}
		steps[name] = time.Duration(v) * time.Microsecond
	}
	return steps
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func breakdown(steps map[string][]time.Duration) string {
	names := make([]string, 0, len(steps))
	for n := range steps {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.1fms", n, float64(median(steps[n]).Microseconds())/1000)
	}
	return strings.Join(parts, ", ")
}
