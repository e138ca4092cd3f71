package vm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// comparison is the table TestVMRecipe prints and docs/vm-test.md keeps:
// per property, what the agent's pair and the recipe's pair showed.
type comparison struct{ rows [][3]string }

func (c *comparison) add(property, agent, recipe string) {
	c.rows = append(c.rows, [3]string{property, agent, recipe})
}

func (c *comparison) String() string {
	var b strings.Builder
	b.WriteString("| | the agent (c1, w1) | the recipe (rc1, rw1) |\n|---|---|---|\n")
	for _, r := range c.rows {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r[0], r[1], r[2])
	}
	return b.String()
}

// TestVMRecipe measures ADR 6's comparison: the cluster of TestVMCluster
// provisioned by the agent (c1 PXE-booted with its document on the kernel
// command line, w1 from a NoCloud seed's corium: key, their secrets SMBIOS
// credentials) and the same cluster from the cloud-init recipe of
// docs/overlay.md (rc1, rw1: NoCloud seeds carrying the recipe, no agent),
// on the same cores in the same run, each machine booted beside its
// counterpart of the other way, each pair on its own network. It measures
// the time from network-online.target to k0s's start, the address each
// node registers, where each node's secrets are in
// cleartext, what a node without a datasource has to run, and, after a
// reboot of the recipe pair with its wg0.conf damaged, what the recipe's
// k0s drop-in does with the tunnel down. The table is printed at the end.
func TestVMRecipe(t *testing.T) {
	requireVM(t)
	began := time.Now()
	n := newTwoNodes(t)
	r := newRecipePair(t)
	agent, recipe := []*Machine{n.c1, n.w1}, []*Machine{r.c1, r.w1}
	all := append(slices.Clone(agent), recipe...)
	unit := map[*Machine]string{n.c1: "k0scontroller.service", r.c1: "k0scontroller.service", n.w1: "k0sworker.service", r.w1: "k0sworker.service"}
	keyOf := map[*Machine]string{n.c1: n.keys.c1Key.String(), n.w1: n.keys.w1Key.String(), r.c1: r.keys.c1Key.String(), r.w1: r.keys.w1Key.String()}
	tokenOf := map[*Machine]string{n.w1: n.keys.joinToken, r.w1: r.keys.joinToken}
	peer := map[*Machine]string{n.c1: overlayW1, r.c1: overlayW1, n.w1: overlayC1, r.w1: overlayC1}
	// Two machines boot at a time, one of each way in the same role, so
	// that the two being compared share the cores alike and meet whatever
	// else loads the host at the same moment: four emulated machines on
	// two cores slowed whichever was in a busy phase while another was,
	// and the same node's time to k0s varied by a minute from run to run.
	// The controllers go first and stay up, idle, while the workers boot.
	for _, pair := range [][]*Machine{{n.c1, r.c1}, {n.w1, r.w1}} {
		for _, m := range pair {
			m.Start()
		}
		for _, m := range pair {
			m.WaitBooted()
		}
		for _, m := range pair {
			waitActive(t, m, unit[m], 3*time.Minute)
		}
	}
	var table comparison

	t.Run("both ways bring the cluster up", func(t *testing.T) {
		assertProvisioned(t, n.c1, chain.NameCmdline)
		assertProvisioned(t, n.w1, "cloud-init")
		for _, m := range recipe {
			a := m.Show("corium-agent.service", "LoadState", "ExecMainStartTimestampMonotonic")
			if a["LoadState"] != "masked" || guest.Monotonic(a, "ExecMainStartTimestampMonotonic") != 0 {
				t.Errorf("%s: corium-agent.service = %v, want masked and never run: the recipe has no agent", m.Name, a)
			}
			// The user-data as cloud-init 25 in the guest read it.
			out, err := m.ExecIn(5*time.Minute, nil, "cloud-init", "schema", "--system")
			out = m.Secrets.Redact(t, out)
			if !strings.Contains(out, "Valid schema user-data") {
				t.Errorf("%s: cloud-init schema --system: %v\n%s", m.Name, err, out)
			}
			t.Logf("%s: cloud-init schema --system: %s", m.Name, strings.Join(strings.Fields(out), " "))
			if n := m.standIn().Installs(); n != 1 {
				t.Errorf("%s: k0s install ran %d times, want 1 (runcmd)", m.Name, n)
			}
			if after := m.afterList(unit[m]); !slices.Contains(after, "wg-quick@wg0.service") {
				t.Errorf("%s: %s is not ordered after wg-quick@wg0.service: the recipe's drop-in was not loaded (After=%v)", m.Name, unit[m], after)
			}
		}
		for _, m := range all {
			assertK0sStarted(t, m, unit[m])
			assertKernelWireGuard(t, m)
			pingOverlay(t, m, peer[m])
			assertHandshake(t, m)
		}
	})

	t.Run("time from network-online to k0s", func(t *testing.T) {
		logTimings(t, n.c1, "the agent, config on the kernel command line", unit[n.c1])
		logTimings(t, n.w1, "the agent, config from cloud-init's NoCloud seed", unit[n.w1])
		for _, m := range agent {
			logAgentJournal(t, m)
		}
		for _, m := range all {
			assertNoXFRMModule(t, m)
		}
		xfrmControl(t, r.w1)
		startupCost(t, n.w1, map[string]string{"the agent": "/usr/bin/corium-agent version", "the k0s stand-in": "/usr/local/bin/k0s", "wg": "/usr/bin/wg --version"})
		var agentCell, recipeCell []string
		for _, p := range [][2]*Machine{{n.c1, r.c1}, {n.w1, r.w1}} {
			a, rc := agentToK0s(p[0], unit[p[0]]), recipeToK0s(p[1], unit[p[1]])
			t.Logf("TIMING %s (the agent): k0s %v after network-online.target: %s", p[0].Name, a.took().Round(100*time.Millisecond), a.milestones)
			t.Logf("TIMING %s (the recipe): k0s %v after network-online.target: %s", p[1].Name, rc.took().Round(100*time.Millisecond), rc.milestones)
			if a.took() == 0 || rc.took() == 0 {
				t.Errorf("%s %v, %s %v: a k0s start before network-online.target or none", p[0].Name, a.took(), p[1].Name, rc.took())
				continue
			}
			// The recipe's k0s comes from runcmd, in cloud-final.
			if final := p[1].leftAt("cloud-final.service"); final == 0 || rc.k0s < final {
				t.Errorf("%s: k0s started at %s, cloud-final.service at %s: the recipe's k0s should come from runcmd", p[1].Name, seconds(rc.k0s), seconds(final))
			}
			// A measurement, not a check: speed goals live in benchmarks
			// (bench/, test/boot's BenchmarkBootFirstBoot), and an emulated
			// guest's time follows the host's load.
			if a.took() > rc.took() {
				t.Logf("%s: the agent took %v from network-online.target to k0s, the recipe on %s %v: the agent was slower in this run", p[0].Name, a.took(), p[1].Name, rc.took())
			}
			agentCell = append(agentCell, fmt.Sprintf("%s %.1f s (%s)", p[0].Name, a.took().Seconds(), a.milestones))
			recipeCell = append(recipeCell, fmt.Sprintf("%s %.1f s (%s); agent/recipe %.2f", p[1].Name, rc.took().Seconds(), rc.milestones, a.took().Seconds()/rc.took().Seconds()))
		}
		table.add("network-online.target to k0s started", strings.Join(agentCell, "; "), strings.Join(recipeCell, "; "))
	})

	t.Run("the address each node registers", func(t *testing.T) {
		assertNodeAddress(t, n.c1, overlayC1, true)
		assertNodeAddress(t, n.w1, overlayW1, false)
		var agentCell, recipeCell []string
		for _, m := range agent {
			agentCell = append(agentCell, m.Name+" "+peerOf(m, n)+" (--node-ip, the overlay; node name "+strings.TrimSpace(m.MustExec("hostname"))+")")
		}
		for _, m := range recipe {
			argv := m.standIn().InstallArgs()
			for _, a := range argv {
				if strings.Contains(a, "node-ip") {
					t.Errorf("%s: k0s install %q: the recipe passes no --node-ip", m.Name, argv)
				}
			}
			addr, how := kubeletDefault(readKubeletFacts(t, m))
			t.Logf("%s: k0s install %s; the kubelet's default: %s, %s", m.Name, strings.Join(argv[1:], " "), addr, how)
			if want := map[*Machine]string{r.c1: underlayC1, r.w1: underlayW1}[m]; addr != want {
				t.Errorf("%s: the kubelet's default address is %q, want the underlay's %s", m.Name, addr, want)
			}
			recipeCell = append(recipeCell, m.Name+" "+addr+" (no --node-ip; the kubelet's default: "+how+"; node name "+strings.TrimSpace(m.MustExec("hostname"))+")")
		}
		// The control: with the node name resolving to the overlay address
		// (an /etc/hosts line), the same computation gives the overlay, so
		// an underlay answer above is the guest's, not the computation's.
		r.w1.MustExec("cp", "/etc/hosts", "/run/hosts.before-control")
		r.w1.MustExec("sh", "-c", `echo "`+overlayW1+` $(hostname)" >> /etc/hosts`)
		addr, how := kubeletDefault(readKubeletFacts(t, r.w1))
		r.w1.MustExec("cp", "/run/hosts.before-control", "/etc/hosts")
		if addr != overlayW1 {
			t.Errorf("control: rw1 with its name on %s in /etc/hosts: the kubelet's default computed as %q (%s)", overlayW1, addr, how)
		}
		t.Logf("control: rw1 with its name on the overlay in /etc/hosts: %s, %s", addr, how)
		table.add("the address the node registers", strings.Join(agentCell, "; "), strings.Join(recipeCell, "; "))
	})

	t.Run("where the secrets are in cleartext", func(t *testing.T) {
		// The host's side: what a seed or a TFTP tree gives anyone holding it.
		hostSide := map[*Machine][]string{n.c1: {n.c1.pxe.dir}, n.w1: {n.w1.Seed}, r.c1: {r.c1.Seed}, r.w1: {r.w1.Seed}}
		cells := map[*Machine][]string{}
		for _, m := range all {
			secrets := [][2]string{{"private key", keyOf[m]}}
			if tok := tokenOf[m]; tok != "" {
				secrets = append(secrets, [2]string{"join token", tok})
			}
			for _, s := range secrets {
				host := hostFilesHolding(t, s[1], hostSide[m]...)
				files := filesHolding(t, m, s[1])
				t.Logf("%s: its %s: in %d of its seed/TFTP files; in the guest: %s", m.Name, s[0], len(host), strings.Join(files, " "))
				isAgent := slices.Contains(agent, m)
				switch {
				case isAgent && len(host) > 0:
					t.Errorf("%s: its %s is in %v", m.Name, s[0], host)
				case !isAgent && len(host) == 0:
					// The control: the search finds what the recipe puts there.
					t.Errorf("%s: its %s is not found in its seed, which carries it: the search is blind", m.Name, s[0])
				}
				var cloud []string
				for _, f := range files {
					if strings.HasPrefix(f, "/var/lib/cloud/") || strings.HasPrefix(f, "/run/cloud-init/") {
						cloud = append(cloud, f)
					}
					if isAgent && !agentKeyPlace(f) && f != "/etc/k0s/join-token" {
						t.Errorf("%s: its %s is in %s", m.Name, s[0], f)
					}
				}
				if !isAgent && len(cloud) == 0 {
					t.Errorf("%s: its %s is in no cloud-init file (%v): the guest's search is blind", m.Name, s[0], files)
				}
				where := fmt.Sprintf("%s %s: %s", m.Name, s[0], strings.Join(files, ", "))
				if len(host) > 0 {
					where += " and the seed image"
				}
				cells[m] = append(cells[m], where)
			}
		}
		for _, m := range agent {
			if mode := strings.TrimSpace(m.MustExec("stat", "-c", "%a %U", "/etc/wireguard/wg0.conf")); mode != "600 root" {
				t.Errorf("%s: /etc/wireguard/wg0.conf is %s, want 600 root", m.Name, mode)
			}
		}
		table.add("the secrets in cleartext", strings.Join(append(cells[n.c1], cells[n.w1]...), "; "), strings.Join(append(cells[r.c1], cells[r.w1]...), "; "))
	})

	t.Run("a node without a datasource", func(t *testing.T) {
		// c1 has no datasource: its document came on the kernel command
		// line (assertProvisioned above: provenance cmdline). cloud-init
		// ran there too, on its None datasource: no user-data, so no
		// write_files or runcmd a recipe could have been.
		ds, runcmd := cloudInitRan(t, n.c1)
		if !strings.HasPrefix(ds, "DataSourceNone") || runcmd {
			t.Errorf("c1: cloud-init's datasource %q, a runcmd script %v: want DataSourceNone and none", ds, runcmd)
		}
		// The control: where the datasource delivered the recipe, the same
		// two facts show it.
		rds, rruncmd := cloudInitRan(t, r.c1)
		if !strings.HasPrefix(rds, "DataSourceNoCloud") || !rruncmd {
			t.Errorf("rc1: cloud-init's datasource %q, a runcmd script %v: want NoCloud and the recipe's runcmd", rds, rruncmd)
		}
		t.Logf("c1: cloud-init datasource %s, runcmd script %v, provisioned by the agent from the kernel command line; rc1: datasource %s, runcmd script %v", ds, runcmd, rds, rruncmd)
		table.add("a node with no datasource", "c1 (PXE, the document on the kernel command line) provisions: status provenance "+chain.NameCmdline+"; also TestVMFileAndImageDefault (/etc/corium/config.yaml, the image default)",
			"nothing to run: on c1 cloud-init's datasource is "+ds+", it has no user-data and wrote no runcmd script; on rc1 the recipe came from "+rds)
	})

	t.Run("k0s with the tunnel broken", func(t *testing.T) {
		// The agent's side is TestVMCluster's negative control; its pair
		// is done here, and its cores go to the recipe pair's reboot.
		n.poweroff()
		for _, m := range recipe {
			damageWireGuardConf(t, m)
			m.Poweroff()
		}
		for _, m := range recipe {
			m.Start()
		}
		for _, m := range recipe {
			m.WaitBooted()
		}
		var cell []string
		for _, m := range recipe {
			wg, k0s := m.jobResult("wg-quick@wg0.service", "start"), m.jobResult(unit[m], "start")
			started := m.standInStartedThisBoot()
			t.Logf("%s: damaged wg0.conf: wg-quick@wg0 start job %q, %s start job %q, the stand-in started in this boot: %v; k0s install ran %d times",
				m.Name, wg, unit[m], k0s, started, m.standIn().Installs())
			// The recipe's drop-in Requires= the interface, as the agent's does.
			if wg != "failed" || k0s != "dependency" || started {
				t.Errorf("%s: with wg0.conf damaged: wg-quick@wg0 %q, %s %q, started %v; want failed, dependency, not started", m.Name, wg, unit[m], k0s, started)
			}
			cell = append(cell, fmt.Sprintf("%s: wg-quick@wg0 %s, %s start job %s, k0s started: %v", m.Name, wg, unit[m], k0s, started))
		}
		table.add("k0s with the tunnel broken (wg0.conf damaged, a reboot)",
			"refuses: wg-quick@wg0 failed, k0s's start job dependency, the stand-in never runs (TestVMCluster's negative control)",
			strings.Join(cell, "; ")+" (its drop-in's Requires=)")
		for _, m := range recipe {
			m.Poweroff()
		}
	})

	t.Logf("ADR 6's comparison, measured (%s):\n%s\nTestVMRecipe took %v",
		time.Now().UTC().Format("2006-01-02"), table.String(), time.Since(began).Round(time.Second))
}

// peerOf is the overlay address a node of the agent's pair registers.
func peerOf(m *Machine, n *twoNodes) string {
	if m == n.c1 {
		return overlayC1
	}
	return overlayW1
}

// cloudInitRan is the datasource cloud-init used in this boot (its
// result.json) and whether it wrote a runcmd script for the instance.
func cloudInitRan(t *testing.T, m *Machine) (datasource string, runcmd bool) {
	t.Helper()
	var res struct {
		V1 struct {
			Datasource string `json:"datasource"`
		} `json:"v1"`
	}
	raw := m.MustExec("cat", "/run/cloud-init/result.json")
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("%s: /run/cloud-init/result.json: %v", m.Name, err)
	}
	_, err := m.Exec("test", "-e", "/var/lib/cloud/instance/scripts/runcmd")
	return res.V1.Datasource, err == nil
}
