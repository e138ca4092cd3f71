package vm

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/test/vm/wire"
)

// w1's token is served by c1 (TestVMAgain) at w1TokenPath; n1's server
// never comes up (TestVMFileAndImageDefault).
const (
	w1TokenPath = "/join/w1"
	// w1WaitFor covers c1's boot, which w1's agent waits through (up to 8
	// minutes on shared cores), then the test's wait for failed attempts.
	w1WaitFor = 20 * time.Minute

	underlayN1, macN1 = "192.0.2.5", "52:54:00:c0:00:05"
	n1TokenPath       = "/join/n1"
	n1WaitFor         = time.Minute
)

// lateJoin is the join: block of a cloud-config's corium: key (or, with
// indent "", of a document) taking the token from url with the bearer from
// its credential, waiting up to wait.
func lateJoin(indent, url string, wait time.Duration) string {
	return fmt.Sprintf("%sjoin:\n%s  tokenFrom:\n%s    url: %s\n%s    authFile: %s\n%s    waitFor: %s\n",
		indent, indent, indent, url, indent, bearerAuthFile, indent, wait)
}

// n1Config is n1's /etc/corium/config.yaml: a worker whose token's server
// never comes up. The URL carries userinfo and a query string, which the
// agent must leave out wherever it names the URL.
func n1Config(url string) string {
	return "role: worker\ncluster:\n  name: vmtest\nnode:\n  name: n1\n" + lateJoin("", url, n1WaitFor)
}

// n1URL is n1's token URL with its credentials in it, and as the agent may
// show it.
func n1URL(user, query string) (full, shown string) {
	shown = secretURL(underlayN1, n1TokenPath)
	return strings.Replace(shown, "https://", "https://vmtest:"+user+"@", 1) + "?sig=" + query, shown
}

// linkNowhere gives m a NIC of its own whose frames reach no one: its
// network comes up (carrier, address, network-online.target) and no other
// machine is on it.
func linkNowhere(m *Machine) { m.netRemote = m.netLocal + ".nobody" }

// attemptLine is the agent's progress line for a failed attempt (the
// resolver's "waiting for ..."), in its journal and its unit's status text.
var attemptLine = regexp.MustCompile(`(\S+): waiting for (\S+) \(attempt (\d+), next in ([0-9.]+[a-zµ]+)\)`)

// waitAttempts polls m's corium-agent.service until its status text reports
// at least n failed attempts at url, and returns the last attempt number
// seen. It fails the test if the agent ends first or within does not see
// them.
func waitAttempts(t *testing.T, m *Machine, url string, n int, within time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		// A short timeout, asked again: the first request on a channel
		// dialled late in the boot once went unanswered (the guest alive,
		// its journal going on, and later requests answered).
		resp, err := m.call(wire.Request{Op: wire.OpExec, Argv: []string{"systemctl", "show", "corium-agent.service", "-p", "StatusText,ActiveState"}}, 20*time.Second)
		if err != nil {
			t.Logf("%s: asking for the agent's status text: %v; asking again", m.Name, err)
			if time.Now().After(deadline) {
				t.Fatalf("%s: no answer about the agent within %v", m.Name, within)
			}
			continue
		}
		u := guest.ParseShow(string(resp.Output))
		if g := attemptLine.FindStringSubmatch(u["StatusText"]); g != nil && g[2] == url {
			if k, _ := strconv.Atoi(g[3]); k >= n {
				m.Secrets.Logf(t, "%s: corium-agent.service says %q", m.Name, u["StatusText"])
				return k
			}
		}
		if s := u["ActiveState"]; s == "active" || s == "failed" {
			t.Fatalf("%s: the agent ended (%s) before %d failed attempts at %s; status text %q", m.Name, s, n, url, m.Secrets.Redact(t, u["StatusText"]))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no %d failed attempts at %s within %v; status text %q", m.Name, n, url, within, m.Secrets.Redact(t, u["StatusText"]))
		}
		time.Sleep(time.Second)
	}
}

// attempt is one failed attempt as the agent's journal has it.
type attempt struct {
	N    int
	Next time.Duration
	At   uint64 // CLOCK_MONOTONIC, µs, as systemd's timestamps
}

// journalAt is this boot's lines of m's journal matching match, with their
// monotonic times (µs).
func journalAt(t *testing.T, m *Machine, match string) (lines []string, at []uint64) {
	t.Helper()
	out := m.MustExec("journalctl", "-b", "0", "-o", "json", "--no-pager", "--output-fields=MESSAGE", match)
	for _, l := range strings.Split(out, "\n") {
		var e struct {
			Message   string `json:"MESSAGE"`
			Monotonic string `json:"__MONOTONIC_TIMESTAMP"`
		}
		if json.Unmarshal([]byte(l), &e) != nil {
			continue
		}
		us, _ := strconv.ParseUint(e.Monotonic, 10, 64)
		lines, at = append(lines, e.Message), append(at, us)
	}
	return lines, at
}

// agentAttempts is the agent's failed attempts at url and, if it came, the
// time of its "resolved from url" line.
func agentAttempts(t *testing.T, m *Machine, url string) (attempts []attempt, resolved uint64) {
	t.Helper()
	lines, at := journalAt(t, m, "_SYSTEMD_UNIT=corium-agent.service")
	for i, l := range lines {
		if g := attemptLine.FindStringSubmatch(l); g != nil && g[2] == url {
			n, _ := strconv.Atoi(g[3])
			next, err := time.ParseDuration(g[4])
			if err != nil {
				t.Errorf("%s: the agent's delay %q: %v", m.Name, g[4], err)
			}
			attempts = append(attempts, attempt{N: n, Next: next, At: at[i]})
		}
		if strings.Contains(l, ": resolved from "+url) {
			resolved = at[i]
		}
	}
	return attempts, resolved
}

// checkBackoff checks the attempts against the agent's backoff: numbered
// from 1 without a gap, each delay inside its full-jitter window (the
// default base doubled per attempt, up to the cap; the agent rounds what it
// prints to 100 ms), each pause at least the delay it announced, and
// jittered: not every delay at its window's top, as a fixed exponential
// backoff would be. It returns the attempts as a table row.
func checkBackoff(t *testing.T, m *Machine, attempts []attempt) string {
	t.Helper()
	if len(attempts) < 3 {
		t.Errorf("%s: %d failed attempts in the journal, want at least 3 to see the backoff", m.Name, len(attempts))
		return ""
	}
	var row []string
	jittered := false
	window := retry.DefaultBase
	for i, a := range attempts {
		if a.N != i+1 {
			t.Errorf("%s: attempt %d is numbered %d", m.Name, i+1, a.N)
		}
		if a.Next > window+50*time.Millisecond {
			t.Errorf("%s: attempt %d waited %v, outside its backoff window [0, %v)", m.Name, a.N, a.Next, window)
		}
		if a.Next < window*9/10 {
			jittered = true
		}
		gap := ""
		if i+1 < len(attempts) {
			d := time.Duration(attempts[i+1].At-a.At) * time.Microsecond
			gap = fmt.Sprintf(", then %v", d.Round(100*time.Millisecond))
			if d < a.Next-100*time.Millisecond {
				t.Errorf("%s: attempt %d announced %v and the next came after %v", m.Name, a.N, a.Next, d)
			}
		}
		row = append(row, fmt.Sprintf("#%d at %s: next in %v of [0, %v)%s", a.N, seconds(a.At), a.Next, window, gap))
		window = min(2*window, retry.DefaultCap)
	}
	if !jittered {
		t.Errorf("%s: every delay is at the top of its window: no jitter", m.Name)
	}
	return strings.Join(row, "; ")
}

// secretViews is everything on m where an operator or a log collector
// reads what the agent did, by name: a secret in any of them is a leak.
func secretViews(m *Machine) map[string]string {
	return map[string]string{
		"/proc/cmdline":                           m.read("/proc/cmdline"),
		"cloud-init's user-data":                  m.read("/var/lib/cloud/instance/user-data.txt"),
		"cloud-init's cloud-config.txt":           m.read("/var/lib/cloud/instance/cloud-config.txt"),
		"/var/lib/corium/applied.yaml":            m.read("/var/lib/corium/applied.yaml"),
		status.Path:                               m.read(status.Path),
		"corium-agent status":                     func() string { out, _ := m.Exec("corium-agent", "status"); return out }(),
		"corium-agent status --format json":       func() string { out, _ := m.Exec("corium-agent", "status", "--format", "json"); return out }(),
		"the journal":                             m.MustExec("journalctl", "-b", "-o", "verbose", "--no-pager"),
		"/var/log/cloud-init.log":                 m.read("/var/log/cloud-init.log"),
		"the serial console (kernel and systemd)": m.consoleText(),
	}
}

// neverCame is what a node whose secret server never came up must show:
// network-online.target reached and the agent started after it; the agent
// failed after waitFor (and not much later: the boot ends); no marker, k0s
// neither installed nor started; and status (its text, its JSON and the
// status file) failed at the secrets step, naming shown (the URL without
// userinfo or query) and the attempts. It returns what is not so, and the
// attempts status counted; the check is run on a node whose server did
// come up too, where it must find plenty.
func neverCame(m *Machine, shown string, waitFor time.Duration, k0sUnit string) (problems []string, attempts int, ran time.Duration) {
	m.t.Helper()
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	online := guest.Monotonic(m.Show("network-online.target", "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
	agent := m.Show("corium-agent.service", "Result", "ExecMainStartTimestampMonotonic", "ExecMainExitTimestampMonotonic")
	start, exit := guest.Monotonic(agent, "ExecMainStartTimestampMonotonic"), guest.Monotonic(agent, "ExecMainExitTimestampMonotonic")
	if online == 0 || start < online {
		bad("network-online.target reached at %s, the agent started at %s: want reached, and before", seconds(online), seconds(start))
	}
	if exit > start {
		ran = time.Duration(exit-start) * time.Microsecond
	}
	if agent["Result"] != "exit-code" || ran < waitFor || ran > waitFor+45*time.Second {
		bad("corium-agent.service ended %s after %v, want exit-code after its waitFor of %v (and within 45 s more)", agent["Result"], ran.Round(100*time.Millisecond), waitFor)
	}
	if _, err := m.Exec("test", "-e", "/var/lib/corium/provisioned"); err == nil {
		bad("the marker is written")
	}
	if n := m.standIn().Installs(); n != 0 {
		bad("k0s install ran %d times", n)
	}
	if k := m.Show(k0sUnit, "ExecMainStartTimestampMonotonic"); guest.Monotonic(k, "ExecMainStartTimestampMonotonic") != 0 || m.standInStartedThisBoot() {
		bad("%s started (%v)", k0sUnit, k)
	}
	want := fmt.Sprintf("join.tokenFrom: %s was not available within %v (", shown, waitFor)
	text, _ := m.Exec("corium-agent", "status")
	verdict := firstLine(text)
	if !strings.HasPrefix(verdict, "failed: secrets: "+want) {
		bad("corium-agent status says %q, want it to start %q", verdict, "failed: secrets: "+want)
	}
	if g := regexp.MustCompile(`\((\d+) attempts; last: `).FindStringSubmatch(verdict); g != nil {
		attempts, _ = strconv.Atoi(g[1])
	}
	if attempts < 2 {
		bad("corium-agent status counts %d attempts, want the attempts of a wait", attempts)
	}
	var st status.Status
	if err := json.Unmarshal([]byte(m.read(status.Path)), &st); err != nil || st.Outcome != status.Failed || !strings.HasPrefix(st.Error, want) {
		bad("%s: outcome %q, error %q (%v); want failed, naming the URL", status.Path, st.Outcome, st.Error, err)
	}
	return problems, attempts, ran
}

// assertNeverCame is neverCame as a check.
func assertNeverCame(t *testing.T, m *Machine, shown string, waitFor time.Duration, k0sUnit string) {
	t.Helper()
	problems, attempts, ran := neverCame(m, shown, waitFor, k0sUnit)
	for _, p := range problems {
		t.Errorf("%s, whose secret server never came up: %s", m.Name, m.Secrets.Redact(t, p))
	}
	// The journal has a line for each attempt but the last, after which
	// the agent no longer waits.
	logged, _ := agentAttempts(t, m, shown)
	row := checkBackoff(t, m, logged)
	if len(logged) != attempts-1 {
		t.Errorf("%s: %d waiting lines in the journal for the %d attempts status counts, want one fewer", m.Name, len(logged), attempts)
	}
	text, _ := m.Exec("corium-agent", "status")
	m.Secrets.Logf(t, "LATESECRET %s, server never up: %d attempts within waitFor %v, the agent failed after %v; corium-agent status: %s", m.Name, attempts, waitFor, ran.Round(100*time.Millisecond), firstLine(text))
	t.Logf("LATESECRET %s attempts: %s", m.Name, row)
}

// lateServer is the pair's option for TestVMAgain: w1's join token is
// served by c1 at url, with the bearer token from w1's credential, and both
// disks carry the server's program and its CA.
func lateServer(t *testing.T, srv *secretServer, url string) nodesOption {
	return nodesOption{
		c1Disk: srv.onDisk(t), w1Disk: srv.onDisk(t),
		w1Join:        lateJoin("  ", url, w1WaitFor),
		w1Credentials: map[string]string{bearerCredential: srv.bearer},
	}
}

// bootLate boots the pair made with lateServer. Nothing listens at url
// until c1 has booted and w1's agent has reported three failed attempts at
// it (its status text, read through guestd); then the test starts the
// server on c1 and marks the moment in w1's journal, and w1's boot, which
// waits for its agent, finishes once the agent got the token.
func bootLate(t *testing.T, n *twoNodes, srv *secretServer, url string) {
	t.Helper()
	c1, w1 := n.c1, n.w1
	// c1's whole boot, then the server, then w1's agent's run.
	w1.BootTimeout = 2 * bootTimeout
	c1.Start()
	w1.Start()
	c1.WaitBooted()
	w1.Dial()
	seen := waitAttempts(t, w1, url, 3, w1WaitFor)
	// Marked on w1's clock on both sides of the start, which takes a round
	// trip to each machine: an attempt may meet the server in between.
	w1.MustExec("systemd-cat", "-t", "corium-vmtest", "echo", "starting secretd on c1")
	srv.start(t, c1, underlayC1, w1TokenPath, n.keys.joinToken)
	w1.MustExec("systemd-cat", "-t", "corium-vmtest", "echo", "secretd is up on c1")
	t.Logf("the secret server started on c1 after w1's attempt %d at %s", seen, url)
	w1.WaitBooted()
}

// assertLateSecret checks w1's first boot after bootLate: provisioned with
// the token from c1's server, fetched by the agent's jittered backoff
// within waitFor at the first attempt after the server came up; the server
// saw the bearer and refuses a request without it; neither the token nor
// the bearer is anywhere an operator reads on either machine. The
// never-up control's check, run on w1, must find w1 provisioned.
func assertLateSecret(t *testing.T, n *twoNodes, url string) {
	t.Helper()
	c1, w1 := n.c1, n.w1
	logTimings(t, w1, "join token from c1's late server", "k0sworker.service")
	assertProvisioned(t, w1, "cloud-init")
	attempts, resolved := agentAttempts(t, w1, url)
	row := checkBackoff(t, w1, attempts)
	_, marks := journalAt(t, w1, "SYSLOG_IDENTIFIER=corium-vmtest")
	if len(marks) != 2 || resolved == 0 || len(attempts) == 0 {
		t.Fatalf("w1: the server's start marked at %v, token resolved at %s, %d attempts: want all three in the journal", marks, seconds(resolved), len(attempts))
	}
	starting, up, first := marks[0], marks[1], attempts[0].At
	agent := guest.Monotonic(w1.Show("corium-agent.service", "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
	k0s := guest.Monotonic(w1.Show("k0sworker.service", "ExecMainStartTimestampMonotonic"), "ExecMainStartTimestampMonotonic")
	before := 0
	for _, a := range attempts {
		if a.At < starting {
			before++
		}
	}
	after := func(us uint64) time.Duration {
		if us < up {
			return -time.Duration(up-us) * time.Microsecond
		}
		return (time.Duration(us-up) * time.Microsecond).Round(100 * time.Millisecond)
	}
	switch {
	case before < 3:
		t.Errorf("w1: %d failed attempts before the server came up, want at least 3", before)
	case resolved < starting || after(resolved) > retry.DefaultCap+15*time.Second:
		t.Errorf("w1: the token came %v after the server did, want at the next attempt (a delay is at most %v)", after(resolved), retry.DefaultCap)
	case time.Duration(resolved-first)*time.Microsecond > w1WaitFor:
		t.Errorf("w1: the token came %v after the first attempt, past waitFor %v", time.Duration(resolved-first)*time.Microsecond, w1WaitFor)
	}
	t.Logf("LATESECRET w1: %d failed attempts (%d before the server's start), first at %s; server started from %s to %s; token %v later, agent done %v later, k0s started %v later (waitFor %v)",
		len(attempts), before, seconds(first), seconds(starting), seconds(up), after(resolved), after(agent), after(k0s), w1WaitFor)
	t.Logf("LATESECRET w1 attempts: %s", row)

	served := requests(t, c1)
	right := 0
	for _, r := range served {
		if strings.Contains(r, "from "+underlayW1+":") && strings.HasSuffix(r, "bearer right, answered 200") {
			right++
		}
	}
	if right == 0 || right != len(served) {
		t.Errorf("c1's server log: %q; want w1's requests with the right bearer only", served)
	}
	if code := probeWithoutBearer(t, w1, url); code != "401" {
		t.Errorf("w1: a request to c1's server without a bearer token got %q, want 401", code)
	}
	t.Logf("c1's server: %s; without a bearer: %s", strings.Join(served, "; "), lineWith(strings.Join(requests(t, c1), "\n"), "missing or wrong"))
	for _, m := range []*Machine{c1, w1} {
		views := secretViews(m)
		for where, text := range views {
			m.Secrets.Absent(t, m.Name+": "+where, text)
		}
		// The search's control: what it searched is what the agent wrote.
		if m == w1 && (!strings.Contains(views["the journal"], "resolved from "+url) || !strings.Contains(views["corium-agent status --format json"], `"outcome"`)) {
			t.Errorf("w1: the journal searched lacks the agent's line for %s, or the status searched is not the agent's JSON", url)
		}
	}
	if problems, _, _ := neverCame(w1, url, w1WaitFor, "k0sworker.service"); len(problems) == 0 {
		t.Errorf("w1: the never-up control's check finds nothing wrong on a node whose server came up: it proves nothing")
	} else {
		t.Logf("the never-up control's check on w1, whose server came up, finds %d things (as it must): %s", len(problems), w1.Secrets.Redact(t, strings.Join(problems, "; ")))
	}
}

// breakEnv, set to neverUpBroken, breaks the never-up control on purpose:
// the test starts n1's server after all, n1 provisions, and the control
// must fail.
const (
	breakEnv      = "CORIUM_VMTEST_BREAK"
	neverUpBroken = "server-up"
)

// neverUp is n1: a worker configured from /etc/corium/config.yaml, alone
// on a link of its own, whose join token is at a URL on its own address
// (with userinfo and a query string, both secrets) where nothing listens,
// with the bearer from its credential. Its disk carries the server and its
// CA all the same, for the control broken on purpose.
type neverUp struct {
	m            *Machine
	srv          *secretServer
	shown, token string
}

func newNeverUp(t *testing.T, secrets *Secrets) *neverUp {
	t.Helper()
	n := &neverUp{srv: newSecretServer(t), token: fixture.JoinToken("vmtest." + fixture.RandHex(16))}
	user, query := "pw-"+fixture.RandHex(12), "sig-"+fixture.RandHex(12)
	var full string
	full, n.shown = n1URL(user, query)
	secrets.Add(n.srv.bearer, user, query, n.token)
	onDisk := n.srv.onDisk(t)
	n.m = newMachine(t, "n1", newDisk(t, "n1", func(s *staging) {
		noMetadata(macN1, underlayN1)(s)
		s.WriteFile("/etc/corium/config.yaml", []byte(n1Config(full)), 0o600)
		onDisk(s)
	}), macN1, secrets)
	n.m.Credentials[bearerCredential] = n.srv.bearer
	linkNowhere(n.m)
	return n
}

// breakOnPurpose starts n1's server once its agent has failed at the URL,
// when the control is broken on purpose (breakEnv); otherwise nothing.
func (n *neverUp) breakOnPurpose(t *testing.T) {
	t.Helper()
	if os.Getenv(breakEnv) != neverUpBroken {
		return
	}
	n.m.Dial()
	seen := waitAttempts(t, n.m, n.shown, 1, bootTimeout)
	n.srv.start(t, n.m, underlayN1, n1TokenPath, n.token)
	t.Logf("%s=%s: n1's server started after its agent's attempt %d: the control below must fail", breakEnv, neverUpBroken, seen)
}
