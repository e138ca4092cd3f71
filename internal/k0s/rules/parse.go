package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/corium/corium-agent/internal/finding"
)

// Command lines are parsed by pflag v1.0.10, the library and release k0s
// parses its own with (k0s's go.mod), on a flag set built as k0s builds it
// (flags.go); the subcommand is found as cobra v1.10.2 finds it: the first
// argument that is neither a flag nor a flag's value, flags before or after
// it. What is k0s's own here is only what pflag does not say: the wording of
// a problem, which never quotes a value.

const srcPflag = "github.com/spf13/pflag v1.0.10 flag.go (FlagSet.Parse)"

// The errors of the flag types' Set, whose own (strconv's, time's) quote
// the value.
var (
	errNotBool     = errors.New("not a boolean: write true or false")
	errNotInt      = errors.New("not an integer: write a decimal, 0x hexadecimal or 0o octal integer")
	errNotDuration = errors.New("not a duration: write a number with a unit, such as 30s or 5m")
)

type parsed struct {
	cmd  *command
	fs   *pflag.FlagSet
	args []string
}

// findSubcommand is cobra's stripFlags/argsMinusFirstX: the index of the
// first argument that is not a flag or the value of one, or -1. A flag
// takes the next argument as its value unless it has pflag's NoOptDefVal
// (a boolean), as cobra's hasNoOptDefVal says; an unknown one takes it too.
func findSubcommand(args []string, fs *pflag.FlagSet) int {
	takesValue := func(f *pflag.Flag) bool { return f == nil || f.NoOptDefVal == "" }
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return -1
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "="):
			if takesValue(fs.Lookup(s[2:])) {
				i++ // the next argument is this flag's value
			}
		case strings.HasPrefix(s, "-") && len(s) == 2 && !strings.Contains(s, "="):
			if takesValue(fs.ShorthandLookup(s[1:])) {
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
	fs := c.newFlagSet()
	var ps Problems
	err := fs.ParseAll(args, func(f *pflag.Flag, value string) error {
		if err := fs.Set(f.Name, value); err != nil {
			ps = append(ps, c.refusedValue(f.Name, err))
		}
		return nil
	})
	p := &parsed{cmd: c, fs: fs, args: fs.Args()}
	if err != nil {
		ps = append(ps, c.refusedSyntax(err))
	}
	return p, ps
}

// refusedSyntax is the problem for what ends pflag's parse, by its error's
// type: pflag's text quotes the argument, which may be a value glued on.
func (c *command) refusedSyntax(err error) finding.Finding {
	var (
		syntax  *pflag.InvalidSyntaxError
		unknown *pflag.NotExistError
		noValue *pflag.ValueRequiredError
	)
	p := finding.Finding{Source: srcPflag}
	switch {
	case errors.As(err, &syntax):
		p.Path, p.Message = shownFlagArg(syntax.GetSpecifiedFlag()), "bad flag syntax: write --name or --name=value"
	case errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() != "":
		p.Path, p.Message = "-"+shownShorthand(unknown.GetSpecifiedName()[0]), "unknown shorthand flag: "+c.path+" does not take it"
	case errors.As(err, &unknown):
		p.Path, p.Message = "--"+shownFlagName(unknown.GetSpecifiedName()), "unknown flag: "+c.path+" does not take it"
	case errors.As(err, &noValue) && noValue.GetSpecifiedShortnames() != "":
		name := noValue.GetSpecifiedName()
		p.Path, p.Message = "-"+name, "flag needs an argument: write -"+name+" VALUE"
	case errors.As(err, &noValue):
		name := noValue.GetSpecifiedName()
		p.Path, p.Message = "--"+name, "flag needs an argument: write --"+name+"=VALUE"
	default:
		// pflag.ErrHelp, which cannot come: every command defines --help.
		p.Message = "k0s refuses its flags: " + c.path + " prints its help"
	}
	return p
}

// refusedValue is a value the flag's type refused, with pflag's wording,
// less the value pflag quotes: apply's errors never carry it either.
func (c *command) refusedValue(name string, err error) finding.Finding {
	def := c.flags[name]
	cause := errors.Unwrap(err) // pflag's InvalidValueError holds Set's error
	switch def.kind {
	case fBool:
		cause = errNotBool
	case fInt:
		cause = errNotInt
	case fDuration:
		cause = errNotDuration
	case fStringSlice:
		// encoding/csv's message gives a line, a column and the rule
		// broken, never the text.
		cause = fmt.Errorf("not a comma-separated list (%w): quote a value that holds a comma or a quote", cause)
	}
	return finding.Finding{Path: "--" + name, Message: "invalid argument: " + cause.Error(), Source: def.source}
}
