package vm

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// arrivalsTable is the nftables table countArrivals adds, apart from the
// guard's own table so that neither changes the other.
const arrivalsTable = "vmtest_arrivals"

var counterPackets = regexp.MustCompile(`counter packets (\d+)`)

// countArrivals counts the UDP packets that reach addr:port on m from now
// on, ahead of the guard (priority -300); the returned func reads the count
// and removes the counter.
func countArrivals(t *testing.T, m *Machine, addr string, port int) func() int {
	t.Helper()
	m.MustExec("nft", "add", "table", "inet", arrivalsTable)
	m.MustExec("nft", "add", "chain", "inet", arrivalsTable, "in", "{ type filter hook input priority -300; policy accept; }")
	m.MustExec("nft", "add", "rule", "inet", arrivalsTable, "in", "ip", "daddr", addr, "udp", "dport", strconv.Itoa(port), "counter")
	return func() int {
		t.Helper()
		out := m.MustExec("nft", "list", "chain", "inet", arrivalsTable, "in")
		m.MustExec("nft", "delete", "table", "inet", arrivalsTable)
		c := counterPackets.FindStringSubmatch(out)
		if c == nil {
			t.Fatalf("%s: no counter in %s", m.Name, out)
		}
		n, err := strconv.Atoi(c[1])
		if err != nil {
			t.Fatal(fmt.Errorf("%s: counter %q: %w", m.Name, c[1], err))
		}
		return n
	}
}
