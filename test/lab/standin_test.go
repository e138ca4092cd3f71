package lab

import (
	"bufio"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"
)

// Bind is where a service listens on its node.
type Bind int

const (
	// Every address of the node (a wildcard socket, both families).
	Every Bind = iota
	// Loopback only.
	Loopback
	// PeerAddress: the address k0s.yaml names in
	// spec.storage.etcd.peerAddress.
	PeerAddress
)

// Service is one socket k0s or a component it runs opens on a node, and who
// in the cluster connects to it. The STAND-INS the lab starts in their
// place answer a connection with their node's name and close it.
type Service struct {
	Name string
	Port int
	Bind Bind
	// On: the nodes it runs on; From: of two nodes, whether from connects
	// to it on to (nil: nobody in the cluster does, it only listens).
	On   func(n *Node) bool
	From func(from, to *Node) bool
	// Cite is where k0s v1.36.3+k0s.0 sets the port and the bind address.
	Cite string
}

func controllers(n *Node) bool          { return n.controller() }
func etcdControllers(n *Node) bool      { return n.controller() && !n.runsKine() }
func kineControllers(n *Node) bool      { return n.controller() && n.runsKine() }
func kubelets(n *Node) bool             { return n.kubelet() }
func fromAny(_, _ *Node) bool           { return true }
func fromController(from, _ *Node) bool { return from.controller() }
func fromKubelet(from, _ *Node) bool    { return from.kubelet() }

// Services are where k0s v1.36.3+k0s.0 listens on a node of each role with
// the ClusterConfig the agent renders (no onlyBindToAddress, etcd storage
// unless the document says kine or sqlite, kube-router, kube-proxy in iptables mode), mirrored here because k0s
// itself is not installable. Paths are in github.com/k0sproject/k0s at the
// tag v1.36.3+k0s.0.
var Services = []Service{
	{Name: "kube-apiserver", Port: 6443, Bind: Every, On: controllers, From: fromAny,
		Cite: "pkg/component/controller/apiserver.go:58,96 (secure-port); bind-address only with onlyBindToAddress, apiserver.go:121-123"},
	{Name: "k0s-api", Port: 9443, Bind: Every, On: controllers, From: fromController,
		Cite: "cmd/api/api.go:159-174 (the join API on K0sAPIPort, on every address unless onlyBindToAddress)"},
	{Name: "konnectivity-server", Port: 8132, Bind: Every, On: controllers, From: fromKubelet,
		Cite: "pkg/component/controller/konnectivity.go:148 (--agent-port), pkg/apis/k0s/v1beta1/konnectivity.go:35 (8132); the agents run on the nodes with a kubelet"},
	{Name: "konnectivity-admin", Port: 8133, Bind: Loopback, On: controllers,
		Cite: "pkg/component/controller/konnectivity.go:149 (--admin-port; konnectivity-server's admin bind address defaults to 127.0.0.1), pkg/apis/k0s/v1beta1/konnectivity.go:36"},
	{Name: "etcd-peer", Port: 2380, Bind: PeerAddress, On: etcdControllers, From: fromController,
		Cite: "pkg/component/controller/etcd.go:176-177 (--listen-peer-urls from spec.storage.etcd.peerAddress)"},
	{Name: "etcd-client", Port: 2379, Bind: Loopback, On: etcdControllers,
		Cite: "pkg/component/controller/etcd.go:173 (--listen-client-urls https://127.0.0.1:2379)"},
	// kine's etcd API is a unix socket (kine.go:110-113): no TCP listener.
	{Name: "kine-metrics", Port: 2380, Bind: Every, On: kineControllers,
		Cite: "pkg/component/controller/kine.go:114-115 (--metrics-bind-address :2380), with storage kine or sqlite (kine with its default datasource)"},
	{Name: "kube-controller-manager", Port: 10257, Bind: Loopback, On: controllers,
		Cite: "pkg/component/controller/controllermanager.go:43 (bind-address 127.0.0.1)"},
	{Name: "kube-scheduler", Port: 10259, Bind: Loopback, On: controllers,
		Cite: "pkg/component/controller/scheduler.go:76 (bind-address 127.0.0.1)"},
	{Name: "kubelet", Port: 10250, Bind: Every, On: kubelets, From: fromController,
		Cite: "pkg/component/worker/kubelet.go sets no --address: the kubelet's default 0.0.0.0; the API server connects to it"},
	{Name: "kube-proxy-metrics", Port: 10249, Bind: Every, On: kubelets,
		Cite: "pkg/apis/k0s/v1beta1/kubeproxy.go:98-104 (metricsBindAddress 0.0.0.0:10249)"},
	{Name: "kube-proxy-healthz", Port: 10256, Bind: Every, On: kubelets,
		Cite: "pkg/apis/k0s/v1beta1/kubeproxy.go:98-104 (healthzBindAddress 0.0.0.0:10256)"},
	{Name: "kube-router-bgp", Port: 179, Bind: Every, On: kubelets, From: fromKubelet,
		Cite: "pkg/component/controller/kuberouter.go:111-123 (run-router on, no bgp-port: kube-router's default 179, peering between every node with a kubelet)"},
	{Name: "kube-router-metrics", Port: 8080, Bind: Every, On: kubelets,
		Cite: "pkg/component/controller/kuberouter.go:121, pkg/apis/k0s/v1beta1/kuberouter.go:89 (metrics-port 8080)"},
	// On controllers with ha and no virtualServers; keep it last (cplbProxy).
	{Name: "cplb-proxy", Port: 6444, Bind: Every, On: func(n *Node) bool { return n.ha },
		Cite: "pkg/component/controller/cplb/cplb_linux.go:404,435 (tcpproxy on :UserSpaceProxyPort), pkg/apis/k0s/v1beta1/cplb.go:348-349 (6444)"},
}

// Starter runs something real in a stand-in's place on a node: a test sets
// Lab.Replace[service name] before Up. It must leave the service listening
// as Service says (its port, its bind) and stop it when the test ends. A
// replaced service is checked by connection alone, not by the stand-ins'
// answer.
type Starter func(t testing.TB, ln *LabNode, svc Service)

// startServices starts each service of the node's role: a stand-in, or the
// test's Starter in its place.
func (l *Lab) startServices(t testing.TB, ln *LabNode) {
	t.Helper()
	for _, svc := range Services {
		if !svc.On(ln.Node) {
			continue
		}
		if start, ok := l.Replace[svc.Name]; ok {
			start(t, ln, svc)
			continue
		}
		ln.standIn(t, svc)
	}
}

// standIn listens where svc listens, in the node's namespace, and answers
// every connection with the node's name.
func (ln *LabNode) standIn(t testing.TB, svc Service) {
	t.Helper()
	var addr string
	switch svc.Bind {
	case Every:
		addr = ":" + strconv.Itoa(svc.Port)
	case Loopback:
		addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(svc.Port))
	case PeerAddress:
		addr = net.JoinHostPort(ln.etcdPeerAddress(t).String(), strconv.Itoa(svc.Port))
	}
	l := ln.Listen(t, addr)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			w := bufio.NewWriter(c)
			_, _ = w.WriteString(ln.Name + "\n")
			_ = w.Flush()
			_ = c.Close()
		}
	}()
}

// etcdPeerAddress is spec.storage.etcd.peerAddress of the k0s.yaml the
// agent wrote for the node.
func (ln *LabNode) etcdPeerAddress(t testing.TB) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(ln.k0sPeerAddress(t))
	if err != nil {
		t.Fatalf("%s: k0s.yaml spec.storage.etcd.peerAddress: %v", ln.Name, err)
	}
	return a
}

// k0sPeerAddress is spec.storage.etcd.peerAddress as written, the string
// k0s builds etcd's peer URL and peer certificate from.
func (ln *LabNode) k0sPeerAddress(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ln.Root, "etc/k0s/k0s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Spec struct {
			Storage struct {
				Etcd struct {
					PeerAddress string `yaml:"peerAddress"`
				} `yaml:"etcd"`
			} `yaml:"storage"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: k0s.yaml: %v", ln.Name, err)
	}
	return c.Spec.Storage.Etcd.PeerAddress
}

// Listen opens a TCP listener on addr in the node's namespace (a Starter's
// too), closed when the test ends.
func (ln *LabNode) Listen(t testing.TB, addr string) net.Listener {
	t.Helper()
	var l net.Listener
	if err := ln.NS.Do(func() (err error) {
		l, err = net.Listen("tcp", addr)
		return err
	}); err != nil {
		t.Fatalf("%s: listening on %s: %v", ln.Name, addr, err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}
