package lab

// Doc is the part of the node configuration (docs/config.md) the lab
// writes: a document a test can change field by field before the node is
// provisioned, as a negative control does.
type Doc struct {
	Role      string         `yaml:"role"`
	Node      DocNode        `yaml:"node"`
	Join      *DocJoin       `yaml:"join,omitempty"`
	Network   *DocNetwork    `yaml:"network,omitempty"`
	Wireguard []DocWireguard `yaml:"wireguard"`
	Firewall  DocFirewall    `yaml:"firewall"`
	// Extra holds any other key of the block (cluster, storage, ha,
	// k0s): a scenario that needs one sets it here.
	Extra map[string]any `yaml:",inline"`
}

type DocNode struct {
	Name string `yaml:"name"`
}

type DocNetwork struct {
	PodCIDR     string `yaml:"podCIDR"`
	ServiceCIDR string `yaml:"serviceCIDR"`
}

type DocJoin struct {
	Token string `yaml:"token"`
}

type DocWireguard struct {
	Name        string    `yaml:"name"`
	Address     []string  `yaml:"address"`
	ListenPort  int       `yaml:"listenPort,omitempty"`
	NodeAddress bool      `yaml:"nodeAddress"`
	PrivateKey  string    `yaml:"privateKey"`
	Peers       []DocPeer `yaml:"peers"`
}

type DocPeer struct {
	PublicKey           string   `yaml:"publicKey"`
	Endpoint            string   `yaml:"endpoint,omitempty"`
	AllowedIPs          []string `yaml:"allowedIPs"`
	PersistentKeepalive int      `yaml:"persistentKeepalive,omitempty"`
}

type DocFirewall struct {
	ClusterPorts string `yaml:"clusterPorts"`
	PublicPorts  []int  `yaml:"publicPorts,omitempty"`
}

// Peer is the document's peer entry for the node other, found by key.
func (d *Doc) Peer(other *Node) *DocPeer {
	for i := range d.Wireguard[0].Peers {
		if d.Wireguard[0].Peers[i].PublicKey == other.pubKey {
			return &d.Wireguard[0].Peers[i]
		}
	}
	panic("lab: " + d.Node.Name + " has no peer " + other.Name)
}
