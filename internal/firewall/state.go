package firewall

import (
	"errors"
	"fmt"
	"strings"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/userdata"
	"golang.org/x/sys/unix"
)

// Status is how the loaded guard compares with the rendered one.
type Status string

const (
	// Current: the table holds exactly the rendered rule set.
	Current Status = "current"
	// Stale: a table is loaded but it is not the rendered one (an older render,
	// an edit behind the agent's back, or a guard that should be off).
	Stale Status = "stale"
	// Missing: the guard is on but no table is loaded; the ports are open.
	Missing Status = "missing"
	// Off: the guard is off (clusterPorts: open) and no table is loaded.
	Off Status = "off"
)

// Report is what State found.
type Report struct {
	Status Status `json:"status"`
	// Reason says why, in words an operator can act on.
	Reason string `json:"reason"`
	// Want is the hash of the rendered rule set ("" when the guard is off);
	// Loaded is the hash in the loaded table's marker ("" when none).
	Want   string `json:"want,omitempty"`
	Loaded string `json:"loaded,omitempty"`
}

// State reads the guard's own table back from the kernel and compares every
// part of it (chain, sets and their elements, rules, marker) with the rendered
// rule set. An error means it could not tell, which is never reported as a
// status.
func State(conn Conn, g Guard) (Report, error) {
	t, err := conn.ListTableOfFamily(TableName, nftables.TableFamilyINet)
	present := err == nil && t != nil
	if err != nil && !errors.Is(err, unix.ENOENT) {
		return Report{}, fmt.Errorf("reading table inet %s: %w", TableName, err)
	}
	if !g.On {
		if present {
			return Report{Status: Stale, Reason: "the guard is off (clusterPorts: open) but table inet corium is loaded; run corium-agent firewall apply"}, nil
		}
		return Report{Status: Off, Reason: "the guard is off (clusterPorts: open); the cluster ports are reachable from anywhere"}, nil
	}
	rs, err := buildRuleset(g)
	if err != nil {
		return Report{}, fmt.Errorf("rendering the guard: %w", err)
	}
	r := Report{Want: rs.hash}
	if !present {
		r.Status, r.Reason = Missing, "table inet corium is not loaded, so the cluster ports are open to every link; run corium-agent firewall apply"
		return r, nil
	}
	diff, loaded, err := compare(conn, t, rs)
	if err != nil {
		return Report{}, err
	}
	r.Loaded = loaded
	if diff != "" {
		r.Status, r.Reason = Stale, "table inet corium differs from the rendered guard: "+diff+"; run corium-agent firewall apply"
		return r, nil
	}
	r.Status, r.Reason = Current, "table inet corium holds the rendered guard"
	return r, nil
}

// compare returns the first difference between the loaded table and rs ("" if
// none) and the hash in the loaded marker.
func compare(conn Conn, t *nftables.Table, rs *ruleset) (diff, loaded string, err error) {
	// The kernel counts every object of the table (chains, sets, stateful
	// objects, flowtables), so one number tells of anything added beside ours
	// without listing what other tables hold.
	if use, want := tableUse(t), uint32(1+len(rs.sets)); use != want {
		return fmt.Sprintf("it holds %d chains and sets, want %d", use, want), "", nil
	}
	chain, err := conn.ListChain(t, chainName)
	if errors.Is(err, unix.ENOENT) {
		return "chain " + chainName + " is missing", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading chain %s of table inet %s: %w", chainName, TableName, err)
	}
	if got, want := describeChain(chain), describeChain(rs.chain); got != want {
		return fmt.Sprintf("chain is %q, want %q", got, want), "", nil
	}

	rules, err := conn.GetRules(t, chain)
	if err != nil {
		return "", "", fmt.Errorf("reading the rules of table inet %s: %w", TableName, err)
	}
	if len(rules) > 0 {
		if c, ok := userdata.GetString(rules[0].UserData, userdata.TypeComment); ok {
			loaded = strings.TrimPrefix(c, markerPrefix)
			if loaded == c {
				loaded = ""
			}
		}
	}
	if loaded != rs.hash {
		if loaded == "" {
			return "its marker is missing", loaded, nil
		}
		return "it was rendered from another guard (sha256=" + loaded + ")", loaded, nil
	}

	sets, err := conn.GetSets(t)
	if err != nil {
		return "", "", fmt.Errorf("reading the sets of table inet %s: %w", TableName, err)
	}
	if len(sets) != len(rs.sets) {
		return fmt.Sprintf("%d sets, want %d", len(sets), len(rs.sets)), loaded, nil
	}
	for _, want := range rs.sets {
		var live *nftables.Set
		for _, s := range sets {
			if s.Name == want.set.Name {
				live = s
			}
		}
		if live == nil {
			return "set " + want.set.Name + " is missing", loaded, nil
		}
		elems, err := conn.GetSetElements(live)
		if err != nil {
			return "", "", fmt.Errorf("reading set %s: %w", live.Name, err)
		}
		if describeSet(live, elems) != describeSet(want.set, want.elems) {
			return "set " + want.set.Name + " has other elements or flags", loaded, nil
		}
	}

	if len(rules) != len(rs.rules) {
		return fmt.Sprintf("%d rules, want %d", len(rules), len(rs.rules)), loaded, nil
	}
	for i, want := range rs.rules {
		c, _ := userdata.GetString(rules[i].UserData, userdata.TypeComment)
		if describeRule(rules[i].Exprs) != describeRule(want.exprs) || c != want.comment {
			return fmt.Sprintf("rule %d (%s) was changed", i+1, want.comment), loaded, nil
		}
	}
	return "", loaded, nil
}

// tableUse is the kernel's object count of the table. The kernel sends it in
// network byte order and nftables v0.3.0 decodes it in host order; putting the
// bytes back recovers the kernel's number on any host.
func tableUse(t *nftables.Table) uint32 {
	return binaryutil.BigEndian.Uint32(binaryutil.NativeEndian.PutUint32(t.Use))
}
