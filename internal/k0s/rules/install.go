package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// DefaultConfigPath is where k0s reads its config when --config is not
// given; a missing file there means k0s's defaults (pkg/config/cfgvars.go:233-238).
const DefaultConfigPath = "/etc/k0s/k0s.yaml"

// Invocation is a command line of an install as k0s parses it: `k0s install
// controller|worker ...`, or the `k0s controller|worker ...` the installed
// unit runs.
type Invocation struct {
	// Command is how cobra names the command: "k0s install controller".
	Command string
	// Role is "controller" or "worker".
	Role string
	// Args are the positional arguments (a join token, for `k0s controller`).
	Args []string
	p    *parsed
}

// Has says whether the flag was given.
func (inv *Invocation) Has(name string) bool {
	return inv.p.fs.Changed(name)
}

// Bool is a boolean flag's value (false when not given).
func (inv *Invocation) Bool(name string) bool {
	b, _ := inv.p.fs.GetBool(name)
	return b
}

// Value is a string flag's last value.
func (inv *Invocation) Value(name string) string {
	s, _ := inv.p.fs.GetString(name)
	return s
}

// list is a string slice or array flag's values, in order.
func (inv *Invocation) list(name string) []string {
	if f := inv.p.fs.Lookup(name); f != nil {
		if v, ok := f.Value.(pflag.SliceValue); ok {
			return slices.Clone(v.GetSlice())
		}
	}
	return nil
}

// Env is what -e/--env gave, in order: NAME=value, or a bare NAME that k0s
// fills from its own environment (cmd/install/util.go:17-31).
func (inv *Invocation) Env() []string {
	return inv.list("env")
}

// ConfigPath is the config file a controller reads: --config, else k0s's
// default. "" for a worker, which reads none.
func (inv *Invocation) ConfigPath() string {
	if inv.Role != "controller" {
		return ""
	}
	if inv.Has("config") && inv.Value("config") != "" {
		return inv.Value("config")
	}
	return DefaultConfigPath
}

// ServiceArgs is the command line k0s writes into the unit it installs
// (cmd/install/util.go:33-62, cmd/install/controller.go:68): the role, then
// every flag given, sorted by name (pflag's Visit), as --name=value, the
// brackets of a list's text trimmed, paths made absolute against cwd,
// without --env, --force and --start, which are the install's own.
func (inv *Invocation) ServiceArgs(cwd string) []string {
	out := []string{inv.Role}
	inv.p.fs.Visit(func(f *pflag.Flag) {
		val := f.Value.String()
		switch f.Value.Type() {
		case "stringSlice", "stringToString":
			out = append(out, "--"+f.Name+"="+strings.Trim(val, "[]"))
			return
		}
		switch {
		case f.Name == "env" || f.Name == "force" || f.Name == "start":
			return
		case pathFlags[f.Name] && filepath.IsAbs(val):
			val = filepath.Clean(val)
		case pathFlags[f.Name]:
			val = filepath.Join(cwd, val)
		}
		out = append(out, "--"+f.Name+"="+val)
	})
	return out
}

func (inv *Invocation) gates() gates {
	if f := inv.p.fs.Lookup("feature-gates"); f != nil {
		if g := f.Value.(*featureGates); g.set != nil {
			return gates{given: true, set: g.set}
		}
	}
	return gates{}
}

// ParseInstallArgs parses the arguments of `k0s install ...` (without the
// program name: args[0] is "install"). The error is nil or Problems: a flag
// or argument k0s refuses, or a command line that installs nothing.
func ParseInstallArgs(args []string) (*Invocation, error) {
	inv, ps := parseInstall(args)
	return inv, ps.err()
}

func parseInstall(args []string) (*Invocation, Problems) {
	if len(args) == 0 || args[0] != "install" {
		return nil, Problems{{Message: "not a k0s install command line", Source: "cmd/root.go:47"}}
	}
	rest := args[1:]
	i := findSubcommand(rest, installCmd.newFlagSet())
	var sub *command
	if i >= 0 {
		sub = installSubcommands[rest[i]]
	}
	if sub == nil {
		// `k0s install` itself: its flags are parsed, then its arguments
		// refused, and with none it prints its help (cmd/install/install.go:29-31).
		p, ps := parseFlags(installCmd, rest)
		if len(ps) > 0 {
			return nil, ps
		}
		if len(p.args) > 0 {
			return nil, Problems{{Message: unknownCommand(installCmd) + ": write controller or worker", Source: installCmd.argsSrc}}
		}
		return nil, Problems{{Message: "no controller or worker subcommand: k0s prints its help and installs nothing", Source: "cmd/install/install.go:31"}}
	}
	rest = append(slices.Clone(rest[:i]), rest[i+1:]...)
	return run(sub, rest)
}

// run parses a command's flags and checks its arguments and help flag.
func run(c *command, args []string) (*Invocation, Problems) {
	p, ps := parseFlags(c, args)
	if len(ps) > 0 {
		return nil, ps
	}
	if help, _ := p.fs.GetBool("help"); help {
		return nil, Problems{{Path: "--help", Message: "k0s prints its help and does nothing else", Source: "github.com/spf13/cobra v1.10.2 command.go (help flag)"}}
	}
	if extra, _ := p.fs.GetString("kubelet-extra-args"); extra != "" {
		if ps := kubeletNodeIP(extra); len(ps) > 0 {
			return nil, ps
		}
	}
	switch {
	case c.maxArgs == 0 && len(p.args) > 0:
		return nil, Problems{{Message: unknownCommand(c) + ": " + c.path + " takes no arguments besides its flags", Source: c.argsSrc}}
	case len(p.args) > c.maxArgs:
		return nil, Problems{{Message: fmt.Sprintf("%s accepts at most %d arg(s), received %d", c.path, c.maxArgs, len(p.args)), Source: c.argsSrc}}
	}
	return &Invocation{Command: c.path, Role: c.role, Args: p.args, p: p}, nil
}

// unknownCommand is cobra's "unknown command" without the argument, which
// cobra quotes: a positional argument may be a join token.
func unknownCommand(c *command) string {
	return fmt.Sprintf("unknown command for %q (the argument is not shown)", c.path)
}

// CheckInstallArgs is what `k0s install controller|worker` refuses in its
// arguments alone (args[0] is "install"). The error is nil or Problems.
func CheckInstallArgs(args []string) error {
	_, ps := parseInstall(args)
	return ps.err()
}

// CheckInstall is what `k0s install` refuses, its arguments and, for a
// controller, the config it reads (nil: no file at the default path, so
// k0s's defaults), checked with the feature gates the arguments set. The
// error is nil or Problems.
func CheckInstall(args []string, config []byte) error {
	inv, ps := parseInstall(args)
	if len(ps) > 0 {
		return ps
	}
	if inv.Role != "controller" {
		return nil
	}
	if inv.ConfigPath() == "-" {
		return Problems{{Path: "--config", Message: "failed to load node config: cannot read configuration from standard input when installing k0s", Source: "cmd/install/controller.go:42"}}
	}
	if config == nil {
		return nil
	}
	return checkConfig(config, inv.gates()).err()
}

// ParseRunArgs parses the command line of an installed unit: `k0s
// controller ...` or `k0s worker ...` (args[0] is the role).
func ParseRunArgs(args []string) (*Invocation, error) {
	inv, ps := parseRun(args)
	return inv, ps.err()
}

func parseRun(args []string) (*Invocation, Problems) {
	if len(args) == 0 || runCommands[args[0]] == nil {
		return nil, Problems{{Message: "not a k0s controller or worker command line", Source: "cmd/root.go:59, cmd/root_linux.go:17"}}
	}
	return run(runCommands[args[0]], args[1:])
}

// CheckStart is what `k0s controller|worker` refuses when the installed unit
// starts, before it runs anything: its flags, more than one join token
// source, unknown --disable-components, the config again (nil: k0s's
// defaults), and control plane load balancing on a single node. The error
// is nil or Problems.
func CheckStart(args []string, config []byte) error {
	inv, ps := parseRun(args)
	if len(ps) > 0 {
		return ps
	}
	c := &problems{}
	if len(inv.Args) > 0 && inv.Value("token-file") != "" {
		c.add("--token-file", "cmd/internal/tokendata.go:30",
			"you can only pass one token source: either as a CLI argument, via '--token-file [path]', or via the K0S_TOKEN environment variable")
	}
	if inv.Role == "controller" {
		for _, name := range inv.list("disable-components") {
			if !slices.Contains(availableComponents, name) && name != "worker-config" {
				c.add("--disable-components", "pkg/config/cli.go:106", "unknown component: the components are "+strings.Join(availableComponents, ", "))
			}
		}
		if config != nil {
			c.list = append(c.list, checkConfig(config, inv.gates())...)
			cplb := configNode(config).at("spec", "network", "controlPlaneLoadBalancing")
			if on, _ := cplb.flag("enabled"); on && inv.Bool("single") {
				c.add(cplb.child("enabled").path, "cmd/controller/controller.go:295", "control plane load balancing cannot be used in a single-node cluster")
			}
		}
	}
	return c.sorted().err()
}

// availableComponents are the names --disable-components takes
// (pkg/config/cli.go:268-286); worker-config is still accepted as
// deprecated (cli.go:290-292).
var availableComponents = []string{
	"applier-manager", "autopilot", "control-api", "coredns", "csr-approver",
	"endpoint-reconciler", "helm", "konnectivity-server", "kube-controller-manager",
	"kube-proxy", "kube-scheduler", "metrics-server", "network-provider",
	"node-role", "system-rbac", "update-prober", "windows-node",
}

// configNode is the decoded config, or an absent node when it does not decode.
func configNode(data []byte) node {
	root, ps := parseYAML(data)
	if len(ps) > 0 {
		return node{}
	}
	doc, ps := decodeConfig(root)
	if len(ps) > 0 {
		return node{}
	}
	return doc
}
