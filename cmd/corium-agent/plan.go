package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
)

func init() {
	register("plan", command{summary: "show every file and action apply would write or perform, changing nothing", run: runPlan})
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("plan", "", "Shows every file and action apply would write or perform, changing nothing and\nresolving no secret.", stderr)
	nf := addNodeFlags(fs)
	format := formatFlag(fs)
	again := fs.Bool("again", false, "show what apply --again would do on a provisioned node")
	full := fs.Bool("full", false, "list every file's content (as a diff) and every action's arguments; the default is a summary")
	if code, ok := parseNoArgs(fs, args, stdout); !ok {
		return code
	}
	if !checkFormat(stderr, "plan", *format) || !checkRoot(stderr, "plan", *nf.root) || refusesTopology(stderr, "plan", *nf.config) {
		return exitUsage
	}
	// Only what needs attention is logged: the plan itself goes to stdout.
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	rep, err := bootstrap.Plan(ctx, bootstrap.Options{
		Root:       rootfs.New(*nf.root),
		ConfigFile: *nf.config,
		FactsFile:  *nf.facts,
		Again:      *again,
		Log:        log,
	})
	if *format == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			fmt.Fprintf(stderr, "corium-agent plan: writing json: %v\n", err)
			return exitFailed
		}
	} else {
		printPlan(stdout, rep, *full)
	}
	if err != nil {
		fmt.Fprintf(stderr, "corium-agent plan: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// printPlan writes the plan as text: by default a summary an operator reads
// in one screen (each file with its mode, size and change, each action and
// when it runs); full adds each file's diff and each action's arguments,
// as the JSON output always has them.
func printPlan(w io.Writer, rep *bootstrap.PlanReport, full bool) {
	printSource(w, rep.Provenance)
	// The errors are not listed here: the run's error, on stderr, says
	// them once (an invalid document's every error, a refusal its reason).
	if v := rep.Validation; v != nil {
		for _, f := range v.Warnings {
			fmt.Fprintf(w, "warning: %s\n", f)
		}
	}
	printNodeAddress(w, rep.NodeAddress)
	printHostname(w, rep.Hostname)
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	printGuardSummary(w, rep.Guard)
	for _, s := range rep.Steps {
		fmt.Fprintf(w, "step %s\n", s.Name)
		for _, f := range s.Files {
			mode := f.Mode
			if f.Secret && mode != "" {
				mode += ", holds secrets: their lines are masked"
			}
			if !full {
				printFileSummary(w, f)
				continue
			}
			printFile(w, f.Change, f.Path, f.Target, mode)
			for _, l := range strings.SplitAfter(strings.TrimSuffix(f.Diff, "\n"), "\n") {
				if l != "" {
					fmt.Fprintf(w, "      %s", strings.TrimSuffix(l, "\n")+"\n")
				}
			}
		}
		for _, a := range s.Actions {
			args := a.Args
			if !full && a.Kind == string(plan.ActionVerifyDevice) && len(args) > 1 {
				// The device's every key and peer run to a thousand
				// characters: the summary names the device, --full lists it.
				args = append(args[:1:1], "(plan --full lists what is checked)")
			}
			fmt.Fprintf(w, "  action    %s (%s)\n", actionLine(a.Kind, a.Unit, args), a.When)
		}
	}
	for _, r := range rep.Refusals {
		fmt.Fprintf(w, "refused: %s\n", r)
	}
}
