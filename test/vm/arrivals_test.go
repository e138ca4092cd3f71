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

// countArrivals counts the UDP packets that reach each of addrs at port
// on m from now on, ahead of the guard (priority -300); the returned func
// reads the counts, in the order of addrs, and removes the counters.
func countArrivals(t *testing.T, m *Machine, port int, addrs ...string) func() []int {
	t.Helper()
	m.MustExec("nft", "add", "table", "inet", arrivalsTable)
	m.MustExec("nft", "add", "chain", "inet", arrivalsTable, "in", "{ type filter hook input priority -300; policy accept; }")
	for _, a := range addrs {
		m.MustExec("nft", "add", "rule", "inet", arrivalsTable, "in", "ip", "daddr", a, "udp", "dport", strconv.Itoa(port), "counter")
	}
	return func() []int {
		t.Helper()
		out := m.MustExec("nft", "list", "chain", "inet", arrivalsTable, "in")
		m.MustExec("nft", "delete", "table", "inet", arrivalsTable)
		var counts []int
		for _, c := range counterPackets.FindAllStringSubmatch(out, -1) {
			n, err := strconv.Atoi(c[1])
			if err != nil {
				t.Fatal(fmt.Errorf("%s: counter %q: %w", m.Name, c[1], err))
			}
			counts = append(counts, n)
		}
		if len(counts) != len(addrs) {
			t.Fatalf("%s: %d counters for %d addresses in %s", m.Name, len(counts), len(addrs), out)
		}
		return counts
	}
}
