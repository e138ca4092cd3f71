package config

import (
	"fmt"
	"math"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// ReadNetwork reads the network facts from an effective ClusterConfig,
// taking k0s's default where a field is unset. A field whose value the
// agent cannot read, or that the agent cannot guard, is a finding at its
// ClusterConfig path, dotted, whose message never holds the value found
// there; its fact keeps the default, so every problem is reported in one
// pass.
func ReadNetwork(doc map[string]any) (Network, []finding.Finding) {
	r := &reader{doc: doc}
	api := specPath.Field("api")
	n := Network{
		// pkg/apis/k0s/v1beta1/network.go:72-83 DefaultNetwork.
		Provider:    r.str(networkPath.Field("provider"), ProviderKubeRouter),
		PodCIDR:     r.str(networkPath.Field("podCIDR"), "10.244.0.0/16"),
		ServiceCIDR: r.str(networkPath.Field("serviceCIDR"), "10.96.0.0/12"),
		// pkg/apis/k0s/v1beta1/dualstack.go DefaultDualStack: off.
		DualStack:       r.boolean(networkPath.Field("dualStack").Field("enabled"), false),
		IPv6PodCIDR:     r.str(networkPath.Field("dualStack").Field("IPv6podCIDR"), ""),
		IPv6ServiceCIDR: r.str(networkPath.Field("dualStack").Field("IPv6serviceCIDR"), ""),
		// network.go:55-59: unset, k0s derives it from the API addresses.
		PrimaryAddressFamily: r.str(networkPath.Field("primaryAddressFamily"), ""),
		// pkg/apis/k0s/v1beta1/storage.go DefaultStorageSpec: etcd.
		Storage: r.str(specPath.Field("storage").Field("type"), "etcd"),
		// pkg/apis/k0s/v1beta1/api.go setDefaults: 6443 and 9443;
		// konnectivity.go:33-37 DefaultKonnectivitySpec: 8132.
		APIPort:          r.port(api.Field("port"), DefaultAPIPort),
		JoinAPIPort:      r.port(api.Field("k0sApiPort"), DefaultJoinAPIPort),
		KonnectivityPort: r.port(specPath.Field("konnectivity").Field("agentPort"), DefaultKonnectivityPort),
	}
	n.ProxyPort = r.cplbProxy()
	// pkg/apis/k0s/v1beta1/nllb.go:20-25: off unless enabled.
	n.NLLB = r.boolean(networkPath.Field("nodeLocalLoadBalancing").Field("enabled"), false)
	switch n.Provider {
	case ProviderCalico:
		n.Calico = r.calico()
	case ProviderKubeRouter:
		n.KubeRouter = r.kubeRouter()
	case ProviderCustom:
	default:
		r.problem(networkPath.Field("provider"), "is not kuberouter, calico or custom, the providers k0s knows")
	}
	n.KubeProxy = r.kubeProxy()
	n.fields = r.fields
	return n, r.problems
}

// cplbProxy is the port of the userspace reverse proxy k0s's control-plane
// load balancer runs on every address, in front of the API servers: only
// with keepalived VRRP instances, no virtual servers (IPVS instead) and the
// load balancer not disabled (pkg/component/controller/cplb/cplb_linux.go:
// 101-106 and 159-184, startReverseProxy at 400-409), on
// userSpaceProxyBindPort, 6444 by default (pkg/apis/k0s/v1beta1/cplb.go:
// 60-62, 346-350). k0s also redirects the virtual IP's API port to it with
// iptables, so a client's packet for VIP:6443 reaches the input hook for
// this port.
func (r *reader) cplbProxy() int {
	cplb := networkPath.Field("controlPlaneLoadBalancing")
	keepalived := cplb.Field("keepalived")
	port := r.port(keepalived.Field("userSpaceProxyBindPort"), DefaultProxyPort)
	if !r.boolean(cplb.Field("enabled"), false) || r.str(cplb.Field("type"), "Keepalived") != "Keepalived" {
		return 0
	}
	if r.boolean(keepalived.Field("disableLoadBalancer"), false) ||
		r.length(keepalived.Field("virtualServers")) > 0 ||
		r.length(keepalived.Field("vrrpInstances")) == 0 {
		return 0
	}
	return port
}

// calico reads spec.network.calico with DefaultCalico's values
// (pkg/apis/k0s/v1beta1/calico.go:68-77).
func (r *reader) calico() Calico {
	calico := networkPath.Field("calico")
	c := Calico{
		Mode:      r.str(calico.Field("mode"), "vxlan"),
		VXLANPort: r.port(calico.Field("vxlanPort"), DefaultCalicoVXLANPort),
		WireGuard: r.boolean(calico.Field("wireguard"), false),
	}
	switch c.Mode {
	case "vxlan", "ipip", "bird":
	default:
		r.problem(calico.Field("mode"), "is not vxlan, ipip or bird, the modes k0s knows")
	}
	if c.WireGuard {
		// Felix's own WireGuard (wireguard.cali on 51820/udp, keys of its
		// own) would carry other nodes' pods on a device the guard does not
		// know, beside the overlay that already encrypts node to node.
		r.problem(calico.Field("wireguard"), "turns on calico's own WireGuard, whose device and port the guard does not follow; the node's overlay already encrypts between nodes: leave it off")
	}
	return c
}

// kubeRouter reads kube-router's flags as k0s builds them: its own fields,
// then extraArgs over them, then rawArgs appended, where the last flag wins.
// The flag defaults are kube-router v2.10.0's (pkg/options/options.go).
func (r *reader) kubeRouter() KubeRouter {
	kr := networkPath.Field("kuberouter")
	flags := map[string]string{
		"metrics-port":       strconv.Itoa(r.port(kr.Field("metricsPort"), 8080)), // kuberouter.go:84-91 DefaultKubeRouter
		"enable-overlay":     "true",
		"overlay-encap":      "ipip",
		"overlay-encap-port": "5555",
		"bgp-port":           strconv.Itoa(BGPPort),
		// kube-router v2.10.0 pkg/options/options.go:14, 179-181: health on
		// every address unless --health-addr says otherwise.
		"health-port": strconv.Itoa(DefaultKubeRouterHealthPort),
	}
	for name, v := range r.strMap(kr.Field("extraArgs")) {
		if _, ok := flags[name]; ok {
			flags[name] = v
		}
	}
	for name, v := range r.rawFlags(kr.Field("rawArgs")) {
		if _, ok := flags[name]; ok {
			flags[name] = v
		}
	}
	from := func(flag string) finding.Path { return kr.Field("extraArgs").Field(flag) }
	k := KubeRouter{
		Overlay:     r.flagBool(from("enable-overlay"), flags["enable-overlay"]),
		Encap:       flags["overlay-encap"],
		EncapPort:   r.flagPort(from("overlay-encap-port"), flags["overlay-encap-port"], false),
		BGPPort:     r.flagPort(from("bgp-port"), flags["bgp-port"], false),
		MetricsPort: r.flagPort(from("metrics-port"), flags["metrics-port"], true),
		HealthPort:  r.flagPort(from("health-port"), flags["health-port"], true),
	}
	if k.Encap != "ipip" && k.Encap != "fou" {
		r.problem(from("overlay-encap"), "is not ipip or fou, the encapsulations kube-router knows")
	}
	return k
}

// kubeProxy reads spec.network.kubeProxy with DefaultKubeProxy's bind
// addresses (pkg/apis/k0s/v1beta1/kubeproxy.go:98-104: 0.0.0.0:10249 and
// 0.0.0.0:10256, every address of the node).
func (r *reader) kubeProxy() *KubeProxy {
	kp := networkPath.Field("kubeProxy")
	if r.boolean(kp.Field("disabled"), false) {
		return nil
	}
	return &KubeProxy{
		MetricsPort: r.bindPort(kp.Field("metricsBindAddress"), "0.0.0.0:10249"),
		HealthzPort: r.bindPort(kp.Field("healthzBindAddress"), "0.0.0.0:10256"),
	}
}

// specPath and networkPath are where the ClusterConfig's facts are read
// from; each field's path is built from them.
var (
	specPath    = finding.Path("spec")
	networkPath = specPath.Field("network")
)

// reader walks a ClusterConfig map, recording each path it reads.
type reader struct {
	doc      map[string]any
	fields   []string
	problems []finding.Finding
}

func (r *reader) problem(path finding.Path, format string, args ...any) {
	r.problems = append(r.problems, finding.Finding{Path: path.String(), Message: fmt.Sprintf(format, args...)})
}

// get is the value at a dotted path, and whether it is set (null is unset,
// as k0s's JSON decoding takes it).
func (r *reader) get(path finding.Path) (any, bool) {
	r.fields = append(r.fields, path.String())
	var cur any = r.doc
	for _, seg := range strings.Split(path.String(), ".") {
		m, ok := asMap(cur)
		if !ok {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

func (r *reader) str(path finding.Path, def string) string {
	v, ok := r.get(path)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		r.problem(path, "must be a string")
		return def
	}
	return s
}

func (r *reader) boolean(path finding.Path, def bool) bool {
	v, ok := r.get(path)
	if !ok {
		return def
	}
	b, isBool := v.(bool)
	if !isBool {
		r.problem(path, "must be true or false")
		return def
	}
	return b
}

// port is an integer field holding a port; 0 or unset takes the default, as
// k0s's defaulting does.
func (r *reader) port(path finding.Path, def int) int {
	v, ok := r.get(path)
	if !ok {
		return def
	}
	n, isInt := integer(v)
	switch {
	case !isInt:
		r.problem(path, "must be an integer port")
		return def
	case n == 0:
		return def
	case n < 1 || n > 65535:
		r.problem(path, "must be a port, 1 to 65535")
		return def
	}
	return int(n)
}

func (r *reader) length(path finding.Path) int {
	v, ok := r.get(path)
	if !ok {
		return 0
	}
	if l, isList := v.([]any); isList {
		return len(l)
	}
	return 0
}

// strMap is a map of strings (extraArgs); other values are package rules' to refuse.
func (r *reader) strMap(path finding.Path) map[string]string {
	v, ok := r.get(path)
	m, isMap := asMap(v)
	if !ok || !isMap {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, isStr := v.(string); isStr {
			out[k] = s
		}
	}
	return out
}

// rawFlags are the --name=value and --name value flags of a rawArgs list.
func (r *reader) rawFlags(path finding.Path) map[string]string {
	v, ok := r.get(path)
	list, isList := v.([]any)
	if !ok || !isList {
		return nil
	}
	out := map[string]string{}
	for i := 0; i < len(list); i++ {
		s, _ := list[i].(string)
		name, ok := strings.CutPrefix(s, "--")
		if !ok {
			if name, ok = strings.CutPrefix(s, "-"); !ok {
				continue
			}
		}
		if n, val, hasValue := strings.Cut(name, "="); hasValue {
			out[n] = val
			continue
		}
		if i+1 < len(list) {
			if next, _ := list[i+1].(string); !strings.HasPrefix(next, "-") {
				out[name] = next
				i++
				continue
			}
		}
		out[name] = "true" // a boolean flag given alone
	}
	return out
}

func (r *reader) flagBool(path finding.Path, v string) bool {
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.problem(path, "must be true or false")
		return true
	}
	return b
}

// flagPort is a port flag's value; 0 is allowed where it switches the
// listener off.
func (r *reader) flagPort(path finding.Path, v string, zeroOff bool) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 65535 || (n == 0 && !zeroOff) {
		r.problem(path, "must be a port, 1 to 65535")
		return 0
	}
	return n
}

// bindPort is the port of a host:port bind address, 0 when the host is a
// loopback address (nothing to guard) or the address is unset and so is the
// default's.
func (r *reader) bindPort(path finding.Path, def string) int {
	s := r.str(path, def)
	if s == "" {
		s = def
	}
	host, port, err := net.SplitHostPort(s)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n < 1 || n > 65535 {
		r.problem(path, "must be host:port with a port of 1 to 65535")
		return 0
	}
	if a, err := netip.ParseAddr(host); (err == nil && a.IsLoopback()) || host == "localhost" {
		return 0
	}
	return n
}

// integer is a YAML or JSON number that is a whole number.
func integer(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		if n <= math.MaxInt64 {
			return int64(n), true
		}
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int64(n), true
		}
	}
	return 0, false
}
