// Command corium-agent provisions a Corium node at first boot from its YAML
// configuration, and inspects it afterwards.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
)

// Exit codes shared by every command.
const (
	exitOK      = 0
	exitFailed  = 1 // invalid, failed, degraded
	exitUsage   = 2 // bad flags, unreadable input file
	exitNothing = 3 // unprovisioned (status)
)

// command is one subcommand; each lives in its own file and registers itself.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(name string, c command) { commands[name] = c }

// gcPercent trades memory for time: a run lasts milliseconds to seconds and
// its heap stays small, so collecting at five times the live heap rather
// than twice skips collections (and the write barriers they switch on) that
// cost ~15% of validating a 2,000-peer document. GOGC still overrides it.
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usage(stderr)
		return exitUsage
	case args[0] == "-h" || args[0] == "--help" || args[0] == "-help":
		usage(stdout)
		return exitOK
	case args[0] == "help" && (len(args) == 1 || strings.HasPrefix(args[1], "-")):
		usage(stdout)
		return exitOK
	case args[0] == "help":
		// help CMD is CMD -h.
		args = []string{args[1], "-h"}
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "corium-agent: unknown command %q; run corium-agent help\n", args[0])
		return exitUsage
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: corium-agent COMMAND [flags] ARGS\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nrun corium-agent COMMAND -h (or corium-agent help COMMAND) for a command's arguments and flags")
}
