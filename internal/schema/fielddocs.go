package schema

import (
	"fmt"

	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/secret"
)

// What the reference and the JSON Schema say beyond the types and tags:
// defaults, examples, and the SecretSource rules (its type lives in package
// secret; the rules are checked in rules_secret.go).

// fieldDefaults are the defaults as the reference states them; the values
// come from the constants ApplyDefaults uses.
var fieldDefaults = map[string]string{
	"version":                "1",
	"cluster.name":           DefaultClusterName,
	"network.podCIDR":        DefaultPodCIDR,
	"network.serviceCIDR":    DefaultServiceCIDR,
	"network.cni":            string(DefaultCNI),
	"storage.type":           "sqlite for single, etcd for every other role",
	"node.name":              "the hostname unless generic (localhost, fedora, empty), else corium- and the first 8 characters of the machine-id",
	"ha.enabled":             "false",
	"ha.interface":           "the interface whose route reaches the unicast peers (or the VIP's network)",
	"ha.virtualRouterID":     "k0s chooses",
	"firewall.clusterPorts":  string(DefaultClusterPorts),
	"SecretSource.waitFor":   "0 (one attempt)",
	"wireguard[].listenPort": "none: a node nobody dials",
}

// fieldNotes are paragraphs the reference adds under a field, after its
// doc: what an operator sees of it elsewhere (the plan's guard summary)
// and would otherwise have to work out.
var fieldNotes = map[string]string{
	"firewall.publicPorts": fmt.Sprintf("On a controller with `ha.enabled`, the guard's summary (`plan`, `firewall show`) "+
		"shows `public %[1]d/tcp %[2]d/tcp` for `publicPorts: [%[1]d]`: %[2]d/tcp is the control-plane load balancer's proxy "+
		"to the API (`spec.network.controlPlaneLoadBalancing.keepalived.userSpaceProxyBindPort`), and k0s redirects "+
		"a packet for the virtual IP's API port to it, so the guard sees VIP:%[1]d as VIP:%[2]d. The proxy follows the API's port: "+
		"public when the API's is, guarded when it is, and a port of a controller's set only with `ha.enabled`; "+
		"listing it without the API's port is refused. None runs with `virtualServers` or "+
		"`disableLoadBalancer`, and then the summary shows the API's port alone.",
		config.DefaultAPIPort, config.DefaultProxyPort),
}

// schemaDefaults are the JSON Schema "default" values (only static ones).
var schemaDefaults = map[string]any{
	"version":               1,
	"cluster.name":          DefaultClusterName,
	"network.podCIDR":       DefaultPodCIDR,
	"network.serviceCIDR":   DefaultServiceCIDR,
	"network.cni":           string(DefaultCNI),
	"ha.enabled":            false,
	"firewall.clusterPorts": string(DefaultClusterPorts),
	"SecretSource.waitFor":  "0s",
}

type extra struct {
	schema map[string]any
	rules  []string
}

const durationPattern = `^(0|([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$`

var extraRules = map[string]extra{
	"node.labels":             {map[string]any{"propertyNames": map[string]any{"not": kubeletRefusedKeys()}}, []string{"each key in the kubernetes.io or k8s.io namespace must be one the kubelet sets itself: " + kubeletAllows + " (the kubelet refuses to start with any other in --node-labels)"}},
	"SecretSource.file":       {map[string]any{"pattern": "^/"}, []string{"exactly one of file, url and credential", "an absolute path"}},
	"SecretSource.url":        {map[string]any{"pattern": "^https://[^/]"}, []string{"exactly one of file, url and credential", "https:// only, also after redirects", "not at an IP address on the node's own overlay (in the network of a wireguard address): secrets are fetched before the overlay is up"}},
	"SecretSource.authFile":   {map[string]any{"pattern": "^/"}, []string{"only with url", "an absolute path"}},
	"SecretSource.credential": {map[string]any{"pattern": secret.CredentialName.String()}, []string{"exactly one of file, url and credential", "a systemd credential name: letters, digits, '_', '.' or '-'"}},
	"SecretSource.waitFor":    {map[string]any{"pattern": durationPattern}, []string{"a Go duration from 0 to 1h"}},
}

// fieldExamples are YAML values, one for every field.
var fieldExamples = map[string]string{
	"version":                        "1",
	"role":                           "controller+worker",
	"cluster":                        "{name: prod, endpoint: 192.0.2.100}",
	"cluster.name":                   "prod",
	"cluster.endpoint":               "192.0.2.100",
	"cluster.subjectAltNames":        "[api.example.com, 198.51.100.7]",
	"network":                        "{podCIDR: 10.244.0.0/16, cni: calico}",
	"network.podCIDR":                "10.244.0.0/16",
	"network.serviceCIDR":            "10.96.0.0/12",
	"network.cni":                    "calico",
	"storage":                        "{type: etcd}",
	"storage.type":                   "kine",
	"storage.dataSourceFrom":         "{credential: corium.kine-datasource}",
	"join":                           "{tokenFrom: {credential: corium.join-token}}",
	"join.token":                     "H4sIAAAAAAAC/...",
	"join.tokenFrom":                 "{url: https://secrets.example.com/join/worker, authFile: /etc/corium/bearer, waitFor: 10m}",
	"node":                           "{name: worker-3, labels: {example.com/rack: r12}}",
	"node.name":                      "worker-3",
	"node.labels":                    "{topology.kubernetes.io/zone: site-a}",
	"node.taints":                    "[{key: dedicated, value: gpu, effect: NoSchedule}]",
	"node.taints[].key":              "dedicated",
	"node.taints[].value":            "gpu",
	"node.taints[].effect":           "NoSchedule",
	"ha":                             "{enabled: true, virtualIP: 192.0.2.100/24, authPassFrom: {credential: corium.vrrp}}",
	"ha.enabled":                     "true",
	"ha.virtualIP":                   "192.0.2.100/24",
	"ha.interface":                   "bond0.100",
	"ha.virtualRouterID":             "51",
	"ha.authPass":                    "vrrpPw1",
	"ha.authPassFrom":                "{credential: corium.vrrp-pass}",
	"ha.unicastPeers":                "[192.0.2.11, 192.0.2.12]",
	"wireguard":                      "[{name: wg0, address: 10.10.0.2/24, listenPort: 51820, nodeAddress: true, privateKeyFrom: {credential: corium.wg0}, peers: [...]}]",
	"wireguard[].name":               "wg0",
	"wireguard[].address":            "[10.10.0.2/24, fd10::2/64]",
	"wireguard[].listenPort":         "51820",
	"wireguard[].mtu":                "1420",
	"wireguard[].nodeAddress":        "true",
	"wireguard[].privateKey":         "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
	"wireguard[].privateKeyFrom":     "{file: /etc/corium/wg0.key, waitFor: 30s}",
	"wireguard[].publicKey":          "HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=",
	"wireguard[].peers":              "[{publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=, endpoint: 192.0.2.11:51820, allowedIPs: [10.10.0.1/32]}]",
	"wireguard[].peers[].publicKey":  "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
	"wireguard[].peers[].endpoint":   "192.0.2.11:51820",
	"wireguard[].peers[].allowedIPs": "[10.10.0.1/32, fd10::1/128]",
	"wireguard[].peers[].persistentKeepalive": "25",
	"wireguard[].peers[].presharedKey":        "E9J6rLMRmU6FwCzBvOnqSxBdWbrHbJBTBY7K6OhDx4M=",
	"wireguard[].peers[].presharedKeyFrom":    "{credential: corium.wg0-psk}",
	"firewall":                                "{clusterPorts: overlay, publicPorts: [6443]}",
	"firewall.clusterPorts":                   "overlay",
	"firewall.publicPorts":                    "[6443]",
	"k0s":                                     "{patch: {spec: {telemetry: {enabled: false}}}}",
	"k0s.patch":                               "{spec: {telemetry: {enabled: false}}}",
	"SecretSource.file":                       "/etc/corium/join-token",
	"SecretSource.url":                        "https://secrets.example.com/join/worker",
	"SecretSource.authFile":                   "/etc/corium/bearer",
	"SecretSource.credential":                 "corium.join-token",
	"SecretSource.waitFor":                    "5m",
}

// crossRules are the rules across fields (rules_*.go), as the reference
// states them; JSON Schema cannot express them.
var crossRules = map[string][]string{
	"network.podCIDR":                      {"must not overlap serviceCIDR or any wireguard address prefix", "the same address family as serviceCIDR; IPv6 alone installs controllers with --feature-gates=IPv6SingleStack=true", "at most 16 bits wider than the per-node range k0s hands out (/24 IPv4, /117 IPv6) unless k0s.patch sets node-cidr-mask-size"},
	"network.serviceCIDR":                  {"must not overlap podCIDR or any wireguard address prefix", "the same address family as podCIDR; an IPv6 range must be a /108 (k0s refuses longer, kube-apiserver shorter)"},
	"storage.type":                         {"sqlite serves one controller: refused with ha.enabled, and on a controller with a join token (it would start a second control plane)"},
	"storage.dataSourceFrom":               {"required with kine on a controller role, refused with any other storage.type and on a worker", "apply holds the resolved URL to kine's PostgreSQL and MySQL backends (postgres://, postgresql://, mysql://) before anything is written"},
	"join":                                 {"a worker needs token or tokenFrom; single refuses both"},
	"join.token":                           {"at most one of token and tokenFrom; not empty", "of k0s's shape: the standard base64 of a gzipped kubeconfig with a cluster that has a server and a user with credentials, as k0s token create prints it"},
	"join.tokenFrom":                       {"at most one of token and tokenFrom", "the token read is held to join.token's shape by apply, before anything is written"},
	"node.labels":                          {"a warning on a controller alone, which runs no kubelet to carry them"},
	"node.taints":                          {"no two taints with the same key and effect", "a warning on a controller alone, which runs no kubelet to carry them"},
	"ha":                                   {"any other ha setting while enabled is false is an error (it would do nothing)"},
	"ha.enabled":                           {"only on controller and controller+worker; needs virtualIP, cluster.endpoint and one of authPass and authPassFrom"},
	"ha.interface":                         {"a wireguard interface here is a warning: allowedIPs are static, so the virtual IP cannot follow a failover; it then needs unicastPeers"},
	"ha.authPass":                          {"exactly one of authPass and authPassFrom when enabled"},
	"ha.authPassFrom":                      {"exactly one of authPass and authPassFrom when enabled"},
	"ha.unicastPeers":                      {"required when interface is a wireguard interface (multicast VRRP does not cross a tunnel)", "all of one family, which the VRRP interface has an address in (keepalived's unicastSourceIP)"},
	"cluster.endpoint":                     {"required with ha.enabled", "with firewall.clusterPorts overlay on a controller role: an IP outside every wireguard address prefix is a warning (the guard admits 6443, 8132 and 9443 addressed to it, those not public, from any link); a name is an error unless 6443, 8132 and 9443 are all in firewall.publicPorts"},
	"wireguard":                            {"a joining node (worker, or a controller with a join token) with interfaces but none marked nodeAddress: warning"},
	"wireguard[].name":                     {"unique among the interfaces"},
	"wireguard[].address":                  {"each prefix must not overlap podCIDR, serviceCIDR, a dual-stack IPv6 pod or service range, or another interface's prefix", "with nodeAddress, the first is in the family of podCIDR and serviceCIDR, or with dual stack in k0s.patch the primary family's, and the list holds an address of each family (the first of the other family is the node's second address)"},
	"wireguard[].listenPort":               {"without it, at least one peer needs an endpoint, or nobody can open the tunnel"},
	"wireguard[].mtu":                      {"at least 1280 when the interface has an IPv6 address"},
	"wireguard[].nodeAddress":              {"at most one interface"},
	"wireguard[].privateKeyFrom":           {"exactly one of privateKey and privateKeyFrom"},
	"wireguard[].privateKey":               {"exactly one of privateKey and privateKeyFrom", "not the key of another interface of the node"},
	"wireguard[].publicKey":                {"with privateKey inline, the key it derives (wg pubkey); with privateKeyFrom, apply holds the resolved key to it before anything is written (the run fails naming the field and the source)", "not a secret of the document", "not the public key of another interface of the node"},
	"wireguard[].peers[].publicKey":        {"unique within the interface; not the interface's own public key (checked when privateKey is inline or publicKey is set), nor another interface's of the node (at apply also as the resolved private keys derive them)", "not a private or preshared key of the document (apply also refuses the resolved ones); the value is never printed"},
	"wireguard[].peers[].endpoint":         {"a host name is a warning: it must resolve before the overlay is up"},
	"wireguard[].peers[].allowedIPs":       {"no overlap between peers of one interface (of two that overlap the later is named, unless only the earlier has host bits set)", "not this interface's own address, nor a prefix narrower than the interface's network holding it (one as wide or wider routes the overlay through a hub)", "host bits set (10.77.0.1/24) are a warning naming the prefix wg uses (10.77.0.0/24)", "0.0.0.0/0 or ::/0 is a warning: a full tunnel takes the node's API, registry and DNS traffic"},
	"wireguard[].peers[].presharedKey":     {"at most one of presharedKey and presharedKeyFrom"},
	"wireguard[].peers[].presharedKeyFrom": {"at most one of presharedKey and presharedKeyFrom"},
	"firewall.clusterPorts":                {"overlay needs a wireguard interface marked nodeAddress", "overlay with network.cni custom is a warning: the guard cannot know a custom CNI's interfaces, so pods do not reach the guarded ports"},
	"firewall.publicPorts":                 {"each must be one of the role's k0s ports (see below); no duplicates; with clusterPorts open they do nothing (warning); calico's 4789 cannot be public (its VXLAN comes out where the guard trusts pod sources)"},
}
