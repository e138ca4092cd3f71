package lab

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// Real keepalived in place of the lab's stand-in for it, on every
// controller of a scenario with a virtual IP: Debian's keepalived, run with
// k0s's arguments (pkg/component/controller/cplb/cplb_linux.go:134-140 at
// v1.36.3+k0s.0) on the configuration k0s renders from the k0s.yaml the
// agent wrote (renderKeepalived, cplb_template_test.go). k0s runs it as the
// keepalived user when there is one (cplb_linux.go:69-74); here as root.

// keepalivedBinary is Debian's keepalived, 2.2.7 on Debian 12
// (scripts/deps.sh installs it; k0s v1.36.3 ships 2.3.4).
const keepalivedBinary = "keepalived"

// vrrpAdvert is k0s's advert interval (cplb.go:173-175, a second): an
// election takes keepalived's master-down interval, three adverts and a
// skew (RFC 3768 6.1), so about 3.2 s with k0s's priority of 200.
const vrrpAdvert = time.Second

// garpMasterDelay is keepalived's vrrp_garp_master_delay, left at its
// default by k0s's template (no global_defs): a new master sends a second
// set of gratuitous ARPs (unsolicited NAs) that long after its transition
// (keepalived.conf(5): "default 5"). Two controllers of k0s's equal
// priority can both take the address at once; the one that gives it up
// leaves the neighbours that took its gratuitous ARPs pointing at it, and
// only that second set corrects them (TestKeepalivedUnicast once saw w1's
// connection to the virtual IP answered by such a controller, 2 s after the
// holders settled). The cluster has converged once the holders have not
// changed for that long.
const garpMasterDelay = 5 * time.Second

// vipSettled is how long the holders must not change before the virtual
// IP is connected to: the second set of gratuitous ARPs, and an advert.
const vipSettled = garpMasterDelay + vrrpAdvert

// keepalivedCluster is keepalived on the controllers of a lab.
type keepalivedCluster struct {
	// pass is the documents' VRRP password, drawn for the test: nothing the
	// test prints or keeps may hold it.
	pass  string
	mu    sync.Mutex
	procs []*keepalivedProc
}

// keepalivedProc is keepalived on one controller.
type keepalivedProc struct {
	ln        *LabNode
	conf, log string
	pids      string // the prefix of its pid files
	// tested is what keepalived said of its configuration (-t).
	tested string
	cmd    *exec.Cmd
	exited chan struct{}
}

// newVRRPPass is a VRRP password of keepalived's greatest length, new for
// each test, so that finding it in an output cannot be chance.
func newVRRPPass(t testing.TB) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// keepalivedScenario is three controllers sharing a virtual IP of the
// underlay (the first with a kubelet) and a worker, its documents built with a
// password of the test's; unicast gives every controller the one list of
// the controllers' underlay addresses (each drops itself, render's
// ChooseVRRP), else VRRP is multicast on the underlay's bridge.
func keepalivedScenario(t testing.TB, unicast bool) (*Scenario, string) {
	t.Helper()
	requireLab(t)
	host.RequireRoot(t, keepalivedBinary)
	s := &Scenario{VIP: netip.MustParsePrefix("192.0.2.200/24"), Nodes: []*Node{
		{Name: "c1", Role: "controller+worker"},
		{Name: "c2", Role: "controller"},
		{Name: "c3", Role: "controller"},
		{Name: "w1", Role: "worker"},
	}}
	Build(t, s)
	pass := newVRRPPass(t)
	var peers []string
	for _, n := range s.Nodes {
		if n.ha {
			peers = append(peers, n.underlayAddr(s.Underlay).String())
		}
	}
	for _, n := range s.Nodes {
		if !n.ha {
			continue
		}
		ha := n.Doc.Extra["ha"].(map[string]any)
		ha["authPass"] = pass
		if unicast {
			ha["unicastPeers"] = slices.Clone(peers)
		}
	}
	return s, pass
}

// useKeepalived sets the lab to run keepalived in place of its stand-in:
// on each controller with ha the Starter renders and tests the
// configuration; start starts them.
func useKeepalived(l *Lab, pass string) *keepalivedCluster {
	kc := &keepalivedCluster{pass: pass}
	if l.Replace == nil {
		l.Replace = map[string]Starter{}
	}
	l.Replace[keepalivedService] = kc.prepare
	l.noFailover = true // keepalived holds the address: the lab does not move it
	return kc
}

// hide is s with the VRRP password masked, for anything the test prints.
func (kc *keepalivedCluster) hide(s string) string {
	return strings.ReplaceAll(s, kc.pass, "<authPass>")
}

// prepare is the Starter: keepalived.conf rendered as k0s renders it from
// the node's k0s.yaml (mode 0400 as k0s writes it, cplb_linux.go:383-398),
// and accepted by keepalived's own configuration test.
func (kc *keepalivedCluster) prepare(t testing.TB, ln *LabNode, _ Service) {
	t.Helper()
	conf, err := renderKeepalived(readFile(t, filepath.Join(ln.Root, "etc/k0s/k0s.yaml")), "eth0", 6443)
	if err != nil {
		t.Fatalf("%s: %v", ln.Name, err)
	}
	p := &keepalivedProc{ln: ln, conf: filepath.Join(ln.dir, "keepalived.conf"), log: filepath.Join(ln.dir, "keepalived.log"),
		pids: filepath.Join(ln.dir, "keepalived")}
	if err := os.WriteFile(p.conf, []byte(conf), 0o400); err != nil {
		t.Fatal(err)
	}
	out, err := ln.NS.Try(keepalivedBinary, "--config-test", "--use-file", p.conf, "--log-console", "--no-syslog")
	p.tested = out
	kc.mu.Lock()
	kc.procs = append(kc.procs, p)
	kc.mu.Unlock()
	if err != nil {
		t.Fatalf("%s: keepalived -t refuses the configuration k0s renders: %v\n%s", ln.Name, err, kc.hide(out))
	}
}

// proc is the keepalived of the node named.
func (kc *keepalivedCluster) proc(name string) *keepalivedProc {
	for _, p := range kc.procs {
		if p.ln.Name == name {
			return p
		}
	}
	panic("lab: no keepalived on " + name)
}

// start runs keepalived on the controllers named, in the node's network
// namespace (keepalivedCmd).
func (kc *keepalivedCluster) start(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		p := kc.proc(name)
		logf, err := os.Create(p.log)
		if err != nil {
			t.Fatal(err)
		}
		p.cmd = keepalivedCmd(context.Background(), p.ln.NS, p.conf, p.pids)
		p.cmd.Stdout, p.cmd.Stderr = logf, logf
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p.exited = make(chan struct{})
		go func() { _ = p.cmd.Wait(); _ = logf.Close(); close(p.exited) }()
		t.Cleanup(func() { p.stop() })
	}
}

// keepalivedCmd is keepalived on conf in ns's network namespace, with
// k0s's arguments (cplb_linux.go:134-140), then extra, and pid files
// named from pids: keepalived refuses to start while a pid file names a
// running instance, and the defaults are the host's.
func keepalivedCmd(ctx context.Context, ns *netns.Netns, conf, pids string, extra ...string) *exec.Cmd {
	args := []string{"netns", "exec", ns.Name, keepalivedBinary,
		"--dont-fork", "--use-file", conf, "--no-syslog", "--log-console",
		"--pid", pids + ".pid", "--vrrp_pid", pids + "-vrrp.pid", "--checkers_pid", pids + "-checkers.pid"}
	return exec.CommandContext(ctx, "ip", append(args, extra...)...)
}

// stop ends keepalived as k0s's supervisor does, with SIGTERM, and waits
// for it: it gives the address up and tells the others (an advert of
// priority 0). It kills it if it has not ended in 5 s.
func (p *keepalivedProc) stop() error {
	if p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
		return nil
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return errors.New("keepalived did not end within 5 s of SIGTERM")
	}
}

// holdsVIP is whether the virtual IP is on the node's eth0.
func (ln *LabNode) holdsVIP(vip netip.Prefix) bool {
	out, err := ln.NS.Try("ip", "-o", "addr", "show", "dev", "eth0")
	return err == nil && strings.Contains(out, " "+vip.String()+" ")
}

// holders are the controllers the virtual IP is on.
func (l *Lab) holders() []*LabNode {
	var out []*LabNode
	for _, ln := range l.Nodes {
		if ln.ha && ln.holdsVIP(l.S.VIP) {
			out = append(out, ln)
		}
	}
	return out
}

// settleHolders waits until the set of holders is not empty and has not
// changed for stable (two controllers that took the address at once hear
// each other's next advert, within one interval, and one gives it up), for
// at most wait, and returns it.
func (l *Lab) settleHolders(wait, stable time.Duration) []*LabNode {
	deadline := time.Now().Add(wait)
	last, since := l.holders(), time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		hs := l.holders()
		if !slices.Equal(hs, last) {
			last, since = hs, time.Now()
		} else if len(hs) > 0 && time.Since(since) >= stable {
			break
		}
	}
	return last
}

func names(lns []*LabNode) string {
	var out []string
	for _, ln := range lns {
		out = append(out, ln.Name)
	}
	return strings.Join(out, ", ")
}

// checkOneHolder adds to the verdict unless exactly one controller holds
// the virtual IP.
func (l *Lab) checkOneHolder(v *Verdict, hs []*LabNode) {
	v.count()
	if len(hs) != 1 {
		v.fail("the virtual IP %s has %d holders (%s): exactly one controller must hold it", l.S.VIP.Addr(), len(hs), names(hs))
	}
}

// checkSockets adds to the verdict what keepalived opens besides VRRP:
// the underlay scan probes TCP listeners, and keepalived must add none
// (nor a UDP one); its VRRP is IP protocol 112 on a raw socket, which each
// controller must have.
func (kc *keepalivedCluster) checkSockets(v *Verdict) {
	for _, p := range kc.procs {
		v.count()
		if out, _ := p.ln.NS.Try("ss", "-Htulnp"); strings.Contains(out, `"keepalived"`) {
			v.fail("%s: keepalived listens on a TCP or UDP port:\n%s", p.ln.Name, out)
		}
		if out, _ := p.ln.NS.Try("ss", "-Hwanp"); !strings.Contains(out, `"keepalived"`) {
			v.fail("%s: keepalived has no raw socket for VRRP", p.ln.Name)
		}
	}
}

// checkSecret fails the test if anything it keeps or prints holds the VRRP
// password: keepalived's configuration test and its logs, the verdicts.
func (kc *keepalivedCluster) checkSecret(t testing.TB, vs ...*Verdict) {
	t.Helper()
	outs := map[string]string{}
	for _, p := range kc.procs {
		outs["keepalived -t on "+p.ln.Name] = p.tested
		b, _ := os.ReadFile(p.log)
		outs[p.ln.Name+"'s keepalived log"] = string(b)
	}
	for i, v := range vs {
		outs[fmt.Sprintf("verdict %d", i+1)] = v.String()
	}
	for what, o := range outs {
		if strings.Contains(o, kc.pass) {
			t.Errorf("%s holds the VRRP password", what)
		}
	}
}

// logs logs the end of each controller's keepalived log, the password
// masked.
func (kc *keepalivedCluster) logs(t testing.TB) {
	t.Helper()
	for _, p := range kc.procs {
		t.Logf("%s: keepalived's log ends:\n%s", p.ln.Name, kc.hide(tail(p.log)))
	}
}

// haNames are the lab's controllers with ha, in order.
func (l *Lab) haNames() []string {
	var out []string
	for _, ln := range l.Nodes {
		if ln.ha {
			out = append(out, ln.Name)
		}
	}
	return out
}

// keepalivedFailover brings the lab up with keepalived on every
// controller, started at once, and requires: exactly one holder, the lab's
// verdict (every node but the holder reaches the API through the virtual
// IP; the scan, the holder at the virtual IP included), keepalived's
// sockets; then, the holder's keepalived stopped, another controller the
// one holder and the API through the virtual IP again; and the password
// nowhere in what the test kept.
func keepalivedFailover(t *testing.T, unicast bool) {
	s, pass := keepalivedScenario(t, unicast)
	l := &Lab{}
	kc := useKeepalived(l, pass)
	l.Up(t, s)
	start := time.Now()
	kc.start(t, l.haNames()...)
	hs := l.settleHolders(20*time.Second, vipSettled)
	t.Logf("keepalived: %s holds the virtual IP, %v after the start (settled for %v)", names(hs), time.Since(start).Round(time.Millisecond), vipSettled)
	v := &Verdict{}
	l.checkOneHolder(v, hs)
	if len(v.Problems) > 0 {
		kc.logs(t)
		t.Fatalf("keepalived: %s", v)
	}
	v = l.Verdict(t)
	kc.checkSockets(v)
	if len(v.Problems) > 0 {
		kc.logs(t)
	}
	requirePass(t, l, v)

	old := hs[0]
	stopped := time.Now()
	if err := kc.proc(old.Name).stop(); err != nil {
		t.Errorf("%s: %v", old.Name, err)
	}
	var moved time.Duration
	_ = retryForEvery(10*time.Second, 50*time.Millisecond, func() error {
		if hs := l.holders(); len(hs) == 0 || slices.Contains(hs, old) {
			return errors.New("not moved")
		}
		moved = time.Since(stopped)
		return nil
	})
	hs = l.settleHolders(15*time.Second, vipSettled)
	t.Logf("keepalived: %s's stopped; %s holds the virtual IP, %v after (settled for %v)", old.Name, names(hs), moved.Round(time.Millisecond), vipSettled)
	v2 := &Verdict{}
	l.checkOneHolder(v2, hs)
	if len(hs) == 1 && hs[0] == old {
		v2.fail("the virtual IP stays on %s, whose keepalived stopped", old.Name)
	}
	if len(v2.Problems) == 0 {
		l.checkVIP(t, v2)
	}
	if len(v2.Problems) > 0 {
		kc.logs(t)
	}
	requirePass(t, l, v2)
	kc.checkSecret(t, v, v2)
}

// TestKeepalivedUnicast: VRRP unicast between the controllers' underlay
// addresses, as the agent renders ha.unicastPeers.
func TestKeepalivedUnicast(t *testing.T) {
	t.Parallel()
	keepalivedFailover(t, true)
}

// TestKeepalivedMulticast: VRRP multicast on the underlay's bridge (no
// ha.unicastPeers), which carries it.
func TestKeepalivedMulticast(t *testing.T) {
	t.Parallel()
	keepalivedFailover(t, false)
}

// A controller whose unicastPeers miss another: c3's list lacks c1. c3
// starts first and takes the address; c1 never hears c3's adverts, so it
// takes the address too; c3 hears c1's and keeps it (of equal priorities
// the higher address wins, RFC 3768 6.4.3). Two holders, which the check
// names. (Were c1 to take the address first, c3 would hear it and stay
// backup: the mistake shows once the controller whose list is short holds
// the address, as it does here.)
func TestNegativeKeepalivedUnicastPeerMissing(t *testing.T) {
	t.Parallel()
	s, pass := keepalivedScenario(t, true)
	c3 := s.Node("c3")
	ha := c3.Doc.Extra["ha"].(map[string]any)
	ha["unicastPeers"] = slices.DeleteFunc(ha["unicastPeers"].([]string), func(p string) bool {
		return p == s.Node("c1").underlayAddr(s.Underlay).String()
	})
	l := &Lab{}
	kc := useKeepalived(l, pass)
	l.Up(t, s)
	kc.start(t, "c3")
	if hs := l.settleHolders(15*time.Second, vrrpAdvert); len(hs) != 1 || hs[0].Name != "c3" {
		kc.logs(t)
		t.Fatalf("keepalived: c3 alone does not hold the virtual IP (holders: %s)", names(hs))
	}
	kc.start(t, "c1", "c2")
	time.Sleep(4 * vrrpAdvert) // c1's master-down interval, 3.2 s
	v := &Verdict{}
	l.checkOneHolder(v, l.settleHolders(10*time.Second, 2*vrrpAdvert))
	requireFail(t, v, "has 2 holders (c1, c3)")
	kc.checkSecret(t, v)
}
