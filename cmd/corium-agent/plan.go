package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/corium/corium-agent/internal/firstboot"
	"github.com/corium/corium-agent/internal/rootfs"
)

func init() {
	register("plan", command{summary: "show every file and action apply would write or perform, changing nothing", run: runPlan})
}

func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("plan", stderr)
	nf := addNodeFlags(fs)
	format := formatFlag(fs)
	again := fs.Bool("again", false, "show what apply --again would do on a provisioned node")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: corium-agent plan [--root DIR] [--config FILE] [--facts FILE] [--again] [--format text|json]")
		return exitUsage
	}
	if !checkFormat(stderr, "plan", *format) || !checkRoot(stderr, "plan", *nf.root) {
		return exitUsage
	}
	// Only what needs attention is logged: the plan itself goes to stdout.
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	rep, err := firstboot.Plan(ctx, firstboot.Options{
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
		printPlan(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "corium-agent plan: %v\n", err)
		return exitFailed
	}
	return exitOK
}

func printPlan(w io.Writer, rep *firstboot.PlanReport) {
	if rep.Provenance != nil {
		src := rep.Provenance.Source
		if src == "" {
			src = "none"
		}
		fmt.Fprintf(w, "source: %s\n", src)
	}
	if v := rep.Validation; v != nil {
		for _, f := range v.Errors {
			fmt.Fprintf(w, "error: %s: %s\n", f.Path, f.Message)
		}
		for _, f := range v.Warnings {
			fmt.Fprintf(w, "warning: %s: %s\n", f.Path, f.Message)
		}
	}
	if n := rep.NodeAddress; n != nil {
		addr := n.Address
		if addr == "" {
			addr = "(decided at boot)"
		}
		fmt.Fprintf(w, "node address: %s (%s)\n", addr, n.How)
	}
	if h := rep.Hostname; h != nil {
		name := h.Name
		if name == "" {
			name = "(decided at boot)"
		}
		fmt.Fprintf(w, "hostname: %s (%s)\n", name, h.Source)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, s := range rep.Steps {
		fmt.Fprintf(w, "step %s\n", s.Name)
		for _, f := range s.Files {
			switch {
			case f.Target != "":
				fmt.Fprintf(w, "  %-9s %s -> %s\n", f.Change, f.Path, f.Target)
			case f.Mode == "":
				fmt.Fprintf(w, "  %-9s %s\n", f.Change, f.Path)
			case f.Secret:
				fmt.Fprintf(w, "  %-9s %s (%s, holds secrets: their lines are masked)\n", f.Change, f.Path, f.Mode)
			default:
				fmt.Fprintf(w, "  %-9s %s (%s)\n", f.Change, f.Path, f.Mode)
			}
			for _, l := range strings.SplitAfter(strings.TrimSuffix(f.Diff, "\n"), "\n") {
				if l != "" {
					fmt.Fprintf(w, "      %s", strings.TrimSuffix(l, "\n")+"\n")
				}
			}
		}
		for _, a := range s.Actions {
			line := strings.Join(strings.Fields(strings.Join(append([]string{a.Kind, a.Unit}, a.Args...), " ")), " ")
			fmt.Fprintf(w, "  action    %s (%s)\n", line, a.When)
		}
	}
	for _, r := range rep.Refusals {
		fmt.Fprintf(w, "refused: %s\n", r)
	}
	if rep.Error != "" {
		fmt.Fprintf(w, "error: %s\n", rep.Error)
	}
}
