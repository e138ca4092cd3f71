package lab

import (
	"testing"
	"time"
)

// c2's etcd with a metrics listener on every address (as a user's
// spec.storage.etcd.extraArgs would add it, etcd.go:218-224), c2 without
// its guard and with route_localnet on: etcd's listener check names the
// socket k0s's flags do not open (Go's socket on 0.0.0.0 takes both
// families), the underlay reaching it and the peer port, and the client
// port on loopback no longer out of the underlay's reach.
func TestNegativeEtcdListeners(t *testing.T) {
	t.Parallel()
	s := threeControllers()
	s.Node("c2").NoGuard = true
	l, ec := etcdUp(t, s, 30*time.Second, func(ec *etcdCluster) {
		ec.extraArgs["c2"] = []string{"--listen-metrics-urls=http://0.0.0.0:2381"}
	})
	l.Node("c2").NS.Run(t, "sysctl", "-qw", "net.ipv4.conf.eth0.route_localnet=1")
	v := &Verdict{}
	ec.checkListeners(t, l, v)
	requireFail(t, v, "c2: etcd listens on [::]:2381, which k0s's flags do not open")
	requireFail(t, v, "c2: the underlay reaches etcd's listener at 192.0.2.12:2381")
	requireFail(t, v, "c2: etcd's 127.0.0.1:2379 is on loopback, but net.ipv4.conf.eth0.route_localnet")
	requireFail(t, v, "c2: the underlay reaches etcd's peer port at 10.10.0.2:2380")
	if len(v.Problems) != 4 {
		t.Errorf("the listener check found %d problems, not c2's four:\n%s", len(v.Problems), v)
	}
}

// c2 without nodeAddress on its wireguard interface (and so with
// clusterPorts open, which the agent requires then): the agent chooses its
// underlay address for it, so its etcd peers there, off the overlay (and
// stays a learner, so the scenario has no third controller to join).
func TestNegativeEtcdPeerOffOverlay(t *testing.T) {
	t.Parallel()
	s := twoControllers()
	s.Node("c2").NoNodeAddress = true
	s.Node("c2").ClusterPorts = "open"
	_, ec := etcdUp(t, s, 5*time.Second, nil)
	v := &Verdict{}
	ec.checkOverlay(v)
	requireFail(t, v, "c2: etcd peers at https://192.0.2.12:2380, not at its overlay address (https://10.10.0.2:2380)")
}
