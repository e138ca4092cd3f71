package main

import (
	"fmt"
	"io"

	"github.com/corium/corium-agent/internal/bootstrap"
)

// printFileSummary is one file of plan's summary: its change, path, mode
// and size, without the content (plan --full shows it as a diff).
func printFileSummary(w io.Writer, f bootstrap.PlanFile) {
	if f.Target != "" || f.Mode == "" {
		printFile(w, f.Change, f.Path, f.Target, f.Mode)
		return
	}
	detail := fmt.Sprintf("%s, %s", f.Mode, count(f.Size, "byte"))
	if f.Secret {
		detail += ", holds secrets"
	}
	printFile(w, f.Change, f.Path, "", detail)
}
