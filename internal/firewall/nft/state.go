package nft

import (
	"errors"
	"fmt"
	"strings"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/userdata"
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/firewall"
)

// Status is how the loaded guard compares with the rendered one.
type Status string

const (
	// Current: the table holds exactly the rendered rule set.
	Current Status = "current"
	// Stale: a table is loaded but it is not the rendered one (an older render,
	// an edit behind the agent's back, or a table that should be gone).
	Stale Status = "stale"
	// Missing: the table should be loaded but is not: with the guard on, the
	// ports are open; with the masquerade, pods lose the other nodes.
	Missing Status = "missing"
	// Off: the guard is off (clusterPorts: open), nothing is masqueraded,
	// and no table is loaded.
	Off Status = "off"
)

// Report is what State found.
type Report struct {
	Status Status `json:"status"`
	// Reason says why, in words an operator can act on.
	Reason string `json:"reason"`
	// Want is the hash of the rendered rule set ("" when there is no table);
	// Loaded is the hash in the loaded table's marker ("" when none).
	Want   string `json:"want,omitempty"`
	Loaded string `json:"loaded,omitempty"`
}

// State reads the guard's own table back from the kernel and compares every
// part of it (chains, sets and their elements, rules, marker) with the
// rendered rule set. An error means it could not tell, which is never
// reported as a status. A table that holds the pod masquerade alone is
// reported as such, never as a guard in force.
func State(conn Conn, g firewall.Guard) (Report, error) {
	t, err := conn.ListTableOfFamily(TableName, nftables.TableFamilyINet)
	present := err == nil && t != nil
	if err != nil && !errors.Is(err, unix.ENOENT) {
		return Report{}, fmt.Errorf("reading table inet %s: %w", TableName, err)
	}
	if !g.On && !g.Masquerade {
		if present {
			return Report{Status: Stale, Reason: "the guard is off (clusterPorts: open) and nothing is masqueraded, but table inet corium is loaded; run corium-agent firewall apply"}, nil
		}
		return Report{Status: Off, Reason: "the guard is off (clusterPorts: open); the cluster ports are reachable from anywhere"}, nil
	}
	rs, err := buildRuleset(g)
	if err != nil {
		return Report{}, fmt.Errorf("rendering the guard: %w", err)
	}
	r := Report{Want: rs.hash}
	if !present {
		r.Status, r.Reason = Missing, missingReason(g)
		return r, nil
	}
	diff, loaded, err := compare(conn, t, rs)
	if err != nil {
		return Report{}, err
	}
	r.Loaded = loaded
	if diff != "" {
		r.Status, r.Reason = Stale, "table inet corium differs from the rendered "+rendered(g)+": "+diff+"; run corium-agent firewall apply"
		return r, nil
	}
	r.Status, r.Reason = Current, "table inet corium holds the rendered "+rendered(g)
	if !g.On {
		r.Reason += "; the guard is off (clusterPorts: open), so the cluster ports are reachable from anywhere"
	}
	return r, nil
}

// rendered names what the table is rendered from, as State's reasons say it.
func rendered(g firewall.Guard) string {
	switch {
	case g.On && g.Masquerade:
		return "guard and pod masquerade"
	case g.On:
		return "guard"
	}
	return "pod masquerade only"
}

// missingReason says what a missing table leaves undone.
func missingReason(g firewall.Guard) string {
	const pods = "pods' packets to other nodes' addresses leave the overlay with the pod's source, which the peers' WireGuard drops"
	switch {
	case g.On && g.Masquerade:
		return "table inet corium is not loaded, so the cluster ports are open to every link and " + pods + "; run corium-agent firewall apply"
	case g.On:
		return "table inet corium is not loaded, so the cluster ports are open to every link; run corium-agent firewall apply"
	}
	return "table inet corium is not loaded, so " + pods + " (the guard is off: clusterPorts open); run corium-agent firewall apply"
}

// compare returns the first difference between the loaded table and rs ("" if
// none) and the hash in the loaded marker.
func compare(conn Conn, t *nftables.Table, rs *ruleset) (diff, loaded string, err error) {
	// The kernel counts every object of the table (chains, sets, stateful
	// objects, flowtables), so one number tells of anything added beside ours
	// without listing what other tables hold.
	if use, want := tableUse(t), uint32(len(rs.chains)+len(rs.sets)); use != want {
		return fmt.Sprintf("it holds %d chains and sets, want %d", use, want), "", nil
	}
	live := make([][]*nftables.Rule, len(rs.chains))
	for i, c := range rs.chains {
		chain, err := conn.ListChain(t, c.chain.Name)
		if errors.Is(err, unix.ENOENT) {
			return "chain " + c.chain.Name + " is missing", loaded, nil
		}
		if err != nil {
			return "", "", fmt.Errorf("reading chain %s of table inet %s: %w", c.chain.Name, TableName, err)
		}
		if got, want := describeChain(chain), describeChain(c.chain); got != want {
			return fmt.Sprintf("chain is %q, want %q", got, want), loaded, nil
		}
		if live[i], err = conn.GetRules(t, chain); err != nil {
			return "", "", fmt.Errorf("reading the rules of table inet %s: %w", TableName, err)
		}
		if i > 0 {
			continue
		}
		if len(live[0]) > 0 {
			if c, ok := userdata.GetString(live[0][0].UserData, userdata.TypeComment); ok {
				for _, prefix := range []string{markerPrefix, markerPrefixMasquerade} {
					if h, found := strings.CutPrefix(c, prefix); found {
						loaded = h
					}
				}
			}
		}
		if loaded != rs.hash {
			if loaded == "" {
				return "its marker is missing", loaded, nil
			}
			return "it was rendered from another guard (sha256=" + loaded + ")", loaded, nil
		}
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

	for i, c := range rs.chains {
		// The first chain's differences read as they always have; another
		// chain's name its chain.
		where := ""
		if i > 0 {
			where = "chain " + c.chain.Name + ": "
		}
		rules := live[i]
		if len(rules) != len(c.rules) {
			return fmt.Sprintf("%s%d rules, want %d", where, len(rules), len(c.rules)), loaded, nil
		}
		for j, want := range c.rules {
			comment, _ := userdata.GetString(rules[j].UserData, userdata.TypeComment)
			if describeRule(rules[j].Exprs) != describeRule(want.exprs) || comment != want.comment {
				return fmt.Sprintf("%srule %d (%s) was changed", where, j+1, want.comment), loaded, nil
			}
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
