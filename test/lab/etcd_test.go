package lab

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Real etcd in place of the etcd stand-ins, at the version k0s v1.36.3
// embeds (embedded-bins/Makefile.variables: etcd_version = 3.6.14), built
// once by scripts/etcd.sh into the test cache. Each controller runs it as
// k0s's etcd component does (pkg/component/controller/etcd.go at
// v1.36.3+k0s.0), fed the peer address from the k0s.yaml the agent wrote:
// the first controller creates the cluster, each other one is added as a
// learner through a running member (k0s's join API, cmd/api/api.go:194-216,
// pkg/etcd/client.go:157-180), starts with --initial-cluster-state
// existing, and is then promoted to a voter (k0s's member reconciler,
// etcd_member_reconciler.go:729-800).

// etcdBinary is the cached etcd, built on first use.
func etcdBinary(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("bash", filepath.Join(repoRoot, "scripts/etcd.sh")).CombinedOutput()
	if err != nil {
		t.Fatalf("building etcd (scripts/etcd.sh): %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// etcdCluster is the controllers' etcd in a lab.
type etcdCluster struct {
	bin string
	ca  *etcdCA
	// peerName, when set, names a node's peer certificate instead of its
	// peer address (a negative control).
	peerName map[string]string
	// extraArgs are a node's further flags, as k0s passes
	// spec.storage.etcd.extraArgs (etcd.go:218-224; a negative control).
	extraArgs map[string][]string
	mu        sync.Mutex
	members   []*etcdProc
}

// etcdProc is one member: its node, its peer URL, its client.
type etcdProc struct {
	ln      *LabNode
	peerURL string
	api     *etcdAPI
	log     string
	pid     int
}

// useEtcd sets the lab to run etcd in place of both etcd stand-ins.
func useEtcd(t testing.TB, l *Lab) *etcdCluster {
	t.Helper()
	ec := &etcdCluster{bin: etcdBinary(t), ca: newEtcdCA(t), peerName: map[string]string{}, extraArgs: map[string][]string{}}
	if l.Replace == nil {
		l.Replace = map[string]Starter{}
	}
	l.Replace["etcd-peer"] = ec.start
	l.Replace["etcd-client"] = func(testing.TB, *LabNode, Service) {} // the same process
	return ec
}

// start is the Starter: etcd on the node with k0s's flags (etcd.go:171-189,
// 204-205, 213-216, 229-231).
func (ec *etcdCluster) start(t testing.TB, ln *LabNode, _ Service) {
	t.Helper()
	peer := ln.k0sPeerAddress(t)
	// k0s's GetPeerURL (pkg/apis/k0s/v1beta1/storage.go:201-207).
	peerURL := (&url.URL{Scheme: "https", Host: net.JoinHostPort(peer, "2380")}).String()
	certs := filepath.Join(ln.Root, "var/lib/k0s/pki/etcd")
	data := filepath.Join(ln.Root, "var/lib/k0s/etcd")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	name := peer
	if n, ok := ec.peerName[ln.Name]; ok {
		name = n
	}
	ec.ca.etcdCerts(t, certs, name)
	args := []string{
		"--data-dir=" + data,
		"--listen-client-urls=https://127.0.0.1:2379",
		"--advertise-client-urls=https://127.0.0.1:2379",
		"--client-cert-auth=true",
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--name=" + ln.Name,
		"--tls-min-version=TLS1.2",
		"--trusted-ca-file=" + filepath.Join(certs, "ca.crt"),
		"--cert-file=" + filepath.Join(certs, "server.crt"),
		"--key-file=" + filepath.Join(certs, "server.key"),
		"--peer-trusted-ca-file=" + filepath.Join(certs, "ca.crt"),
		"--peer-key-file=" + filepath.Join(certs, "peer.key"),
		"--peer-cert-file=" + filepath.Join(certs, "peer.crt"),
		"--log-level=info",
		"--peer-client-cert-auth=true",
		"--enable-pprof=false",
		fmt.Sprintf("--auth-token=jwt,pub-key=%s,priv-key=%s,sign-method=RS512,ttl=10m", filepath.Join(certs, "jwt.pub"), filepath.Join(certs, "jwt.key")),
		// constant.AllowedTLS12CipherSuiteNames (pkg/constant/constant.go:141-161).
		"--cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
	}
	args = append(args, ec.extraArgs[ln.Name]...)
	ec.mu.Lock()
	first := len(ec.members) == 0
	var founder *etcdProc
	if !first {
		founder = ec.members[0]
	}
	ec.mu.Unlock()
	if !first {
		initial, err := joinEtcd(founder.api, ln.Name, peerURL)
		if err != nil {
			t.Fatalf("%s: joining etcd through %s: %v", ln.Name, founder.ln.Name, err)
		}
		args = append(args, "--initial-cluster="+strings.Join(initial, ","), "--initial-cluster-state=existing")
	}
	p := &etcdProc{ln: ln, peerURL: peerURL, api: newEtcdAPI(t, ln, certs), log: filepath.Join(ln.dir, "etcd.log")}
	logf, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("nsenter", append([]string{"-t", strconv.Itoa(ln.holder), "-m", "-n", "--", ec.bin}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); _ = logf.Close() })
	p.pid = cmd.Process.Pid // nsenter execs etcd
	if first {
		// The founder must serve before anyone joins through it.
		if err := retryFor(20*time.Second, func() error { _, err := p.api.members(); return err }); err != nil {
			t.Fatalf("%s: etcd does not serve: %v\n%s", ln.Name, err, tail(p.log))
		}
		ec.reconcile(t, p.api)
	}
	ec.mu.Lock()
	ec.members = append(ec.members, p)
	ec.mu.Unlock()
}

// joinEtcd adds the member as a learner and returns the --initial-cluster
// k0s hands the joining controller (name=peerURL of every member, the new
// one under its own name), retried as k0s's join is (etcd.go:99-116):
// etcd refuses a second learner until the reconciler promoted the first,
// and answers "unhealthy cluster" while a new member catches up.
func joinEtcd(api *etcdAPI, name, peerURL string) ([]string, error) {
	var r etcdMembers
	err := retryFor(60*time.Second, func() (err error) {
		r, err = api.addLearner(peerURL)
		return err
	})
	if err != nil {
		return nil, err
	}
	var initial []string
	for _, m := range r.Members {
		n := m.Name
		if m.ID == r.Member.ID {
			n = name
		}
		initial = append(initial, n+"="+m.PeerURLs[0])
	}
	return initial, nil
}

// reconcile promotes learners as k0s's member reconciler does
// (etcd_member_reconciler.go:729-800: a learner that is not ready yet is
// tried again later), here every second until the test ends.
func (ec *etcdCluster) reconcile(t testing.TB, api *etcdAPI) {
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			ms, err := api.members()
			if err != nil {
				continue
			}
			for _, m := range ms {
				if m.IsLearner && m.Name != "" {
					_ = api.promote(m.ID)
				}
			}
		}
	}()
}

// settled waits until etcd lists no learner, for at most wait.
func (ec *etcdCluster) settled(wait time.Duration) error {
	return retryFor(wait, func() error {
		ms, err := ec.members[0].api.members()
		if err != nil {
			return err
		}
		for _, m := range ms {
			if m.IsLearner {
				return fmt.Errorf("%s is a learner", m.Name)
			}
		}
		return nil
	})
}

// check adds to the verdict what the cluster fails of this: from every member, every controller is a
// voter at its peer address; a write through one member is read through
// every other; the members' peer connections are between peer addresses
// (which the lab's pairs check routes by the wireguard interface); every
// peer address is its node's overlay address (checkOverlay); and etcd
// listens where k0s's flags say alone, none of it reached from the
// underlay, not even sending to the listener's address through the node
// (checkListeners).
func (ec *etcdCluster) check(t testing.TB, l *Lab, v *Verdict) {
	t.Helper()
	fail := v.fail
	for _, p := range ec.members {
		ms, err := p.api.members()
		if err != nil {
			fail("%s: etcd lists no members: %v", p.ln.Name, err)
			continue
		}
		for _, q := range ec.members {
			v.count()
			i := slices.IndexFunc(ms, func(m etcdMember) bool { return m.Name == q.ln.Name })
			switch {
			case i < 0:
				fail("%s: etcd has no started member %s", p.ln.Name, q.ln.Name)
			case ms[i].IsLearner:
				fail("%s: etcd member %s is a learner, not a voter", p.ln.Name, q.ln.Name)
			case !slices.Equal(ms[i].PeerURLs, []string{q.peerURL}):
				fail("%s: etcd member %s peers at %v, not %s", p.ln.Name, q.ln.Name, ms[i].PeerURLs, q.peerURL)
			}
		}
	}
	for _, w := range ec.members {
		key, val := "/lab/written-on-"+w.ln.Name, "by "+w.ln.Name+" at "+time.Now().Format(time.RFC3339Nano)
		if err := w.api.put(key, val); err != nil {
			fail("%s: etcd write: %v", w.ln.Name, err)
			continue
		}
		for _, r := range ec.members {
			v.count()
			if got, err := r.api.get(key); err != nil || got != val {
				fail("%s: a write on %s is not read: %q %v", r.ln.Name, w.ln.Name, got, err)
			}
		}
	}
	peers := map[string]bool{}
	for _, p := range ec.members {
		u, _ := url.Parse(p.peerURL)
		peers[u.Hostname()] = true
	}
	for _, p := range ec.members {
		v.count()
		conns := established(t, p.ln, 2380)
		if len(ec.members) > 1 && len(conns) == 0 {
			fail("%s: no etcd peer connection", p.ln.Name)
		}
		for _, c := range conns {
			if !peers[c[0]] || !peers[c[1]] {
				fail("%s: etcd peer connection %s <-> %s is not between peer addresses", p.ln.Name, c[0], c[1])
			}
		}
	}
	ec.checkOverlay(v)
	ec.checkListeners(t, l, v)
}

// established is each established TCP connection to or from port in the
// node's namespace, as its local and remote address.
func established(t testing.TB, ln *LabNode, port int) [][2]string {
	t.Helper()
	p := strconv.Itoa(port)
	out := ln.NS.Run(t, "ss", "-Htn", "state", "established", "( sport = :"+p+" or dport = :"+p+" )")
	var conns [][2]string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		lh, _, _ := net.SplitHostPort(f[2])
		rh, _, _ := net.SplitHostPort(f[3])
		conns = append(conns, [2]string{strings.Trim(lh, "[]"), strings.Trim(rh, "[]")})
	}
	return conns
}

// underlayReaches is whether the attacker on the underlay connects to
// addr:port on the node by sending to it through the node's underlay
// address, as any neighbour on its link can.
func (l *Lab) underlayReaches(t testing.TB, ln *LabNode, addr string, port int) bool {
	t.Helper()
	via := ln.underlayAddr(l.S.Underlay).String()
	l.u.attacker.Run(t, "ip", "route", "replace", addr, "via", via)
	defer l.u.attacker.Run(t, "ip", "route", "del", addr, "via", via)
	ap := net.JoinHostPort(addr, strconv.Itoa(port))
	var c net.Conn
	err := l.u.attacker.Do(func() (err error) {
		c, err = net.DialTimeout("tcp", ap, probeTimeout)
		return err
	})
	if err == nil {
		_ = c.Close()
	}
	return err == nil
}

// retryFor calls f until it succeeds or wait has passed, a second apart.
func retryFor(wait time.Duration, f func() error) error {
	return retryForEvery(wait, time.Second, f)
}

// retryForEvery calls f until it succeeds or wait has passed, interval
// apart.
func retryForEvery(wait, interval time.Duration, f func() error) error {
	deadline := time.Now().Add(wait)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(interval)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tail is the end of a log, for a failure's message.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}
