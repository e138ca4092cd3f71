package k0s_test

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	cliflag "k8s.io/component-base/cli/flag"
)

// felixEnv mirrors Felix's LoadConfigFromEnvironment (calico v3.32.1, the
// release of k0s's calico-node image, pkg/constant/constant.go:97;
// felix/config/env_var_loader.go:28-48): each name lower-cased, those with
// the prefix felix_ kept under the rest of the name; and config_params.go:
// 774-776, which looks each up lower-cased again. With two names for one
// parameter the environment's order decides, and the kubelet's is any: the
// values are the candidates.
func felixEnv(environ map[string]string) map[string][]string {
	out := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(environ)) {
		key := strings.ToLower(name)
		if param, ok := strings.CutPrefix(key, "felix_"); ok {
			out[param] = append(out[param], environ[name])
		}
	}
	return out
}

// sortedArgs is k0s's StringMap.ToDashedArgs (internal/pkg/stringmap/
// stringmap.go:31-37; ToArgs, 23-29, for etcd's and kine's "--"+key maps),
// with rawArgs appended.
func sortedArgs(dashes string, m map[string]string, raw []string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, dashes+k+"="+m[k])
	}
	return append(out, raw...)
}

// anyOrder are the argument lists of a map written in Go's map order: any
// entry may come last, so each is tried last once.
func anyOrder(m map[string]string, raw []string) [][]string {
	keys := slices.Sorted(maps.Keys(m))
	var out [][]string
	for i := range keys {
		order := append(slices.Delete(slices.Clone(keys), i, i+1), keys[i])
		var argv []string
		for _, k := range order {
			argv = append(argv, "--"+k+"="+m[k])
		}
		out = append(out, append(argv, raw...))
	}
	return out
}

// newFlagSet is a pflag set that reports errors; normalized, it reads `_`
// as `-` as every Kubernetes component does (k8s.io/component-base v0.36.3
// cli/run.go:89, cli/flag/flags.go:30-35; kubernetes v1.36.3
// cmd/kube-apiserver/apiserver.go:34, cmd/kube-controller-manager/
// controller-manager.go:36, cmd/kube-scheduler/scheduler.go:31,
// cmd/kube-proxy/proxy.go:31).
func newFlagSet(normalized bool) *pflag.FlagSet {
	fs := pflag.NewFlagSet("component", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if normalized {
		fs.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	}
	return fs
}

// parseK8s parses a Kubernetes component's arguments: flags with the
// defaults given (an address flag takes an IP, a port flag a port, as the
// components' own flags do), plus klog's -v and the flags the generator
// sets that move nothing. False when the component would not start.
func parseK8s(argv []string, flags map[string]string) (map[string]string, bool) {
	fs := newFlagSet(true)
	for name, def := range flags {
		switch {
		case strings.HasSuffix(name, "-port"):
			fs.Var(&portValue{def}, name, "")
		case name == "bind-address":
			fs.Var(&ipValue{def}, name, "")
		case strings.HasSuffix(name, "-bind-address"):
			fs.Var(&ipPortValue{def}, name, "")
		default:
			fs.String(name, def, "")
		}
	}
	fs.StringP("v", "v", "0", "")
	fs.String("leader-elect", "true", "")
	if err := fs.Parse(argv); err != nil {
		return nil, false
	}
	out := map[string]string{}
	for name := range flags {
		out[name] = fs.Lookup(name).Value.String()
	}
	return out, true
}

// parseGo parses arguments with Go's flag package, as etcd and kine do;
// strict refuses positional arguments, as etcd does.
func parseGo(argv, names []string, strict bool) (map[string]string, bool) {
	fs := flag.NewFlagSet("component", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	values := map[string]*string{}
	for _, n := range names {
		values[n] = fs.String(n, "", "")
	}
	if err := fs.Parse(argv); err != nil || (strict && fs.NArg() > 0) {
		return nil, false
	}
	out := map[string]string{}
	for n, v := range values {
		out[n] = *v
	}
	return out, true
}

// portValue, ipValue and ipPortValue are flags that refuse what the
// components' flags refuse.
type portValue struct{ v string }

func (p *portValue) String() string { return p.v }
func (p *portValue) Type() string   { return "int" }
func (p *portValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("not a port: %q", s)
	}
	p.v = s
	return nil
}

type ipValue struct{ v string }

func (p *ipValue) String() string { return p.v }
func (p *ipValue) Type() string   { return "ip" }
func (p *ipValue) Set(s string) error {
	if net.ParseIP(s) == nil {
		return fmt.Errorf("not an IP address: %q", s)
	}
	p.v = s
	return nil
}

type ipPortValue struct{ v string }

func (p *ipPortValue) String() string { return p.v }
func (p *ipPortValue) Type() string   { return "ipport" }
func (p *ipPortValue) Set(s string) error {
	if _, _, ok := hostPort(s); !ok && s != "" {
		return fmt.Errorf("not host:port: %q", s)
	}
	p.v = s
	return nil
}

// hostPort splits host:port, the port 1 to 65535.
func hostPort(s string) (string, int, bool) {
	host, port, err := net.SplitHostPort(s)
	n, perr := strconv.Atoi(port)
	if err != nil || perr != nil || n < 1 || n > 65535 {
		return "", 0, false
	}
	return host, n, true
}

// urlPorts are the ports of a comma-separated list of URLs whose host is
// not loopback.
func urlPorts(list string) []int {
	var out []int
	for _, s := range strings.Split(list, ",") {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || u.Host == "" {
			continue
		}
		if host, port, ok := hostPort(u.Host); ok && openAt(host) {
			out = append(out, port)
		}
	}
	return out
}

// openAt says whether a listener bound to host answers on an address
// other than loopback: every address (empty, 0.0.0.0, ::) or any but a
// loopback one.
func openAt(host string) bool {
	if host == "localhost" {
		return false
	}
	a, err := netip.ParseAddr(host)
	return err != nil || !a.IsLoopback()
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
