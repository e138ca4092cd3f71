package nft

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
)

func TestRenderMasqueradeFollowsCNIRoleAndNodeAddress(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*schema.Config)
		want bool
	}{
		{"kube-router, node address on wg0", func(*schema.Config) {}, true},
		{"kube-router by default", func(c *schema.Config) { c.Network.CNI = "" }, true},
		{"worker", func(c *schema.Config) { c.Role = schema.RoleWorker }, true},
		{"single", func(c *schema.Config) { c.Role = schema.RoleSingle }, true},
		{"a controller runs no pods", func(c *schema.Config) { c.Role = schema.RoleController }, false},
		{"calico masquerades itself", func(c *schema.Config) { c.Network.CNI = schema.CNICalico }, false},
		{"custom", func(c *schema.Config) { c.Network.CNI = schema.CNICustom }, false},
		{"node address off the overlay", func(c *schema.Config) { c.WireGuard[0].NodeAddress = false }, false},
	} {
		for _, cp := range []schema.ClusterPorts{schema.ClusterPortsOverlay, schema.ClusterPortsOpen} {
			cfg := overlayConfig()
			cfg.Firewall.ClusterPorts = cp
			tc.edit(cfg)
			g, err := renderGuard(cfg)
			if cp == schema.ClusterPortsOverlay && !cfg.WireGuard[0].NodeAddress {
				continue // validation refuses a guard without a node address
			}
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, cp, err)
			}
			if g.Masquerade != tc.want || g.On != (cp == schema.ClusterPortsOverlay) {
				t.Errorf("%s, clusterPorts %s: on %v, masquerade %v; want masquerade %v", tc.name, cp, g.On, g.Masquerade, tc.want)
			}
		}
	}
}

// With the guard off, the table is the masquerade alone: one set (the
// WireGuard interfaces, no lo), one nat chain, and State says the guard is
// off, whether the table is there or not.
func TestMasqueradeOnly(t *testing.T) {
	cfg := overlayConfig()
	cfg.Firewall.ClusterPorts = schema.ClusterPortsOpen
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	back, err := firewall.ParseFile(g.File())
	if err != nil || !reflect.DeepEqual(back, g) {
		t.Fatalf("ParseFile(File()) = %+v, %v; want %+v", back, err, g)
	}
	if g.Holds() != "the pod masquerade" {
		t.Errorf("Holds = %q", g.Holds())
	}
	conn := newFakeConn()
	r := mustState(t, conn, g, Missing)
	if !strings.Contains(r.Reason, "pods' packets to other nodes' addresses") || strings.Contains(r.Reason, "cluster ports are open") {
		t.Errorf("missing reason = %q", r.Reason)
	}
	if err := Apply(context.Background(), conn, g); err != nil {
		t.Fatal(err)
	}
	batch := conn.Batches[0]
	for _, want := range []string{
		"add chain 1 corium chain postrouting type nat hook 4 priority 100 policy 1",
		`comment "corium-masquerade sha256=`,
		"add set overlay_ifaces type ifname",
	} {
		if !strings.Contains(batch, want) {
			t.Errorf("batch lacks %q:\n%s", want, batch)
		}
	}
	for _, unwanted := range []string{"chain input", "tcp_ports", "corium-guard"} {
		if strings.Contains(batch, unwanted) {
			t.Errorf("a masquerade-only batch has %q:\n%s", unwanted, batch)
		}
	}
	ft := conn.tables[key(table())]
	if len(ft.sets) != 1 || len(ft.chains) != 1 || len(ft.rules[natChainName]) != 1 {
		t.Fatalf("%d sets, %d chains, %d nat rules; want 1, 1, 1", len(ft.sets), len(ft.chains), len(ft.rules[natChainName]))
	}
	r = mustState(t, conn, g, Current)
	if !strings.Contains(r.Reason, "holds the rendered pod masquerade only; the guard is off (clusterPorts: open)") {
		t.Errorf("current reason = %q", r.Reason)
	}
	mustState(t, conn, firewall.Guard{}, Stale)
	with := mustRender(t) // the guard and the masquerade
	r = mustState(t, conn, with, Stale)
	if !strings.Contains(r.Reason, "differs from the rendered guard and pod masquerade") {
		t.Errorf("stale reason = %q", r.Reason)
	}
	if err := Apply(context.Background(), conn, firewall.Guard{}); err != nil {
		t.Fatal(err)
	}
	mustState(t, conn, firewall.Guard{}, Off)
}

// The masquerade matches the overlay interfaces going out, a pod source and
// a destination outside the pod network, in the pod network's family.
func TestMasqueradeRuleAndItsFamily(t *testing.T) {
	for _, tc := range []struct {
		pod            string
		saddr, daddr   uint32
		family, length byte
	}{
		{"10.244.0.0/16", 12, 16, unix.NFPROTO_IPV4, 4},
		{"fd00:10:244::/104", 8, 24, unix.NFPROTO_IPV6, 16},
	} {
		cfg := overlayConfig()
		cfg.Network.PodCIDR = tc.pod
		g, err := renderGuard(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := buildRuleset(g)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs.chains) != 2 || rs.chains[1].chain.Name != natChainName || len(rs.chains[1].rules) != 1 {
			t.Fatalf("%s: chains %+v", tc.pod, rs.chains)
		}
		exprs := rs.chains[1].rules[0].exprs
		var offsets []uint32
		var family []byte
		var ops []expr.CmpOp
		for _, e := range exprs {
			switch v := e.(type) {
			case *expr.Payload:
				if v.Len != uint32(tc.length) {
					t.Errorf("%s: an address of %d bytes", tc.pod, v.Len)
				}
				offsets = append(offsets, v.Offset)
			case *expr.Cmp:
				if len(v.Data) == 1 {
					family = append(family, v.Data[0])
				} else {
					ops = append(ops, v.Op)
				}
			}
		}
		if m, ok := exprs[0].(*expr.Meta); !ok || m.Key != expr.MetaKeyOIFNAME {
			t.Errorf("%s: the rule does not start with oifname: %T", tc.pod, exprs[0])
		}
		if _, ok := exprs[len(exprs)-1].(*expr.Masq); !ok {
			t.Errorf("%s: the rule does not end in masquerade: %T", tc.pod, exprs[len(exprs)-1])
		}
		if !reflect.DeepEqual(offsets, []uint32{tc.saddr, tc.daddr}) || !reflect.DeepEqual(family, []byte{tc.family}) || !reflect.DeepEqual(ops, []expr.CmpOp{expr.CmpOpEq, expr.CmpOpNeq}) {
			t.Errorf("%s: reads offsets %v in family %v with %v; want saddr %d == pod, daddr %d != pod, family %d", tc.pod, offsets, family, ops, tc.saddr, tc.daddr, tc.family)
		}
	}
}

// A guard without the new parts writes the bytes an agent before them
// wrote, so a file such a node holds reads back as the same guard, and an
// older agent (after a rollback) still reads what this one wrote for it.
func TestFileWithoutEndpointOrMasqueradeIsUnchanged(t *testing.T) {
	cfg := overlayConfig()
	cfg.Network.CNI = schema.CNICalico
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	data := g.File()
	for _, field := range []string{`"endpoint"`, `"masquerade"`} {
		if bytes.Contains(data, []byte(field)) {
			t.Errorf("a guard without %s writes it:\n%s", field, data)
		}
	}
	if !bytes.Contains(data, []byte(`"version": 2`)) {
		t.Errorf("file version changed:\n%s", data)
	}
}

func TestParseFileRefusesABadMasquerade(t *testing.T) {
	for name, tc := range map[string]struct{ data, want string }{
		"calico":        {`{"version":2,"on":false,"interfaces":["wg0"],"podCIDR":"10.0.0.0/8","cni":"calico","masquerade":true}`, `cni: "calico" is not kuberouter`},
		"no interfaces": {`{"version":2,"on":false,"podCIDR":"10.0.0.0/8","cni":"kuberouter","masquerade":true}`, "interfaces: empty"},
		"with ports":    {`{"version":2,"on":false,"ports":[{"port":10250,"proto":"tcp"}],"interfaces":["wg0"],"podCIDR":"10.0.0.0/8","cni":"kuberouter","masquerade":true}`, "guard is off but lists ports"},
		"no pod cidr":   {`{"version":2,"on":false,"interfaces":["wg0"],"cni":"kuberouter","masquerade":true}`, "no '/'"},
		"guard, calico": {`{"version":2,"on":true,"ports":[{"port":10250,"proto":"tcp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8","cni":"calico","masquerade":true}`, `masquerade: is for kuberouter, not "calico"`},
		"version 1":     {`{"version":1,"on":true,"ports":[{"port":10250,"proto":"tcp"}],"interfaces":["lo"],"podCIDR":"10.0.0.0/8","masquerade":true}`, "version 1 has no endpoint or masquerade"},
	} {
		_, err := firewall.ParseFile([]byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: firewall.ParseFile error = %v, want it to contain %q", name, err, tc.want)
		}
	}
}
