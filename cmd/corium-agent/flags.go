package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/corium/corium-agent/internal/shown"
)

// newFlags is a command's flag set, with the usage every command prints in
// one style: "usage: corium-agent CMD [flags] ARGS", what the command does
// when about says it, then the flags. synopsis is what follows [flags]
// (" FILE...", or "" for a command that takes no arguments).
func newFlags(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: corium-agent %s [flags]%s\n", name, synopsis)
		if about != "" {
			fmt.Fprintf(w, "\n%s\n", strings.Trim(about, "\n"))
		}
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(w, "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parseFlags parses a command's arguments, flags before, between or after
// the others, and returns the others; !ok means return code. Asked for
// help (-h, --help), the usage goes to stdout and the exit is 0: it is the
// output asked for. A mistake is explained on stderr with the usage, exit 2.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (rest []string, code int, ok bool) {
	stderr := fs.Output()
	var said bytes.Buffer
	fs.SetOutput(&said)
	rest, err := parseInterleaved(fs, args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		_, _ = stdout.Write(said.Bytes())
		return nil, exitOK, false
	case err != nil:
		_, _ = stderr.Write(said.Bytes())
		return nil, exitUsage, false
	}
	return rest, exitOK, true
}

// parseInterleaved lets flags stand before, between or after the other
// arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}

// usageError says what is wrong with a command's arguments, then its usage,
// on stderr: exit 2.
func usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "corium-agent %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitUsage
}

// parseNoArgs is parseFlags for a command that takes no arguments but its
// flags.
func parseNoArgs(fs *flag.FlagSet, args []string, stdout io.Writer) (code int, ok bool) {
	rest, code, ok := parseFlags(fs, args, stdout)
	switch {
	case !ok:
		return code, false
	case len(rest) > 0:
		return usageError(fs, "unexpected argument %q", rest[0]), false
	}
	return exitOK, true
}

// formatFlag is the --format flag of the commands that print text or JSON.
func formatFlag(fs *flag.FlagSet) *string {
	return fs.String("format", "text", "output format: text or json")
}

// checkFormat reports whether --format names an output the command has.
func checkFormat(stderr io.Writer, cmd, format string) bool {
	if format == "text" || format == "json" {
		return true
	}
	fmt.Fprintf(stderr, "corium-agent %s: --format %q: use text or json\n", cmd, format)
	return false
}

// checkRoot reports whether --root is a directory; a mistyped root would
// otherwise read as a node with nothing on it.
func checkRoot(stderr io.Writer, cmd, root string) bool {
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "corium-agent %s: --root %s is not a directory\n", cmd, root)
		return false
	}
	return true
}

// writeJSON writes v indented, as every --format json prints, with the
// control and format characters encoding/json leaves raw escaped: a value
// read from the host or a file (a process's comm, a link's name) reaches
// a terminal through it.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(shown.JSON(b.Bytes()))
	return err
}

// flagSet says whether the command line named the flag, even with its
// default value.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// spokenList joins words as a sentence lists them: "a", "a or b", "a, b or
// c" for conj "or".
func spokenList(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}
