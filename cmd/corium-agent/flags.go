package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// newFlags is a command's flag set; the flag package's own complaints and
// -help go to stderr, so stdout carries only the command's output.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseExit is the exit code for a failed flag parse: asking for help is
// not a mistake, anything else is a usage error the flag package has
// already explained.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
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

// writeJSON writes v indented, as every --format json prints.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
