package lab

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/k0syaml"
)

// Real kine in place of its metrics stand-in, at the version k0s v1.36.3
// embeds (embedded-bins/Makefile.variables: kine_version = 0.16.3), built
// once by scripts/kine.sh into the test cache, on controllers whose
// documents say storage.type kine, against one PostgreSQL on the underlay
// (postgres_test.go). Each runs it as k0s's kine component does
// (pkg/component/controller/kine.go at v1.36.3+k0s.0), fed the datasource
// the agent wrote into the node's k0s.yaml.

// kineDataSourceFile is where the lab's documents have the agent read the
// datasource (storage.dataSourceFrom), under each controller's root.
const kineDataSourceFile = "/etc/corium/kine-datasource"

// kineBinary is the cached kine, built on first use.
func kineBinary(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("bash", filepath.Join(repoRoot, "scripts/kine.sh")).CombinedOutput()
	if err != nil {
		t.Fatalf("building kine (scripts/kine.sh): %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// runsKine is whether k0s runs kine on the node rather than etcd: with
// storage.type kine, or sqlite (kine with its default datasource), which
// a single node has by default.
func (n *Node) runsKine() bool {
	if n.kine {
		return true // a generated set's controller with a datasource
	}
	var st map[string]any
	if n.Doc != nil {
		st, _ = n.Doc.Extra["storage"].(map[string]any)
	}
	switch st["type"] {
	case "kine", "sqlite":
		return true
	case nil, "":
		return n.Role == "single"
	}
	return false
}

// kineCluster is the controllers' kine in a lab and their database.
type kineCluster struct {
	l       *Lab
	bin     string
	db      *postgres
	plugged bool
	members []*kineProc
}

// kineProc is one controller's kine: its node, its client, its log, and
// why it does not serve, if it does not.
type kineProc struct {
	ln  *LabNode
	api *kineAPI
	log string
	err error
}

// useKine sets the scenario's controllers to storage.type kine, the
// datasource in a file under their roots that the documents name, and the
// lab to run kine in place of its stand-in. Call it after Build, before
// Up.
func useKine(t testing.TB, l *Lab, s *Scenario) *kineCluster {
	t.Helper()
	requireLab(t) // before the build: without root the cache is not writable
	kc := &kineCluster{l: l, bin: kineBinary(t), db: newPostgres(t)}
	for _, n := range s.Nodes {
		if !n.controller() {
			continue
		}
		if n.Doc.Extra == nil {
			n.Doc.Extra = map[string]any{}
		}
		n.Doc.Extra["storage"] = map[string]any{"type": "kine", "dataSourceFrom": map[string]any{"file": kineDataSourceFile}}
	}
	kc.setDataSources(s, kc.db.password)
	if l.Replace == nil {
		l.Replace = map[string]Starter{}
	}
	l.Replace["kine-metrics"] = kc.start
	return kc
}

// setDataSources writes into each controller's datasource file the
// database's URL with the password given.
func (kc *kineCluster) setDataSources(s *Scenario, password string) {
	for _, n := range s.Nodes {
		if n.controller() {
			if n.Files == nil {
				n.Files = map[string]string{}
			}
			n.Files[kineDataSourceFile] = kc.db.dataSource(password) + "\n"
		}
	}
}

// start is the Starter: the database on the underlay on the first call, then kine on the
// node with k0s's arguments (kine.go:108-118, in the order
// stringmap.ToArgs sorts them, internal/pkg/stringmap/stringmap.go:23-29;
// run in k0s's data dir, pkg/supervisor/supervisor.go:237), its socket
// where k0s puts it (pkg/config/cfgvars.go:137,174: /run/k0s, and
// pkg/constant/constant_unix.go:12: kine/kine.sock:2379, the ":2379"
// part of the file's name), here under the node's root. It waits until
// kine serves as k0s's readiness check asks (kine.go:147-169: a write and
// a read of /k0s-health-check), or its log says why it cannot.
func (kc *kineCluster) start(t testing.TB, ln *LabNode, _ Service) {
	t.Helper()
	if !kc.plugged {
		kc.db.plug(t, kc.l)
		kc.plugged = true
	}
	dataDir := filepath.Join(ln.Root, "var/lib/k0s")
	socket := filepath.Join(ln.Root, "run/k0s/kine/kine.sock:2379")
	for _, d := range []string{dataDir, filepath.Dir(socket)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{
		"--compact-interval=0",
		"--endpoint=" + ln.kineDataSource(t),
		"--listen-address=unix://" + socket,
		"--metrics-bind-address=:2380",
	}
	p := &kineProc{ln: ln, api: newKineAPI(ln.Name, socket), log: filepath.Join(ln.dir, "kine.log")}
	kc.members = append(kc.members, p)
	logf, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	// The datasource, with its password, is on kine's command line, as
	// k0s puts it there: the test never prints the command.
	cmd := exec.Command("nsenter", append([]string{"-t", strconv.Itoa(ln.holder), "-m", "-n", "--", kc.bin}, args...)...)
	cmd.Dir = dataDir
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: starting kine: %v", ln.Name, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited; _ = logf.Close() })
	start := time.Now()
	p.err = kineReady(p, exited)
	if p.err != nil {
		t.Logf("%s: kine does not serve after %v: %v", ln.Name, time.Since(start).Round(time.Millisecond), p.err)
		return
	}
	t.Logf("%s: kine serves in %v", ln.Name, time.Since(start).Round(time.Millisecond))
}

// kineReady waits, for at most 20 s, until kine writes and reads
// /k0s-health-check, and returns early when kine exits or its log says
// PostgreSQL refused the password.
func kineReady(p *kineProc, exited <-chan struct{}) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case <-exited:
			return errors.New("kine exited")
		default:
		}
		if strings.Contains(tail(p.log), "password authentication failed") {
			return errors.New("PostgreSQL refused the password of the datasource the agent wrote (kine's log: password authentication failed)")
		}
		err := p.api.put("/k0s-health-check", "value")
		if err == nil {
			var v string
			if v, err = p.api.get("/k0s-health-check"); err == nil && v != "value" {
				err = fmt.Errorf("/k0s-health-check reads %q", v)
			}
		}
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// kineDataSource is spec.storage.kine.dataSource of the k0s.yaml the agent
// wrote for the node, read as k0s reads it (k0syaml.Parse).
func (ln *LabNode) kineDataSource(t testing.TB) string {
	t.Helper()
	n, err := k0syaml.Parse(readFile(t, filepath.Join(ln.Root, "etc/k0s/k0s.yaml")))
	if err != nil {
		t.Fatalf("%s: k0s.yaml: %v", ln.Name, err)
	}
	if n.Storage.Kine == nil || n.Storage.Kine.DataSource.IsZero() {
		t.Fatalf("%s: k0s.yaml has no spec.storage.kine.dataSource", ln.Name)
	}
	return n.Storage.Kine.DataSource.Reveal()
}

// check adds to the verdict what the controllers' kine fails of this:
// each serves; a write through one is read through every other and is in
// the database; each serves its metrics on 2380 to the node itself, and
// the underlay cannot reach them, neither at the node's underlay address
// nor sending to its overlay address through the node.
func (kc *kineCluster) check(t testing.TB, l *Lab, v *Verdict) {
	t.Helper()
	fail := v.fail
	var serving []*kineProc
	for _, p := range kc.members {
		v.count()
		if p.err != nil {
			fail("%s: kine does not serve its etcd API: %v", p.ln.Name, p.err)
			continue
		}
		serving = append(serving, p)
	}
	const prefix = "/lab/written-through-"
	written := map[*kineProc]string{}
	for _, w := range serving {
		key, val := prefix+w.ln.Name, "by "+w.ln.Name+" at "+time.Now().Format(time.RFC3339Nano)
		if err := w.api.put(key, val); err != nil {
			fail("%s: kine write: %v", w.ln.Name, err)
			continue
		}
		written[w] = val
		for _, r := range serving {
			v.count()
			if got, err := r.api.get(key); err != nil || got != val {
				fail("%s: a write through %s's kine is not read: %q %v", r.ln.Name, w.ln.Name, got, err)
			}
		}
	}
	if len(written) > 0 {
		rows, err := kc.db.values(prefix)
		for w, val := range written {
			v.count()
			if got := rows[prefix+w.ln.Name]; err != nil || got != val {
				fail("%s: a write through kine is not in PostgreSQL: %q %v", w.ln.Name, got, err)
			}
		}
	}
	var wg sync.WaitGroup
	for _, p := range serving {
		v.count()
		if err := kineMetrics(p.ln); err != nil {
			fail("%s: kine's metrics do not answer on the node: %v", p.ln.Name, err)
		}
		for _, addr := range []netip.Addr{p.ln.underlayAddr(l.S.Underlay), p.ln.OverlayAddr()} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v.count()
				if kc.underlayReaches(t, l, p.ln, addr) {
					fail("%s: the underlay reaches kine's metrics port at %s", p.ln.Name, netip.AddrPortFrom(addr, 2380))
				}
			}()
		}
	}
	wg.Wait()
}

// underlayReaches is whether the attacker connects to kine's metrics port
// at addr on the node: directly at its underlay address, through the node
// at any other.
func (kc *kineCluster) underlayReaches(t testing.TB, l *Lab, ln *LabNode, addr netip.Addr) bool {
	t.Helper()
	if addr != ln.underlayAddr(l.S.Underlay) {
		return l.underlayReaches(t, ln, addr.String(), 2380)
	}
	_, err := dialFrom(l.u.attacker, netip.AddrPortFrom(addr, 2380), probeTimeout)
	return err == nil
}

// kineMetrics gets kine's metrics from inside the node, at loopback.
func kineMetrics(ln *LabNode) error {
	tr := &http.Transport{
		DialContext:       ln.dialContext,
		DisableKeepAlives: true,
	}
	r, err := (&http.Client{Timeout: 2 * time.Second, Transport: tr}).Get("http://127.0.0.1:2380/metrics")
	if err != nil {
		return err
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK || !strings.Contains(string(b), "kine_") {
		return fmt.Errorf("%s, no kine_ metric", r.Status)
	}
	return nil
}

// leaks names every output of the run that holds one of the secrets, as
// is or escaped as the datasource's URL carries it: the verdict, and
// kine's and PostgreSQL's logs.
func (kc *kineCluster) leaks(v *Verdict, secrets ...string) []string {
	outputs := map[string]string{"the verdict": v.String()}
	for name, path := range map[string]string{"postgres.log": kc.db.log} {
		b, _ := os.ReadFile(path)
		outputs[name] = string(b)
	}
	for _, p := range kc.members {
		b, _ := os.ReadFile(p.log)
		outputs[p.ln.Name+"'s kine.log"] = string(b)
	}
	var found []string
	for name, out := range outputs {
		for _, s := range secrets {
			escaped := strings.TrimPrefix(url.UserPassword("u", s).String(), "u:")
			if strings.Contains(out, s) || strings.Contains(out, escaped) {
				found = append(found, name)
			}
		}
	}
	return found
}
