package rules

import (
	"errors"
	"strings"
	"testing"
)

func argv(s string) []string { return strings.Fields(s) }

// argRules is one refusal per rule of `k0s install`'s command line: the
// arguments, the flag (or "" for the command) the problem names, and words
// the message has.
var argRules = []struct {
	name, args, path, words string
}{
	{"not install", "controller --single", "", "not a k0s install command line"},
	{"no role", "install --force", "", "installs nothing"},
	{"unknown role", "install server2", "", `unknown command for "k0s install"`},
	{"unknown flag", "install controller --bogus", "--bogus", "unknown flag"},
	{"unknown flag before the role", "install --bogus controller", "--bogus", "unknown flag"},
	{"unknown shorthand", "install controller -x", "-x", "unknown shorthand flag"},
	{"missing value", "install controller --config", "--config", "flag needs an argument"},
	{"missing shorthand value", "install worker -l", "-l", "flag needs an argument"},
	{"bad syntax", "install controller ---single", "---single", "bad flag syntax"},
	{"positional after a bool", "install controller --single true", "", `unknown command for "k0s install controller"`},
	{"worker takes no config", "install worker --config /etc/k0s/k0s.yaml", "--config", "unknown flag"},
	{"worker takes no --single", "install worker --single", "--single", "unknown flag"},
	{"worker takes no --disable-components", "install worker --disable-components=helm", "--disable-components", "unknown flag"},
	{"bool value", "install controller --enable-worker=maybe", "--enable-worker", "not a boolean"},
	{"bool value of --no-taints", "install controller --no-taints=", "--no-taints", "not a boolean"},
	{"bool value of --force", "install worker --force=yes", "--force", "not a boolean"},
	{"int value", "install controller --k0s-cloud-provider-port=http", "--k0s-cloud-provider-port", "not an integer"},
	{"duration value", "install controller --k0s-cloud-provider-update-frequency=2", "--k0s-cloud-provider-update-frequency", "not a duration"},
	{"positive duration", "install controller --api-server-stop-timeout=-1s", "--api-server-stop-timeout", "must be positive"},
	{"csv value", `install worker --taints=a"b`, "--taints", `bare " in non-quoted-field`},
	{"logging component", "install worker --logging=kube-proxy=2", "--logging", "unknown component name"},
	{"logging format", "install worker -l kubelet", "--logging", "must be of format component=level"},
	{"feature gate unknown", "install controller --feature-gates=IPv6DualStack=true", "--feature-gates", "unknown feature gate"},
	{"feature gate format", "install controller --feature-gates=IPv6SingleStack", "--feature-gates", "expected key=value"},
	{"feature gate value", "install controller --feature-gates=IPv6SingleStack=on", "--feature-gates", "expected true or false"},
	{"feature gates twice", "install controller --feature-gates=IPv6SingleStack=true --feature-gates=IPv6SingleStack=true", "--feature-gates", "feature gates already initialized"},
	{"help", "install worker --help", "--help", "prints its help"},
	{"node-ip of one family twice", "install worker --kubelet-extra-args=--node-ip=10.0.0.1,10.0.0.2", "--kubelet-extra-args", "a dual-stack pair of IPs"},
	{"node-ip of three", "install controller --kubelet-extra-args=--node-ip=10.0.0.1,fd10::1,10.0.0.2", "--kubelet-extra-args", "a dual-stack pair of IPs"},
	{"node-ip pair unspecified", "install worker --kubelet-extra-args=--node-ip=0.0.0.0,fd10::1", "--kubelet-extra-args", "cannot include '0.0.0.0' or '::'"},
}

func TestArgRules(t *testing.T) {
	for _, tc := range argRules {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckInstallArgs(argv(tc.args))
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("accepted, want a refusal naming %q", tc.words)
			}
			for _, p := range ps {
				if p.Path == tc.path && strings.Contains(p.Message, tc.words) {
					if p.Source == "" {
						t.Errorf("%v: no k0s source", p)
					}
					return
				}
			}
			t.Errorf("want a problem at %q naming %q, got:\n%v", tc.path, tc.words, err)
		})
	}
}

// TestArgsAccepted is the control: every flag of each command, in each
// spelling pflag takes.
func TestArgsAccepted(t *testing.T) {
	for _, line := range []string{
		"install controller",
		"install server -c /etc/k0s/k0s.yaml --single",
		"install --force controller --config=/etc/k0s/k0s.yaml",
		"install controller --enable-worker --no-taints --disable-components=endpoint-reconciler,helm --disable-components konnectivity-server",
		"install controller --single=false --init-only=false --enable-dynamic-config --enable-metrics-scraper --enable-k0s-cloud-provider --k0s-cloud-provider-port=0x2000 --k0s-cloud-provider-update-frequency=1m",
		"install controller --feature-gates=IPv6SingleStack=true --api-server-stop-timeout=30s --kube-controller-manager-extra-args=--v=2",
		"install controller --token-file /etc/k0s/join-token --kubelet-extra-args=--node-ip=10.0.0.1 --labels=a=1,b=2 --labels c=3 --taints=a=b:NoSchedule,c:NoExecute",
		"install worker --kubelet-extra-args=--node-ip=10.0.0.1,fd10::1",
		"install worker --kubelet-extra-args=--node-ip=fd10::1,10.0.0.1",
		"install worker --kubelet-extra-args=--node-ip=::",
		"install controller -dv --debugListenOn=:6061 --data-dir=/var/lib/k0s --status-socket=/run/k0s/status.sock -e HTTP_PROXY=http://p:3128 --env=NO_PROXY --start",
		"install worker --token-file=/etc/k0s/join-token --profile=big --iptables-mode=nft --cri-socket=remote:/run/containerd.sock --kubelet-root-dir=/var/lib/kubelet --enable-cloud-provider --ignore-pre-flight-checks",
		"install worker -l kubelet=2,etcd=debug --logging=[containerd=warn] --cidr-range=10.0.0.0/8 --labels=",
		"install worker --taints= -- ",
	} {
		if err := CheckInstallArgs(argv(line)); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

func TestServiceArgs(t *testing.T) {
	inv, err := ParseInstallArgs(argv("install controller --single --config etc/k0s.yaml --labels=b=2,a=1 --force --env=A=1 --taints=x:NoSchedule --taints=y:NoExecute --logging=kubelet=3"))
	if err != nil {
		t.Fatal(err)
	}
	want := "controller --config=/root/etc/k0s.yaml --labels=a=1,b=2 --logging=containerd=info,etcd=info,konnectivity-server=1,kube-apiserver=1,kube-controller-manager=1,kube-scheduler=1,kubelet=3 --single=true --taints=x:NoSchedule,y:NoExecute"
	if got := strings.Join(inv.ServiceArgs("/root"), " "); got != want {
		t.Errorf("service args\n got %s\nwant %s", got, want)
	}
	if inv.Role != "controller" || !inv.Bool("force") || inv.ConfigPath() != "etc/k0s.yaml" || strings.Join(inv.Env(), ",") != "A=1" {
		t.Errorf("parsed %+v", inv)
	}
	w, _ := ParseInstallArgs(argv("install worker"))
	if w.ConfigPath() != "" {
		t.Errorf("a worker reads a config: %q", w.ConfigPath())
	}
	c, _ := ParseInstallArgs(argv("install controller"))
	if c.ConfigPath() != DefaultConfigPath {
		t.Errorf("controller without --config reads %q", c.ConfigPath())
	}
}

const ipv6Only = "spec:\n  network:\n    podCIDR: fd01::/48\n    serviceCIDR: fd00::/108\n"

// TestInstallWithConfig covers the rules that need both the command line
// and the config.
func TestInstallWithConfig(t *testing.T) {
	for _, tc := range []struct {
		name, args, config, path, words string
	}{
		{"IPv6 single stack, no --feature-gates", "install controller", ipv6Only, "spec.network.podCIDR", "panics"},
		{"IPv6 single stack, gate off", "install controller --feature-gates=IPv6SingleStack=false", ipv6Only, "spec.network.podCIDR", "IPv6SingleStack must be explicitly enabled"},
		{"IPv6 single stack, gates given without it", "install controller --feature-gates=", ipv6Only, "spec.network.podCIDR", "IPv6SingleStack must be explicitly enabled"},
		{"config from stdin", "install controller --config=-", "", "--config", "cannot read configuration from standard input"},
		{"args before config", "install controller --bogus", "spec: [", "--bogus", "unknown flag"},
		{"bad config", "install controller --single", "spec:\n  network:\n    provider: weave\n", "spec.network.provider", "unsupported value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ps Problems
			if !errors.As(CheckInstall(argv(tc.args), []byte(tc.config)), &ps) {
				t.Fatalf("accepted")
			}
			for _, p := range ps {
				if p.Path == tc.path && strings.Contains(p.Message, tc.words) {
					return
				}
			}
			t.Errorf("want %q at %q, got %v", tc.words, tc.path, ps)
		})
	}
	if err := CheckInstall(argv("install controller --feature-gates=IPv6SingleStack=true"), []byte(ipv6Only)); err != nil {
		t.Errorf("IPv6 single stack with the gate: %v", err)
	}
	if err := CheckInstall(argv("install worker --token-file=/t"), []byte("not: [a config")); err != nil {
		t.Errorf("a worker reads no config: %v", err)
	}
	if err := CheckInstall(argv("install controller"), nil); err != nil {
		t.Errorf("no file at the default path: %v", err)
	}
}

// TestStartRules covers what `k0s controller|worker` refuses when the unit
// starts.
func TestStartRules(t *testing.T) {
	cplbOn := "spec:\n  network:\n    controlPlaneLoadBalancing:\n      enabled: true\n"
	for _, tc := range []struct {
		name, args, config, path, words string
	}{
		{"unknown component", "controller --disable-components=endpoint-reconciler,iptables-binaries", "", "--disable-components", "unknown component"},
		{"two token sources", "worker --token-file=/etc/k0s/join-token TOKEN", "", "--token-file", "only pass one token source"},
		{"two tokens", "controller a b", "", "", "accepts at most 1 arg(s), received 2"},
		{"install-only flag", "controller --force", "", "--force", "unknown flag"},
		{"cplb on a single node", "controller --single=true", cplbOn, "spec.network.controlPlaneLoadBalancing.enabled", "single-node cluster"},
		{"config again", "controller --config=/etc/k0s/k0s.yaml", ipv6Only, "spec.network.podCIDR", "IPv6SingleStack"},
		{"not a unit command", "install controller", "", "", "not a k0s controller or worker command line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cfg []byte
			if tc.config != "" {
				cfg = []byte(tc.config)
			}
			var ps Problems
			if !errors.As(CheckStart(argv(tc.args), cfg), &ps) {
				t.Fatalf("accepted")
			}
			for _, p := range ps {
				if p.Path == tc.path && strings.Contains(p.Message, tc.words) {
					return
				}
			}
			t.Errorf("want %q at %q, got %v", tc.words, tc.path, ps)
		})
	}
	for _, line := range []string{
		"controller --config=/etc/k0s/k0s.yaml --disable-components=endpoint-reconciler,worker-config --single=true",
		"worker --token-file=/etc/k0s/join-token --labels=a=1",
		"worker TOKEN",
		"server --enable-worker=true --no-taints=true",
	} {
		if err := CheckStart(argv(line), nil); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	if err := CheckStart(argv("controller --enable-worker"), []byte(cplbOn)); err != nil {
		t.Errorf("control plane load balancing on controller+worker: %v", err)
	}
}

// TestArgsAsPflagReads pins three places where pflag, k0s's own parser, reads
// a command line otherwise than a hand-written copy of it did (doc.go): a
// string slice of line breaks alone is refused (encoding/csv finds no
// record), a list's text in the unit loses every bracket at its ends
// (cmdFlagsToArgs' strings.Trim), and a shorthand group from "test." on is
// skipped (pflag's isGotestShorthandFlag).
func TestArgsAsPflagReads(t *testing.T) {
	var ps Problems
	if err := CheckInstallArgs([]string{"install", "worker", "--taints=\n"}); !errors.As(err, &ps) || ps[0].Path != "--taints" || !strings.Contains(ps[0].Message, "not a comma-separated list") {
		t.Errorf("--taints of a line break: %v, want a refusal at --taints", err)
	}
	inv, err := ParseInstallArgs(argv("install controller --taints=[a] --disable-components=b]"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(inv.ServiceArgs("/"), " "), "controller --disable-components=b --taints=a"; got != want {
		t.Errorf("service args\n got %s\nwant %s", got, want)
	}
	if err := CheckInstallArgs(argv("install controller -dtest.v --single")); err != nil {
		t.Errorf("a test. shorthand group: %v", err)
	}
}
