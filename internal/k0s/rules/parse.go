package rules

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Command lines are parsed as cobra v1.10.2 and pflag v1.0.10 (k0s's go.mod)
// parse them: the subcommand is the first argument that is neither a flag
// nor a flag's value, flags may come before or after it, a boolean flag
// takes no separate value (`--single true` leaves "true" as an argument),
// and each flag's value goes through its type's Set, whose error stops k0s.

const srcPflag = "github.com/spf13/pflag v1.0.10 flag.go (FlagSet.Parse)"

// The errors of the flag types' Set, whose own (strconv's, time's) quote
// the value.
var (
	errNotBool     = errors.New("not a boolean: write true or false")
	errNotInt      = errors.New("not an integer: write a decimal, 0x hexadecimal or 0o octal integer")
	errNotDuration = errors.New("not a duration: write a number with a unit, such as 30s or 5m")
)

// flagState is a flag after its Set calls.
type flagState struct {
	def     flagDef
	changed bool
	str     string
	b       bool
	i       int64
	d       time.Duration
	list    []string
	labels  map[string]string
	logging map[string]string
	gates   map[string]bool
}

type parsed struct {
	cmd   *command
	order []string // flag names in the order first given
	state map[string]*flagState
	args  []string
}

// findSubcommand is cobra's stripFlags/argsMinusFirstX: the index of the
// first argument that is not a flag or the value of one, or -1.
func findSubcommand(args []string, c *command) int {
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return -1
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "="):
			if f, ok := c.flags[s[2:]]; !ok || f.kind != fBool {
				i++ // the next argument is this flag's value
			}
		case strings.HasPrefix(s, "-") && len(s) == 2 && !strings.Contains(s, "="):
			if f, ok := c.short(s[1]); !ok || f.kind != fBool {
				i++
			}
		case !strings.HasPrefix(s, "-"):
			return i
		}
	}
	return -1
}

// parseFlags is pflag's FlagSet.Parse for command c. A malformed or unknown
// flag ends parsing, as it ends k0s; a value its type refuses is reported
// and parsing goes on, so all such values are named at once.
func parseFlags(c *command, args []string) (*parsed, Problems) {
	p := &parsed{cmd: c, state: map[string]*flagState{}}
	var ps Problems
	for i := 0; i < len(args); i++ {
		s := args[i]
		if s == "--" {
			p.args = append(p.args, args[i+1:]...)
			break
		}
		if len(s) < 2 || s[0] != '-' {
			p.args = append(p.args, s)
			continue
		}
		if s[1] == '-' {
			name, value, hasValue := strings.Cut(s[2:], "=")
			if name == "" || name[0] == '-' || name[0] == '=' {
				return p, append(ps, Problem{Path: shownFlagArg(s), Message: "bad flag syntax: write --name or --name=value", Source: srcPflag})
			}
			f, ok := c.flags[name]
			if !ok {
				return p, append(ps, Problem{Path: "--" + shownFlagName(name), Message: "unknown flag: " + c.path + " does not take it", Source: srcPflag})
			}
			switch {
			case hasValue:
			case f.kind == fBool:
				value = "true"
			case i+1 < len(args):
				i++
				value = args[i]
			default:
				return p, append(ps, Problem{Path: "--" + name, Message: "flag needs an argument: write --" + name + "=VALUE", Source: srcPflag})
			}
			ps = append(ps, p.set(f, value)...)
			continue
		}
		shorts := s[1:]
		for len(shorts) > 0 {
			ch := shorts[0]
			f, ok := c.short(ch)
			if !ok {
				// pflag's message quotes the rest of the argument, which
				// may be a value glued on.
				return p, append(ps, Problem{Path: "-" + shownShorthand(ch), Message: "unknown shorthand flag: " + c.path + " does not take it", Source: srcPflag})
			}
			var value string
			switch {
			case len(shorts) > 2 && shorts[1] == '=':
				value, shorts = shorts[2:], ""
			case f.kind == fBool:
				value, shorts = "true", shorts[1:]
			case len(shorts) > 1:
				value, shorts = shorts[1:], ""
			case i+1 < len(args):
				i++
				value, shorts = args[i], ""
			default:
				return p, append(ps, Problem{Path: "-" + string(ch), Message: "flag needs an argument: write -" + string(ch) + " VALUE", Source: srcPflag})
			}
			ps = append(ps, p.set(f, value)...)
		}
	}
	return p, ps
}

// set is the flag type's Set, with pflag's wording for a refused value,
// less the value pflag quotes: apply's errors never carry it either.
func (p *parsed) set(f flagDef, value string) Problems {
	st, ok := p.state[f.name]
	if !ok {
		st = &flagState{def: f}
		p.state[f.name] = st
		p.order = append(p.order, f.name)
	}
	first := !st.changed
	st.changed = true
	if err := st.apply(value, first); err != nil {
		return Problems{{Path: "--" + f.name, Message: "invalid argument: " + err.Error(), Source: f.source}}
	}
	return nil
}

func (st *flagState) apply(v string, first bool) error {
	switch st.def.kind {
	case fBool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errNotBool
		}
		st.b = b
	case fString:
		st.str = v
	case fInt:
		i, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return errNotInt
		}
		st.i = i
	case fDuration:
		d, err := time.ParseDuration(v)
		if err != nil {
			return errNotDuration
		}
		st.d = d
	case fPositiveDuration:
		// pkg/config/cli.go:360-376
		if v == "" {
			st.d = 0
			return nil
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			return errNotDuration
		}
		if d <= 0 {
			return errors.New("must be positive: write a duration such as 30s")
		}
		st.d = d
	case fStringSlice:
		vals, err := readAsCSV(v)
		if err != nil {
			// encoding/csv's message gives a line, a column and the
			// rule broken, never the text.
			return fmt.Errorf("not a comma-separated list (%w): quote a value that holds a comma or a quote", err)
		}
		if first {
			st.list = vals
		} else {
			st.list = append(st.list, vals...)
		}
	case fStringArray:
		st.list = append(st.list, v)
	case fLabels:
		// k8s.io/component-base/cli/flag ConfigurationMap.Set
		if st.labels == nil {
			st.labels = map[string]string{}
		}
		for _, s := range strings.Split(v, ",") {
			if s == "" {
				continue
			}
			k, val, _ := strings.Cut(s, "=")
			st.labels[strings.TrimSpace(k)] = strings.TrimSpace(val)
		}
	case fLogging:
		levels, err := parseLogLevels(v)
		if err != nil {
			return err
		}
		st.logging = levels
	case fFeatureGates:
		// featuregate.go:127-129: the gates are a process-wide
		// singleton, set once.
		if st.gates != nil {
			return errors.New("feature gates already initialized")
		}
		g, err := parseGates(v)
		if err != nil {
			return fmt.Errorf("failed to set default feature gates: %w", err)
		}
		st.gates = g
	}
	return nil
}

// readAsCSV is pflag's stringSlice parsing.
func readAsCSV(v string) ([]string, error) {
	if v == "" {
		return []string{}, nil
	}
	rec, err := csv.NewReader(strings.NewReader(v)).Read()
	if errors.Is(err, io.EOF) {
		return []string{}, nil
	}
	return rec, err
}

func writeAsCSV(vals []string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(vals)
	w.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

func logComponentNames() string {
	names := make([]string, len(logComponents))
	for i, c := range logComponents {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// logComponents are --logging's component names (pkg/config/cli.go:164-181)
// with their defaults (cli.go:128-138).
var logComponents = []struct{ name, def string }{
	{"containerd", "info"}, {"etcd", "info"}, {"konnectivity-server", "1"},
	{"kube-apiserver", "1"}, {"kube-controller-manager", "1"}, {"kube-scheduler", "1"}, {"kubelet", "1"},
}

// parseLogLevels is logLevelsFlag.Set (pkg/config/cli.go:146-186): each
// --logging starts again from the defaults.
func parseLogLevels(val string) (map[string]string, error) {
	val = strings.TrimSuffix(strings.TrimPrefix(val, "["), "]")
	levels := map[string]string{}
	for _, c := range logComponents {
		levels[c.name] = c.def
	}
	for val != "" {
		pair, rest, _ := strings.Cut(val, ",")
		val = rest
		k, v, ok := strings.Cut(pair, "=")
		if k == "" {
			return nil, errors.New("component name cannot be empty: write component=level")
		}
		if !ok {
			return nil, errors.New("must be of format component=level")
		}
		if _, known := levels[k]; !known {
			return nil, errors.New("unknown component name: the components are " + logComponentNames())
		}
		levels[k] = v
	}
	return levels, nil
}

// text is the flag's Value.String() as cmdFlagsToArgs writes it into the
// unit (cmd/install/util.go:37-55), brackets trimmed for slices.
func (st *flagState) text() string {
	switch st.def.kind {
	case fBool:
		return strconv.FormatBool(st.b)
	case fInt:
		return strconv.FormatInt(st.i, 10)
	case fDuration:
		return st.d.String()
	case fPositiveDuration:
		if st.d <= 0 {
			return ""
		}
		return st.d.String()
	case fStringSlice, fStringArray:
		return writeAsCSV(st.list)
	case fLabels:
		pairs := make([]string, 0, len(st.labels))
		for k, v := range st.labels {
			pairs = append(pairs, k+"="+v)
		}
		sort.Strings(pairs)
		return strings.Join(pairs, ",")
	case fLogging:
		parts := make([]string, len(logComponents))
		for i, c := range logComponents {
			parts[i] = c.name + "=" + st.logging[c.name]
		}
		return strings.Join(parts, ",")
	case fFeatureGates:
		names := make([]string, 0, len(st.gates))
		for n := range st.gates {
			names = append(names, n)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + "=" + strconv.FormatBool(st.gates[n])
		}
		return strings.Join(parts, ",")
	}
	return st.str
}
