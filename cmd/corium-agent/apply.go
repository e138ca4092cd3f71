package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/secret/resolve"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/systemd/notify"
)

func init() {
	register("apply", command{summary: "provision this node once (first boot); --again converges a provisioned node", run: runApply})
}

// nodeFlags are the flags apply and plan share.
type nodeFlags struct {
	root, config, facts *string
}

func addNodeFlags(fs *flag.FlagSet) nodeFlags {
	return nodeFlags{
		root:   fs.String("root", "/", "the tree standing in for / (live actions only happen with /)"),
		config: fs.String("config", "", "read this `file` instead of running the source chain"),
		facts:  fs.String("facts", "", "the host's network as JSON (`file`), for a root other than /; corium-agent facts prints it on the node"),
	}
}

func runApply(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("apply", "", "Provisions this node once, as corium-agent.service does at first boot: the source\nchain (or --config), validation, secrets, WireGuard, k0s and the guard. It prints\nwhat it wrote on stdout and its log on stderr.", stderr)
	nf := addNodeFlags(fs)
	again := fs.Bool("again", false, "on a provisioned node: converge peers, endpoints, keepalives, MTUs and publicPorts")
	if code, ok := parseNoArgs(fs, args, stdout); !ok {
		return code
	}
	if !checkRoot(stderr, "apply", *nf.root) || refusesTopology(stderr, "apply", *nf.config) {
		return exitUsage
	}
	root := rootfs.New(*nf.root)
	log := newLogger(stderr)
	o := bootstrap.Options{
		Root:       root,
		ConfigFile: *nf.config,
		FactsFile:  *nf.facts,
		Again:      *again,
		Resolver:   resolve.NewResolver(root, resolve.WithLogger(log)),
		Log:        log,
		Notify:     func(line string) { _, _ = notify.Status(line) },
	}
	if root.IsHost() {
		closeLive, err := wireLiveHost(ctx, root, &o)
		if err != nil {
			// Still a run: it leaves its status like any other.
			now := time.Now().UTC()
			st := &status.Status{Command: "apply", Root: root.Dir(), StartedAt: now, FinishedAt: now, Outcome: status.Failed, Error: err.Error()}
			if werr := store.Write(root, st); werr != nil {
				log.Error("writing the status file", "error", werr.Error())
			}
			fmt.Fprintf(stderr, "corium-agent apply: %v\n", err)
			return exitFailed
		}
		defer closeLive()
	}

	st, runErr := bootstrap.Run(ctx, o)
	if err := store.Write(root, st); err != nil {
		log.Error("writing the status file", "error", err.Error())
		if runErr == nil {
			runErr = err
		}
	}
	printRun(stdout, st)
	if _, err := notify.Finished(summary(st)); err != nil {
		log.Warn("the service manager's status line was not updated", "error", err.Error())
	}
	if runErr != nil {
		fmt.Fprintf(stderr, "corium-agent apply: %v\n", runErr)
		return exitFailed
	}
	return exitOK
}

// newLogger logs as text to stderr. Under systemd the journal stamps each
// line itself, so the time is left out.
func newLogger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{}
	if os.Getenv("JOURNAL_STREAM") != "" {
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func summary(st *status.Status) string {
	switch st.Outcome {
	case status.NothingToDo:
		return "nothing to do: the node is already provisioned (apply --again converges it)"
	case status.Unconfigured:
		return "unconfigured: no source holds a corium block; the node is left as it is"
	}
	if st.Error != "" {
		return string(st.Outcome) + ": " + st.Error
	}
	return string(st.Outcome)
}

// printRun writes the run's outcome for a person: each step with what it
// did to each file and action.
func printRun(w io.Writer, st *status.Status) {
	printSource(w, st.Provenance)
	printNodeAddress(w, st.NodeAddress)
	printHostname(w, st.Hostname)
	for _, s := range st.Steps {
		fmt.Fprintf(w, "step %s: %s (%d ms)\n", s.Name, s.Outcome, s.DurationMS)
		for _, f := range s.Files {
			printFile(w, f.Change, f.Path, f.Target, f.Mode)
		}
		for _, a := range s.Actions {
			fmt.Fprintf(w, "  action    %s: %s\n", actionLine(a.Kind, a.Unit, a.Args), a.Outcome)
		}
		if s.Error != "" && !strings.Contains(st.Error, s.Error) {
			// What the run's error, apply's last line, does not say.
			fmt.Fprintf(w, "  error: %s\n", s.Error)
		}
	}
	for _, r := range st.Refusals {
		fmt.Fprintf(w, "refused: %s\n", r)
	}
	// A failed run's error is apply's last line, on stderr: the outcome
	// does not repeat it.
	outcome := summary(st)
	if st.Error != "" {
		outcome = string(st.Outcome)
	}
	fmt.Fprintf(w, "outcome: %s\n", outcome)
}
