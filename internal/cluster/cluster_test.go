package cluster_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/finding"
)

var update = flag.Bool("update", false, "rewrite the delivered forms in testdata from the plain documents")

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func read(t *testing.T, file string, data []byte) cluster.Node {
	t.Helper()
	n, err := cluster.Read(t.Context(), file, data)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// edit is one change to a plain document: old replaced by new, once.
type edit struct{ file, old, new string }

// checkSet checks the three-node set with the edits applied (checkSetOf).
func checkSet(t *testing.T, invalidAlone bool, edits ...edit) cluster.Findings {
	t.Helper()
	return checkSetOf(t, threeNodeSet, invalidAlone, edits...)
}

// checkSetOf delivers the plain documents of a set with the edits applied,
// reads each as validate does and checks the set; unless invalidAlone,
// every file must stay valid on its own, so what is found is between the
// files.
func checkSetOf(t *testing.T, set nodeSet, invalidAlone bool, edits ...edit) cluster.Findings {
	t.Helper()
	return checkNodes(t, readSetOf(t, set, invalidAlone, edits...))
}

// readSetOf reads the documents of a set with the edits applied, as
// checkSetOf does.
func readSetOf(t *testing.T, set nodeSet, invalidAlone bool, edits ...edit) []cluster.Node {
	t.Helper()
	docs := set.plainDocs(t)
	for _, e := range edits {
		s := string(docs[e.file])
		if !strings.Contains(s, e.old) {
			t.Fatalf("%s no longer holds %q", e.file, e.old)
		}
		docs[e.file] = []byte(strings.Replace(s, e.old, e.new, 1))
	}
	var nodes []cluster.Node
	for _, name := range set.docs {
		d := set.deliver[name]
		n := read(t, d.name, d.wrap(t, docs[name]))
		if errs := n.Findings.Errors(); len(errs) > 0 && !invalidAlone {
			t.Fatalf("%s is invalid on its own: %v", d.name, errs)
		}
		nodes = append(nodes, n)
	}
	return nodes
}

// checkNodes checks a set, and that no message is broken.
func checkNodes(t *testing.T, nodes []cluster.Node, opts ...cluster.Option) cluster.Findings {
	t.Helper()
	fs := cluster.Check(nodes, opts...)
	for _, f := range fs {
		if strings.Contains(f.Message, "%!") || strings.Contains(f.Message, "<nil>") {
			t.Errorf("a message is broken: %s", f.Message)
		}
	}
	return fs
}

// The committed files of each set, as handed to the nodes, are one
// cluster: valid, with no warning.
func TestThreeNodesAreOneCluster(t *testing.T) {
	for _, s := range []nodeSet{threeNodeSet, haFiveNodeSet} {
		var nodes []cluster.Node
		for _, name := range s.files() {
			n := read(t, name, readFile(t, filepath.Join(s.dir, name)))
			if len(n.Findings) > 0 || n.Doc == nil || n.Doc.Config == nil {
				t.Fatalf("%s: %v", name, n.Findings)
			}
			nodes = append(nodes, n)
		}
		if fs := cluster.Check(nodes); len(fs) > 0 {
			t.Errorf("the nodes of %s are one cluster, but:\n%s", s.dir, lines(fs))
		}
	}
}

func lines(fs cluster.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.File + " " + f.Severity.String() + " " + f.String() + "\n")
	}
	return b.String()
}

// want is a finding a mistake must produce: its file (as delivered), path,
// severity and a part of its message.
type want struct {
	file, path string
	sev        finding.Severity
	says       string
}

func expect(t *testing.T, fs cluster.Findings, w want) {
	t.Helper()
	for _, f := range fs {
		if f.File == w.file && f.Path == w.path && f.Severity == w.sev && strings.Contains(f.Message, w.says) {
			return
		}
	}
	t.Errorf("no %s at %s %s saying %q; found:\n%s", w.sev, w.file, w.path, w.says, lines(fs))
}

const (
	errorSev = finding.Error
	warnSev  = finding.Warning
	a2File   = "a2-user-data.yaml (write_files[0].content)"
	w1File   = "w1-cmdline.txt (corium.config)"
)

// The mistakes operators make between documents, each on the cluster that
// passes above; each test fails when its check is gone.
func TestClusterMistakes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []edit
		want  want
		// invalidAlone: the mistake shows in a file on its own too.
		invalidAlone bool
	}{
		{"keys swapped between two peers", []edit{
			{"a1.yaml", "publicKey: U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o= # a2", "publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # a2"},
			{"a1.yaml", "publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # w1", "publicKey: U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o= # w1"},
		}, want{"a1.yaml", "wireguard[0].peers[0].publicKey", errorSev, "is the key of w1 (w1-cmdline.txt wireguard[0]), but allowedIPs hold the address of a2 (a2-user-data.yaml wireguard[0])"}, false},
		{"neither side has an endpoint", []edit{
			{"a1.yaml", "        endpoint: 192.0.2.12:51820\n", ""},
			{"a2.yaml", "        endpoint: 192.0.2.11:51820\n", ""},
		}, want{"a1.yaml", "wireguard[0].peers[0]", errorSev, "neither end can open the tunnel with a2 (a2-user-data.yaml wireguard[0])"}, false},
		{"allowedIPs miss the peer's address", []edit{
			{"a1.yaml", "allowedIPs: [10.30.0.11/32]", "allowedIPs: [10.30.0.12/32]"},
		}, want{"a1.yaml", "wireguard[0].peers[1].allowedIPs", errorSev, "do not hold 10.30.0.11 of w1 (w1-cmdline.txt wireguard[0])"}, false},
		{"a node in another subnet", []edit{
			{"w1.yaml", "address: 10.30.0.11/24", "address: 10.31.0.11/24"},
		}, want{w1File, "wireguard[0].address", warnSev, "10.31.0.11/24 is on another network than its peer a1 (a1.yaml wireguard[0]) (10.30.0.1/24)"}, false},
		{"a duplicate node address", []edit{
			{"w1.yaml", "address: 10.30.0.11/24", "address: 10.30.0.2/24"},
		}, want{w1File, "wireguard[0].address[0]", errorSev, "10.30.0.2 is also the address of a2 (a2-user-data.yaml wireguard[0])"}, true},
		{"a duplicate node name", []edit{
			{"w1.yaml", "name: w1", "name: a2"},
		}, want{w1File, "node.name", errorSev, "is a2, as in a2-user-data.yaml: two nodes of one cluster cannot share a name"}, false},
		{"mismatched MTUs", []edit{
			{"w1.yaml", "mtu: 1420", "mtu: 1380"},
		}, want{w1File, "wireguard[0].mtu", warnSev, "is 1380, but a1 (a1.yaml wireguard[0]) on the same overlay has 1420"}, false},
		{"a preshared key on one side only", []edit{
			{"a2.yaml", "        presharedKey: 6Y4LHkKt1JYmHA6cMqPQF0ASB8at8DHhsR+YuOuh7Dw=\n", ""},
		}, want{"a1.yaml", "wireguard[0].peers[0].presharedKey", errorSev, "a2-user-data.yaml has no preshared key for a1 (a1.yaml wireguard[0])"}, false},
		{"an endpoint port that is not the peer's listenPort", []edit{
			{"w1.yaml", "endpoint: 192.0.2.12:51820", "endpoint: 192.0.2.12:51821"},
		}, want{w1File, "wireguard[0].peers[1].endpoint", warnSev, "dials port 51821, but a2 (a2-user-data.yaml wireguard[0]) listens on 51820"}, false},
		{"a controller's patch of the encapsulation no other node has", []edit{
			{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nk0s: {patch: {spec: {network: {kuberouter: {extraArgs: {overlay-encap: fou}}}}}}\n"},
		}, want{"a1.yaml", `k0s.patch["spec"]["network"]`, errorSev, "runs pods between nodes with kube-router's fou on 5555/udp, but a2-user-data.yaml has kube-router's ipip, as does 1 other file"}, false},
		{"a different cluster name", []edit{
			{"w1.yaml", "name: lab", "name: labs"},
		}, want{w1File, "cluster.name", errorSev, "is labs, but a1.yaml has lab"}, false},
		{"a different pod range", []edit{
			{"a2.yaml", "cluster:\n", "network:\n  podCIDR: 10.245.0.0/16\ncluster:\n"},
		}, want{a2File, "network.podCIDR", errorSev, "is 10.245.0.0/16, but a1.yaml has 10.244.0.0/16 (the default)"}, false},
		{"A lists B, B does not list A", []edit{
			{"w1.yaml", "      - publicKey: U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o= # a2\n        endpoint: 192.0.2.12:51820\n        allowedIPs: [10.30.0.2/32]\n        persistentKeepalive: 25\n", ""},
		}, want{a2File, "wireguard[0].peers[1].publicKey", errorSev, "stands for w1 (w1-cmdline.txt wireguard[0]), but w1-cmdline.txt has no peer for a2 (a2-user-data.yaml wireguard[0])"}, false},
		{"a controller's patch that differs from the other's", []edit{
			{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nk0s: {patch: {spec: {network: {kubeProxy: {mode: ipvs}}}}}\n"},
		}, want{a2File, "k0s.patch", errorSev, "leaves spec.network.kubeProxy.mode to the agent and k0s, but a1.yaml's k0s.patch sets it"}, false},
		{"controllers' patches that set one field otherwise", []edit{
			{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nk0s: {patch: {spec: {api: {extraArgs: {audit-log-maxage: \"30\"}}}}}\n"},
			{"a2.yaml", "role: controller\n", "role: controller\nk0s: {patch: {spec: {api: {extraArgs: {audit-log-maxage: \"7\"}}}}}\n"},
		}, want{a2File, `k0s.patch["spec"]["api"]["extraArgs"]["audit-log-maxage"]`, errorSev, "sets spec.api.extraArgs.audit-log-maxage otherwise than a1.yaml does"}, false},
		{"a controller without a kubelet patching the encapsulation", []edit{
			{"a2.yaml", "role: controller\n", "role: controller\nk0s: {patch: {spec: {network: {kuberouter: {extraArgs: {overlay-encap: fou}}}}}}\n"},
		}, want{a2File, `k0s.patch["spec"]["network"]`, errorSev, "runs pods between nodes with kube-router's fou on 5555/udp, but a1.yaml has kube-router's ipip"}, false},
		{"a controller's patch of calico's VXLAN port", []edit{
			{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nnetwork: {cni: calico}\n"},
			{"a2.yaml", "role: controller\n", "role: controller\nnetwork: {cni: calico}\nk0s: {patch: {spec: {network: {calico: {vxlanPort: 4790}}}}}\n"},
			{"w1.yaml", "role: worker\n", "role: worker\nnetwork: {cni: calico}\n"},
		}, want{a2File, `k0s.patch["spec"]["network"]`, errorSev, "runs pods between nodes with calico's vxlan on 4790/udp, but a1.yaml has calico's vxlan on 4789/udp"}, false},
		{"a controller's patch of kube-router's BGP port", []edit{
			{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nk0s: {patch: {spec: {network: {kuberouter: {extraArgs: {bgp-port: \"1790\"}}}}}}\n"},
		}, want{"a1.yaml", `k0s.patch["spec"]["network"]`, errorSev, "has kube-router's BGP on 1790/tcp, metrics on 8080/tcp and health on 20244/tcp, but a2-user-data.yaml has kube-router's BGP on 179/tcp"}, false},
		{"a controller's patch of kube-router's health port", []edit{
			{"a2.yaml", "role: controller\n", "role: controller\nk0s: {patch: {spec: {network: {kuberouter: {extraArgs: {health-port: \"20245\"}}}}}}\n"},
		}, want{a2File, `k0s.patch["spec"]["network"]`, errorSev, "has kube-router's BGP on 179/tcp, metrics on 8080/tcp and health on 20245/tcp, but a1.yaml has kube-router's BGP on 179/tcp, metrics on 8080/tcp and health on 20244/tcp"}, false},
		{"a controller that turns on node-local load balancing alone", []edit{
			{"a2.yaml", "role: controller\n", "role: controller\nk0s: {patch: {spec: {network: {nodeLocalLoadBalancing: {enabled: true}}}}}\n"},
		}, want{a2File, `k0s.patch["spec"]["network"]`, errorSev, "has node-local load balancing on (the konnectivity agent's health on 8093/tcp), but a1.yaml has node-local load balancing off"}, false},
		{"two kubelets that are no peers and have no route through one", []edit{
			{"a1.yaml", "      - publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # w1, behind NAT: it dials\n        allowedIPs: [10.30.0.11/32]\n", ""},
			{"w1.yaml", "      - publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc= # a1\n        endpoint: 192.0.2.11:51820\n        allowedIPs: [10.30.0.1/32]\n        persistentKeepalive: 25\n", ""},
		}, want{w1File, "wireguard[0].peers", errorSev, "cannot reach, through the overlay, a1 (a1.yaml wireguard[0]) (10.30.0.1), whose address no peer entry holds; kube-router's BGP sessions and tunnels run between the node addresses of every two nodes"}, false},
		{"a route through a peer that does not list the node", []edit{
			{"a1.yaml", "      - publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # w1, behind NAT: it dials\n        allowedIPs: [10.30.0.11/32]\n", ""},
			{"a1.yaml", "allowedIPs: [10.30.0.2/32]", "allowedIPs: [10.30.0.2/32, 10.30.0.11/32]"},
			{"w1.yaml", "      - publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc= # a1\n        endpoint: 192.0.2.11:51820\n        allowedIPs: [10.30.0.1/32]\n        persistentKeepalive: 25\n", ""},
			{"w1.yaml", "allowedIPs: [10.30.0.2/32]", "allowedIPs: [10.30.0.2/32, 10.30.0.1/32]"},
			{"a2.yaml", "      - publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # w1\n        allowedIPs: [10.30.0.11/32]\n", ""},
		}, want{"a1.yaml", "wireguard[0].peers", errorSev, "cannot reach, through the overlay, w1 (w1-cmdline.txt wireguard[0]) (10.30.0.11), whose address wireguard[0].peers[0] holds for a2 (a2-user-data.yaml wireguard[0]), which has no peer for it"}, false},
		{"allowedIPs that hold the pod range", []edit{
			{"w1.yaml", "allowedIPs: [10.30.0.1/32]", "allowedIPs: [10.30.0.1/32, 10.244.0.0/16]"},
		}, want{w1File, "wireguard[0].peers[0].allowedIPs[1]", errorSev, "holds 10.244.0.0/16, which is the pod range 10.244.0.0/16: wg-quick routes it to this one peer"}, false},
		{"allowedIPs inside the service range", []edit{
			{"w1.yaml", "allowedIPs: [10.30.0.1/32]", "allowedIPs: [10.30.0.1/32, 10.96.0.0/24]"},
		}, want{w1File, "wireguard[0].peers[0].allowedIPs[1]", errorSev, "holds 10.96.0.0/24, inside the service range 10.96.0.0/12"}, false},
		{"a node nobody dials that keeps no tunnel open", []edit{
			{"w1.yaml", "        allowedIPs: [10.30.0.2/32]\n        persistentKeepalive: 25\n", "        allowedIPs: [10.30.0.2/32]\n"},
		}, want{w1File, "wireguard[0].peers[1].persistentKeepalive", errorSev, "is not set, and nothing can dial w1 (w1-cmdline.txt wireguard[0]), which sets no listenPort: a2 (a2-user-data.yaml wireguard[0]) reaches it only through the mapping a NAT or firewall in front of it keeps"}, false},
		{"one node dialled at two endpoints", []edit{
			{"w1.yaml", "endpoint: 192.0.2.12:51820", "endpoint: 198.51.100.12:51820"},
		}, want{a2File, "wireguard[0]", warnSev, "is dialled at 2 endpoints: 192.0.2.12:51820 by a1 (a1.yaml wireguard[0]); 198.51.100.12:51820 by w1 (w1-cmdline.txt wireguard[0])"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, checkSet(t, tc.invalidAlone, tc.edits...), tc.want)
		})
	}
	for _, tc := range haMistakes {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, checkSetOf(t, haFiveNodeSet, tc.invalidAlone, tc.edits...), tc.want)
		})
	}
}
