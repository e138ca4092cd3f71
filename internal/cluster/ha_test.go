package cluster_test

const (
	c2File = "c2-user-data.yaml"
	c3File = "c3-user-data.yaml"
)

// c3HA is the ha block of site A's controllers, as an operator copies it
// onto the controller at site B.
const c3HA = "  name: c3\nha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  interface: eth0\n  virtualRouterID: 52\n  authPassFrom: {credential: corium.vrrp}\n  unicastPeers: [192.0.2.11, 192.0.2.12]\n"

// haMistakes are the mistakes of HA across the controllers, each an edit of
// the five-node set (two sites, unicast VRRP at site A).
var haMistakes = []struct {
	name         string
	edits        []edit
	want         want
	invalidAlone bool
}{
	{"a virtual IP on no network the set states", []edit{
		{"c1.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 192.0.3.100/24"},
		{"c2.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 192.0.3.100/24"},
		{"c1.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.3.100"},
		{"c2.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.3.100"},
		{"c3.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.3.100"},
	}, want{"c1.yaml", "ha.virtualIP", warnSev, "192.0.3.100/24 is on no network the set states"}, false},
	{"a controller at another site taking part in VRRP", []edit{
		{"c3.yaml", "  name: c3\n", c3HA},
	}, want{c3File, "ha.enabled", warnSev, "the set shows this controller only outside 192.0.2.0/24 (198.51.100.13, where c1.yaml dials it"}, false},
	{"unicast lists that disagree", []edit{
		{"c2.yaml", "unicastPeers: [192.0.2.11]", "unicastPeers: [192.0.2.13]"},
	}, want{c2File, "ha.unicastPeers", errorSev, "lacks 192.0.2.11, the address of c1.yaml"}, false},
	{"a unicast list naming a controller without ha", []edit{
		{"c1.yaml", "unicastPeers: [192.0.2.11, 192.0.2.12]", "unicastPeers: [192.0.2.11, 192.0.2.12, 198.51.100.13]"},
	}, want{"c1.yaml", "ha.unicastPeers[2]", errorSev, "198.51.100.13 is the address of c3-user-data.yaml, a controller without an ha block"}, false},
	{"overlay unicast peers while VRRP runs on the underlay", []edit{
		{"c1.yaml", "unicastPeers: [192.0.2.11, 192.0.2.12]", "unicastPeers: [10.40.0.1, 10.40.0.2]"},
		{"c2.yaml", "unicastPeers: [192.0.2.11]", "unicastPeers: [10.40.0.1]"},
	}, want{"c1.yaml", "ha.unicastPeers[1]", errorSev, "10.40.0.2 is an overlay address, but VRRP runs on eth0, an underlay interface"}, false},
	{"the virtual IP is a controller's own address", []edit{
		{"c1.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 192.0.2.11/24"},
		{"c2.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 192.0.2.11/24"},
		{"c1.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.2.11"},
		{"c2.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.2.11"},
		{"c3.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.2.11"},
	}, want{"c1.yaml", "ha.virtualIP", errorSev, "192.0.2.11 is the address of c1.yaml, where c2-user-data.yaml dials it"}, false},
	{"the virtual IP is a node's overlay address", []edit{
		{"c1.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 10.40.0.12/24"},
		{"c2.yaml", "virtualIP: 192.0.2.100/24", "virtualIP: 10.40.0.12/24"},
	}, want{"c1.yaml", "ha.virtualIP", errorSev, "10.40.0.12 is the address of w2 (w2-cmdline.txt wireguard[0])"}, false},
	{"a peer dialled at the virtual IP", []edit{
		{"w1.yaml", "endpoint: 192.0.2.11:51820", "endpoint: 192.0.2.100:51820"},
	}, want{"w1.yaml", "wireguard[0].peers[0].endpoint", errorSev, "dials c1.yaml at the virtual IP 192.0.2.100"}, false},
	{"ha on one controller of a site and not the other", []edit{
		{"c2.yaml", "ha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  interface: eth0\n  virtualRouterID: 52\n  authPassFrom: {credential: corium.vrrp}\n  unicastPeers: [192.0.2.11]\n", ""},
	}, want{c2File, "ha", errorSev, "is missing on this controller, which is on the virtual IP's network 192.0.2.0/24 (192.0.2.12, where c1.yaml dials it)"}, false},
	{"a unicast list on one controller only", []edit{
		{"c2.yaml", "  unicastPeers: [192.0.2.11]\n", ""},
	}, want{c2File, "ha.unicastPeers", errorSev, "is unset, but c1.yaml sends its VRRP adverts unicast"}, false},
	{"cluster.endpoint on some controllers only", []edit{
		{"c3.yaml", "  endpoint: 192.0.2.100\n", ""},
	}, want{c3File, "cluster.endpoint", errorSev, "is unset on this controller, but c1.yaml sets it"}, false},
	{"cluster.endpoint that is not the virtual IP", []edit{
		{"c1.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.2.11"},
		{"c2.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.2.11"},
		{"c3.yaml", "endpoint: 192.0.2.100", "endpoint: 192.0.2.11"},
	}, want{c2File, "cluster.endpoint", warnSev, "is 192.0.2.11, the address of c1.yaml, not the virtual IP 192.0.2.100"}, false},
	{"an even number of etcd members", []edit{
		{"w1.yaml", "role: worker", "role: controller"},
	}, want{"w1.yaml", "role", warnSev, "makes 4 etcd members (c1.yaml, c2-user-data.yaml, c3-user-data.yaml, w1.yaml): 4 tolerate 1 failed, as 3 do"}, false},
}
