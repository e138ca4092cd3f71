package cluster_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
)

const (
	a1Private = "MATgUxZBU9/5J9d1BX7Jam0K2CyTFAfQq9WF0QEEcHk="
	psk       = "6Y4LHkKt1JYmHA6cMqPQF0ASB8at8DHhsR+YuOuh7Dw="
	a2Public  = "U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o="
	w1Public  = "VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE="
)

// The other checks of a set, each on the passing cluster with one change.
func TestClusterChecks(t *testing.T) {
	a1Lines := "  name: a1\nha:"
	for _, tc := range []struct {
		name         string
		edits        []edit
		want         want
		invalidAlone bool
	}{
		{"preshared keys differ", []edit{
			{"a2.yaml", "presharedKey: " + psk, "presharedKey: IIW/itV7uFtG8dIpY1eWWAYQTQtxGQIYMyr1QJK72uk="},
		}, want{a2File, "wireguard[0].peers[0].presharedKey", errorSev, "differs from the one a1.yaml holds for a2 (a2-user-data.yaml wireguard[0])"}, false},
		{"a key pair on two interfaces of the set", []edit{
			{"w1.yaml", "publicKey: " + w1Public, "publicKey: " + a2Public},
		}, want{w1File, "wireguard[0].publicKey", errorSev, "gives this interface the key pair of a2 (a2-user-data.yaml wireguard[0])"}, true},
		{"a peer outside the set", []edit{
			{"w1.yaml", "publicKey: " + a2Public + " # a2\n        endpoint: 192.0.2.12:51820\n        allowedIPs: [10.30.0.2/32]", "publicKey: " + a2Public + " # a2\n        endpoint: 192.0.2.12:51820\n        allowedIPs: [10.30.0.2/32]\n      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=\n        endpoint: 203.0.113.9:51820\n        allowedIPs: [10.40.0.0/24]"},
		}, want{w1File, "wireguard[0].peers[2].publicKey", warnSev, "no interface of the set has this key, and allowedIPs hold no address of the set"}, false},
		{"a wrong key for a node's addresses", []edit{
			{"w1.yaml", "publicKey: " + a2Public + " # a2", "publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk= # a2"},
		}, want{w1File, "wireguard[0].peers[1].publicKey", errorSev, "is not the public key of a2 (a2-user-data.yaml wireguard[0]), whose address allowedIPs hold"}, false},
		{"an interface whose key is unknown", []edit{
			{"a2.yaml", "    publicKey: " + a2Public + "\n", ""},
		}, want{a2File, "wireguard[0]", warnSev, "states no publicKey and its private key is not inline"}, false},
		{"a second controller without a join token", []edit{
			{"a2.yaml", "join:\n  tokenFrom: {file: /etc/corium/controller-token}\n", ""},
		}, want{a2File, "join", errorSev, "this controller has no join token, nor has a1.yaml"}, false},
		{"a single node in a set", []edit{
			{"a1.yaml", "role: controller+worker", "role: single"},
		}, want{"a1.yaml", "role", errorSev, "single is a cluster of one node, in a set of 3"}, true},
		{"a virtual IP differs", []edit{
			{"a2.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 192.0.2.101/24"},
		}, want{a2File, "ha.virtualIP", errorSev, "is 192.0.2.101/24, but a1.yaml has 192.0.2.100/24"}, false},
		{"a router ID differs", []edit{
			{"a2.yaml", "virtualRouterID: 51", "virtualRouterID: 52"},
		}, want{a2File, "ha.virtualRouterID", errorSev, "is 52, but a1.yaml has 51"}, false},
		{"an endpoint differs", []edit{
			{"w1.yaml", "  name: lab\n", "  name: lab\n  endpoint: 192.0.2.101\n"},
		}, want{w1File, "cluster.endpoint", errorSev, "is 192.0.2.101, but a1.yaml has 192.0.2.100"}, false},
		{"the datastore differs", []edit{
			{"a2.yaml", "role: controller\n", "role: controller\nstorage: {type: sqlite}\n"},
		}, want{a2File, "storage.type", errorSev, "differs from a1.yaml's; every node of one cluster has the same storage.type"}, true},
		{"a joining controller on kine, the first on etcd", []edit{
			{"a2.yaml", "role: controller\n", "role: controller\nstorage: {type: kine, dataSourceFrom: {file: /etc/corium/kine-datasource}}\n"},
		}, want{a2File, "storage.type", errorSev, "is kine, but a1.yaml has etcd (the default); every node of one cluster has the same storage.type"}, false},
		{"two entries of a file claim one node", []edit{
			{"a1.yaml", "        allowedIPs: [10.30.0.11/32]\n", "        allowedIPs: [10.30.0.11/32]\n  - name: wg1\n    address: 10.50.0.1/24\n    listenPort: 51821\n    privateKey: EEbXALqY+Pi4VvVhPgp3x8PpBpuMLhRbO2AnOtPcilE=\n    peers:\n      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=\n        endpoint: 203.0.113.9:51820\n        allowedIPs: [10.30.0.2/32]\n"},
		}, want{"a1.yaml", "wireguard[1].peers[0].allowedIPs[0]", errorSev, "holds 10.30.0.2, the address of a2 (a2-user-data.yaml wireguard[0]), as wireguard[0].peers[0].allowedIPs[0] of this file does"}, false},
		{"no controller in the set", []edit{
			{"a1.yaml", "role: controller+worker", "role: worker\njoin: {tokenFrom: {credential: corium.join-token}}"},
			{"a1.yaml", a1Lines, "  name: a1\nx-ha:"},
			{"a2.yaml", "role: controller\n", "role: worker\n"},
			{"a2.yaml", "ha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  interface: eth0\n  virtualRouterID: 51\n  authPassFrom: {credential: corium.vrrp}\n", ""},
		}, want{"a1.yaml", "role", warnSev, "no file of the set is a controller"}, true},
		{"a node that listens, undialled, keeping no tunnel open", []edit{
			{"w1.yaml", "    mtu: 1420\n", "    mtu: 1420\n    listenPort: 51820\n"},
			{"w1.yaml", "        allowedIPs: [10.30.0.1/32]\n        persistentKeepalive: 25\n", "        allowedIPs: [10.30.0.1/32]\n"},
		}, want{w1File, "wireguard[0].peers[0].persistentKeepalive", warnSev, "is not set, and a1 (a1.yaml wireguard[0]) has no endpoint for w1 (w1-cmdline.txt wireguard[0])"}, false},
		{"allowedIPs wider than the pod range", []edit{
			{"w1.yaml", "allowedIPs: [10.30.0.1/32]", "allowedIPs: [10.30.0.1/32, 10.128.0.0/9]"},
		}, want{w1File, "wireguard[0].peers[0].allowedIPs[1]", warnSev, "holds 10.128.0.0/9, which holds the pod range 10.244.0.0/16"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, checkSet(t, tc.invalidAlone, tc.edits...), tc.want)
		})
	}
}

// A peer key that is another file's private key is refused, and the value
// is in no finding, no message and no JSON.
func TestClusterRefusesASecretAsAPeerKeyUnseen(t *testing.T) {
	fs := checkSet(t, false, edit{"w1.yaml", "publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc= # a1", "publicKey: " + a1Private + " # a1"})
	expect(t, fs, want{w1File, "wireguard[0].peers[0].publicKey", errorSev, "is the secret a1.yaml wireguard[0].privateKey, not a public key"})
	out, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{a1Private, psk} {
		for i := 0; i+12 <= len(secret); i++ {
			if strings.Contains(string(out), secret[i:i+12]) || strings.Contains(lines(fs), secret[i:i+12]) {
				t.Fatalf("the findings show part of a secret:\n%s", out)
			}
		}
	}
}

// Findings come in the order of the files as given, then of their lines,
// however many mistakes there are.
func TestClusterFindingsInFileOrder(t *testing.T) {
	edits := []edit{
		{"w1.yaml", "name: lab", "name: labs"},
		{"a2.yaml", "virtualRouterID: 51", "virtualRouterID: 52"},
		{"a1.yaml", "allowedIPs: [10.30.0.11/32]", "allowedIPs: [10.30.0.12/32]"},
		{"w1.yaml", "mtu: 1420", "mtu: 1380"},
	}
	fs := checkSet(t, false, edits...)
	order := map[string]int{"a1.yaml": 0, a2File: 1, w1File: 2}
	if len(fs) < 4 {
		t.Fatalf("want at least 4 findings:\n%s", lines(fs))
	}
	for i := 1; i < len(fs); i++ {
		a, b := fs[i-1], fs[i]
		if order[a.File] > order[b.File] || order[a.File] == order[b.File] && a.Line > b.Line {
			t.Errorf("out of order:\n%s", lines(fs))
		}
	}
	if again := checkSet(t, false, edits...); lines(again) != lines(fs) {
		t.Errorf("two runs differ:\n%s\n%s", lines(fs), lines(again))
	}
}

// Controllers sharing a kine database are one cluster when they read its
// datasource from one place; the URL is a secret resolved on each node and
// never compared, but where each reads it from is: a credential on one and
// a file on another may be two databases, a warning at the later one.
func TestControllersSharingKineAreOneCluster(t *testing.T) {
	kine := func(from string) []edit {
		return []edit{
			{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nstorage: {type: kine, dataSourceFrom: {credential: corium.kine-datasource}}\n"},
			{"a2.yaml", "role: controller\n", "role: controller\nstorage: {type: kine, dataSourceFrom: " + from + "}\n"},
		}
	}
	if fs := checkSet(t, false, kine("{credential: corium.kine-datasource}")...); len(fs) > 0 {
		t.Errorf("two controllers on one kine database, but:\n%s", lines(fs))
	}
	fs := checkSet(t, false, kine("{file: /etc/corium/kine-datasource}")...)
	if len(fs) != 1 || fs[0].Severity != finding.Warning || fs[0].Path != "storage.dataSourceFrom" || fs[0].File != a2File ||
		!strings.Contains(fs[0].Message, "from the file /etc/corium/kine-datasource, but a1.yaml reads it from the credential corium.kine-datasource") {
		t.Errorf("a datasource read from another place: want one warning at %s storage.dataSourceFrom, got:\n%s", a2File, lines(fs))
	}
	// Two URLs are told apart and never shown: a query may carry a token.
	const u1, u2 = "https://vault.example/v1/kine?token=s3cr3t-one", "https://vault.example/v1/kine?token=s3cr3t-two"
	fs = checkSet(t, false,
		edit{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nstorage: {type: kine, dataSourceFrom: {url: \"" + u1 + "\"}}\n"},
		edit{"a2.yaml", "role: controller\n", "role: controller\nstorage: {type: kine, dataSourceFrom: {url: \"" + u2 + "\"}}\n"},
	)
	out, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "from a URL, but a1.yaml reads it from another URL") || strings.Contains(string(out), "s3cr3t") || strings.Contains(string(out), "vault.example") {
		t.Errorf("two datasource URLs: want one warning that shows neither, got:\n%s", out)
	}
}

// A worker that reaches the first controller through the second (a hub
// that lists both) is one cluster: the route through a peer counts.
func TestClusterRoutesThroughAHub(t *testing.T) {
	fs := checkSet(t, false,
		edit{"a1.yaml", "      - publicKey: " + w1Public + " # w1, behind NAT: it dials\n        allowedIPs: [10.30.0.11/32]\n", ""},
		edit{"a1.yaml", "allowedIPs: [10.30.0.2/32]", "allowedIPs: [10.30.0.2/32, 10.30.0.11/32]"},
		edit{"w1.yaml", "      - publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc= # a1\n        endpoint: 192.0.2.11:51820\n        allowedIPs: [10.30.0.1/32]\n        persistentKeepalive: 25\n", ""},
		edit{"w1.yaml", "allowedIPs: [10.30.0.2/32]", "allowedIPs: [10.30.0.2/32, 10.30.0.1/32]"},
	)
	if len(fs) > 0 {
		t.Errorf("w1 and a1 reach each other through a2, but:\n%s", lines(fs))
	}
}
