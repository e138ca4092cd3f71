package vm

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pingUnit is the transient unit a live ping runs in, so it keeps going
// while the test asks the machine other things.
const pingUnit = "corium-vmtest-ping.service"

// livePing is a counted ping in the guest, 20 a second, running while the
// test changes the machine.
type livePing struct {
	m       *Machine
	addr    string
	started time.Time
}

// startPing starts pinging addr every 50 ms from m.
func startPing(t *testing.T, m *Machine, addr string) *livePing {
	t.Helper()
	m.MustExec("systemd-run", "--quiet", "--collect", "--unit="+pingUnit, "sh", "-c",
		"exec ping -n -i 0.05 -W 1 "+addr+" >/run/vmtest-ping.log 2>&1")
	return &livePing{m: m, addr: addr, started: time.Now()}
}

var icmpSeq = regexp.MustCompile(`icmp_seq=(\d+)`)

// stop ends the ping (SIGINT, as an operator's ^C) and counts: sent is the
// highest sequence number answered, lost the numbers up to it with no
// answer, by sequence number (an echo still in flight when it stopped is
// not counted as lost).
func (p *livePing) stop(t *testing.T) (sent int, lost []int) {
	t.Helper()
	p.m.MustExec("systemctl", "kill", "--signal=SIGINT", pingUnit)
	for i := 0; i < 50; i++ {
		if out, _ := p.m.Exec("systemctl", "is-active", pingUnit); strings.TrimSpace(out) != "active" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	out := p.m.MustExec("cat", "/run/vmtest-ping.log")
	answered := map[int]bool{}
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "bytes from") {
			continue
		}
		if s := icmpSeq.FindStringSubmatch(l); s != nil {
			n, _ := strconv.Atoi(s[1])
			answered[n] = true
			sent = max(sent, n)
		}
	}
	for i := 1; i <= sent; i++ {
		if !answered[i] {
			lost = append(lost, i)
		}
	}
	if sent == 0 {
		t.Errorf("%s: ping %s got no answer at all:\n%s", p.m.Name, p.addr, lineWith(out, "packets transmitted"))
	}
	return sent, lost
}
