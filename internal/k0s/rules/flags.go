package rules

import (
	"io"

	"github.com/spf13/pflag"
)

// The flags of the commands an install runs, from the flag sets k0s builds
// them from. `k0s install controller` takes the install command's
// persistent flags and its own (cmd/install/install.go:34-43,
// cmd/install/controller.go:83-87); `k0s install worker` the same without
// the controller and config flags (cmd/install/worker.go:55-57). The
// installed unit runs `k0s controller` (cmd/controller/controller.go:155-161)
// or `k0s worker` (cmd/worker/worker.go:138-142).

type flagKind int

const (
	fBool flagKind = iota
	fString
	fInt              // pflag int: strconv.ParseInt(s, 0, 64)
	fDuration         // pflag duration: time.ParseDuration
	fPositiveDuration // pkg/config/cli.go:343-377
	fStringSlice      // pflag stringSlice: CSV, repeated flags append
	fStringArray      // pflag stringArray: each flag one value
	fLabels           // cliflag.ConfigurationMap: key=value pairs, never an error
	fLogging          // pkg/config/cli.go:140-206
	fFeatureGates     // pkg/featuregate/featuregate.go:126-163
)

type flagDef struct {
	name   string
	short  byte
	kind   flagKind
	source string
}

// pathFlags are made absolute in the unit k0s writes (cmd/install/util.go:46-52).
var pathFlags = map[string]bool{"data-dir": true, "kubelet-root-dir": true, "token-file": true, "config": true}

func flagSet(groups ...[]flagDef) map[string]flagDef {
	set := map[string]flagDef{}
	for _, g := range groups {
		for _, f := range g {
			if _, dup := set[f.name]; !dup {
				set[f.name] = f
			}
		}
	}
	return set
}

var (
	// cobra adds -h/--help to every command.
	helpFlags = []flagDef{{"help", 'h', fBool, "github.com/spf13/cobra command.go InitDefaultHelpFlag"}}

	debugFlags = []flagDef{
		{"verbose", 'v', fBool, "cmd/internal/debug.go:47"},
		{"debug", 'd', fBool, "cmd/internal/debug.go:48"},
		{"debugListenOn", 0, fString, "cmd/internal/debug.go:49"},
	}

	persistentFlags = []flagDef{
		{"data-dir", 0, fString, "pkg/config/cli.go:210"},
		{"status-socket", 0, fString, "pkg/config/cli.go:211"},
	}

	installFlags = []flagDef{
		{"force", 0, fBool, "cmd/install/install.go:41"},
		{"env", 'e', fStringArray, "cmd/install/install.go:42"},
		{"start", 0, fBool, "cmd/install/install.go:43"},
	}

	controllerFlags = []flagDef{
		{"enable-worker", 0, fBool, "pkg/config/cli.go:297"},
		{"disable-components", 0, fStringSlice, "pkg/config/cli.go:298"},
		{"single", 0, fBool, "pkg/config/cli.go:299"},
		{"no-taints", 0, fBool, "pkg/config/cli.go:300"},
		{"enable-k0s-cloud-provider", 0, fBool, "pkg/config/cli.go:301"},
		{"k0s-cloud-provider-update-frequency", 0, fDuration, "pkg/config/cli.go:302"},
		{"k0s-cloud-provider-port", 0, fInt, "pkg/config/cli.go:303"},
		{"enable-dynamic-config", 0, fBool, "pkg/config/cli.go:304"},
		{"enable-metrics-scraper", 0, fBool, "pkg/config/cli.go:305"},
		{"kube-controller-manager-extra-args", 0, fString, "pkg/config/cli.go:306"},
		{"init-only", 0, fBool, "pkg/config/cli.go:307"},
		{"feature-gates", 0, fFeatureGates, "pkg/config/cli.go:308"},
		{"api-server-stop-timeout", 0, fPositiveDuration, "pkg/config/cli.go:309"},
	}

	workerFlags = []flagDef{
		{"cidr-range", 0, fString, "pkg/config/cli.go:235"}, // hidden, deprecated, no effect
		{"kubelet-root-dir", 0, fString, "pkg/config/cli.go:253"},
		{"profile", 0, fString, "pkg/config/cli.go:254"},
		{"enable-cloud-provider", 0, fBool, "pkg/config/cli.go:255"},
		{"token-file", 0, fString, "pkg/config/cli.go:256"},
		{"logging", 'l', fLogging, "pkg/config/cli.go:257"},
		{"labels", 0, fLabels, "pkg/config/cli.go:258"},
		{"taints", 0, fStringSlice, "pkg/config/cli.go:259"},
		{"kubelet-extra-args", 0, fString, "pkg/config/cli.go:260"},
		{"iptables-mode", 0, fString, "pkg/config/cli.go:261"},
		{"ignore-pre-flight-checks", 0, fBool, "pkg/config/cli.go:262"},
		{"cri-socket", 0, fString, "pkg/config/cli.go:223"},
	}

	configFlags = []flagDef{{"config", 'c', fString, "pkg/config/cli.go:319"}}
)

// command is one k0s command of an install: its flags and how many
// positional arguments it takes.
type command struct {
	path    string // as cobra names it in errors: "k0s install controller"
	role    string
	flags   map[string]flagDef
	maxArgs int
	argsSrc string
}

var (
	installCmd = &command{
		path:    "k0s install",
		flags:   flagSet(helpFlags, debugFlags, persistentFlags, installFlags),
		argsSrc: "cmd/install/install.go:29",
	}
	installControllerCmd = &command{
		path:    "k0s install controller",
		role:    "controller",
		flags:   flagSet(helpFlags, debugFlags, persistentFlags, installFlags, controllerFlags, workerFlags, configFlags),
		argsSrc: "cmd/install/controller.go:31",
	}
	installWorkerCmd = &command{
		path:    "k0s install worker",
		role:    "worker",
		flags:   flagSet(helpFlags, debugFlags, persistentFlags, installFlags, workerFlags),
		argsSrc: "cmd/install/worker.go:24",
	}
	controllerCmd = &command{
		path:    "k0s controller",
		role:    "controller",
		flags:   flagSet(helpFlags, debugFlags, persistentFlags, controllerFlags, workerFlags, configFlags),
		maxArgs: 1,
		argsSrc: "cmd/controller/controller.go:85",
	}
	workerCmd = &command{
		path:    "k0s worker",
		role:    "worker",
		flags:   flagSet(helpFlags, debugFlags, persistentFlags, workerFlags),
		maxArgs: 1,
		argsSrc: "cmd/worker/worker.go:70",
	}
)

var installSubcommands = map[string]*command{
	"controller": installControllerCmd,
	"server":     installControllerCmd, // alias, cmd/install/controller.go:24
	"worker":     installWorkerCmd,
}

var runCommands = map[string]*command{
	"controller": controllerCmd,
	"server":     controllerCmd, // alias, cmd/controller/controller.go:74
	"worker":     workerCmd,
}

// newFlagSet is the command's flag set as k0s builds it, with pflag's types
// and k0s's own Values. Defaults are the zero values: only flags given are
// read or written into the unit. A fresh set per parse, since each Value
// holds what was given.
func (c *command) newFlagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.path, pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // deprecation notices: the package writes nothing
	for _, f := range c.flags {
		var short string
		if f.short != 0 {
			short = string(f.short)
		}
		switch f.kind {
		case fBool:
			fs.BoolP(f.name, short, false, "")
		case fString:
			fs.StringP(f.name, short, "", "")
		case fInt:
			fs.IntP(f.name, short, 0, "")
		case fDuration:
			fs.DurationP(f.name, short, 0, "")
		case fStringSlice:
			fs.StringSliceP(f.name, short, nil, "")
		case fStringArray:
			fs.StringArrayP(f.name, short, nil, "")
		case fPositiveDuration:
			fs.VarP(new(positiveDuration), f.name, short, "")
		case fLabels:
			fs.VarP(&labels{}, f.name, short, "")
		case fLogging:
			fs.VarP(&logLevels{}, f.name, short, "")
		case fFeatureGates:
			fs.VarP(&featureGates{}, f.name, short, "")
		}
	}
	return fs
}
