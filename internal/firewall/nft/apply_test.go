package nft

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/nftables"
	"github.com/google/nftables/expr"
	"github.com/google/nftables/userdata"

	"github.com/corium/corium-agent/internal/firewall"
)

// kubeRouterRules is the length of a kube-router guard's chain: the marker,
// three tunnel drops (ipip; ip6ip6 carrying IPv6 or IPv4), two pod
// interfaces, two forged-source and two guarded-port drops.
const kubeRouterRules = 10

func mustRender(t testing.TB) firewall.Guard {
	t.Helper()
	g, err := renderGuard(overlayConfig())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustState(t *testing.T, conn Conn, g firewall.Guard, want Status) Report {
	t.Helper()
	r, err := State(conn, g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != want {
		t.Fatalf("State = %s (%s), want %s", r.Status, r.Reason, want)
	}
	return r
}

func TestApplyNamesOnlyItsOwnTable(t *testing.T) {
	conn := newFakeConn()
	if err := Apply(context.Background(), conn, mustRender(t)); err != nil {
		t.Fatal(err)
	}
	if len(conn.Batches) != 1 {
		t.Fatalf("%d batches, want exactly one", len(conn.Batches))
	}
	batch := conn.Batches[0]
	for _, line := range strings.Split(batch, "\n") {
		if strings.Contains(line, " table ") && !strings.HasSuffix(line, " table 1 corium") {
			t.Errorf("batch names another table: %s", line)
		}
	}
	for _, want := range []string{
		"add table 1 corium\ndelete table 1 corium\nadd table 1 corium\nadd chain 1 corium chain input type filter hook 1 priority 0 policy 1",
		"add set tcp_ports type inet_service",
		`comment "corium-guard sha256=`,
		`comment "forged pod source"`,
	} {
		if !strings.Contains(batch, want) {
			t.Errorf("batch lacks %q:\n%s", want, batch)
		}
	}
}

func TestApplyTwiceKeepsOneCopy(t *testing.T) {
	conn := newFakeConn()
	g := mustRender(t)
	for range 2 {
		if err := Apply(context.Background(), conn, g); err != nil {
			t.Fatal(err)
		}
	}
	ft := conn.tables[key(table())]
	if n := len(ft.rules[chainName]); n != kubeRouterRules {
		t.Fatalf("%d rules after two applies, want %d", n, kubeRouterRules)
	}
	if n := len(ft.rules[natChainName]); n != 1 {
		t.Fatalf("%d masquerade rules after two applies, want 1", n)
	}
	if len(ft.sets) != 3 || len(ft.chains) != 2 {
		t.Fatalf("%d sets and %d chains after two applies, want 3 and 2 (the guard's input, the masquerade's postrouting)", len(ft.sets), len(ft.chains))
	}
	mustState(t, conn, g, Current)
}

func TestStateInEachState(t *testing.T) {
	ctx := context.Background()
	conn := newFakeConn()
	g := mustRender(t)

	mustState(t, conn, firewall.Guard{}, Off)
	r := mustState(t, conn, g, Missing)
	if r.Want == "" || !strings.Contains(r.Reason, "firewall apply") {
		t.Errorf("missing report does not say what to do: %+v", r)
	}

	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	r = mustState(t, conn, g, Current)
	if r.Loaded != r.Want {
		t.Errorf("current report: loaded %q, want %q", r.Loaded, r.Want)
	}

	// Another render of the guard (one more public port) is stale against it.
	other := g
	other.Ports = other.Ports[1:]
	r = mustState(t, conn, other, Stale)
	if !strings.Contains(r.Reason, "another guard") {
		t.Errorf("stale reason = %q", r.Reason)
	}

	// An edit behind the agent's back: the drop rule turned into an accept.
	ft := conn.tables[key(table())]
	last := ft.rules[chainName][kubeRouterRules-1]
	edited := append([]expr.Any{}, last.Exprs[:len(last.Exprs)-1]...)
	last.Exprs = append(edited, &expr.Verdict{Kind: expr.VerdictAccept})
	r = mustState(t, conn, g, Stale)
	if !strings.Contains(r.Reason, fmt.Sprintf("rule %d (guarded cluster port) was changed", kubeRouterRules)) {
		t.Errorf("stale reason = %q", r.Reason)
	}

	// An extra rule appended behind the agent's back.
	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	mustState(t, conn, g, Current)
	ft = conn.tables[key(table())]
	ft.rules[chainName] = append(ft.rules[chainName], &nftables.Rule{Exprs: []expr.Any{&expr.Verdict{Kind: expr.VerdictAccept}}})
	mustState(t, conn, g, Stale)

	// A port taken out of a set.
	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	ft = conn.tables[key(table())]
	ft.elems[setTCP] = ft.elems[setTCP][1:]
	r = mustState(t, conn, g, Stale)
	if !strings.Contains(r.Reason, "set tcp_ports") {
		t.Errorf("stale reason = %q", r.Reason)
	}

	// A chain added to the table.
	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	ft = conn.tables[key(table())]
	ft.chains = append(ft.chains, &nftables.Chain{Name: "extra", Table: table()})
	r = mustState(t, conn, g, Stale)
	if !strings.Contains(r.Reason, "holds 6 chains and sets, want 5") {
		t.Errorf("stale reason = %q", r.Reason)
	}

	// A marker wiped out.
	if err := Apply(ctx, conn, g); err != nil {
		t.Fatal(err)
	}
	ft = conn.tables[key(table())]
	ft.rules[chainName][0].UserData = userdata.AppendString(nil, userdata.TypeComment, "hand made")
	r = mustState(t, conn, g, Stale)
	if !strings.Contains(r.Reason, "marker is missing") {
		t.Errorf("stale reason = %q", r.Reason)
	}

	// The guard turned off while the table is loaded, then removed.
	mustState(t, conn, firewall.Guard{}, Stale)
	if err := Apply(ctx, conn, firewall.Guard{}); err != nil {
		t.Fatal(err)
	}
	mustState(t, conn, firewall.Guard{}, Off)
	mustState(t, conn, g, Missing)
}

func TestApplyFailureIsLoud(t *testing.T) {
	conn := newFakeConn()
	conn.FlushErr = errors.New("netlink receive: operation not permitted")
	err := Apply(context.Background(), conn, mustRender(t))
	if err == nil || !strings.Contains(err.Error(), "programming table inet corium: netlink receive: operation not permitted") {
		t.Fatalf("Apply error = %v", err)
	}
	mustState(t, conn, mustRender(t), Missing)
}

func TestRemoveWithoutTable(t *testing.T) {
	conn := newFakeConn()
	for range 2 {
		if err := Remove(context.Background(), conn); err != nil {
			t.Fatal(err)
		}
	}
	mustState(t, conn, firewall.Guard{}, Off)
}

func TestApplyRefusesAnEmptyGuard(t *testing.T) {
	conn := newFakeConn()
	err := Apply(context.Background(), conn, firewall.Guard{On: true, Interfaces: []string{"lo"}, PodCIDR: "10.0.0.0/8"})
	if err == nil || !strings.Contains(err.Error(), "polices nothing") {
		t.Fatalf("Apply error = %v", err)
	}
	if len(conn.Batches) != 0 {
		t.Fatalf("a refused guard sent %d batches", len(conn.Batches))
	}
}

func TestApplyVerifiesWhatTheKernelHolds(t *testing.T) {
	conn := newFakeConn()
	conn.AfterFlush = func(tables map[string]*fakeTable) {
		if ft := tables[key(table())]; ft != nil {
			ft.rules[chainName] = ft.rules[chainName][:1] // the drops never landed
		}
	}
	err := Apply(context.Background(), conn, mustRender(t))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("table inet corium is stale after the batch: table inet corium differs from the rendered guard and pod masquerade: 1 rules, want %d", kubeRouterRules)) {
		t.Fatalf("Apply error = %v", err)
	}
}
