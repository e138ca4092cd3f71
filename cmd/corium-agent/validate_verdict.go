package main

import (
	"context"
	"fmt"

	"github.com/corium/corium-agent/internal/shown"
)

// verdict is the last line validate prints for a file or the set: "valid",
// or "invalid" with what made it so. A run that fails only under --strict
// says that its warnings failed it, so the line never reads "valid" on a
// failed run, nor blames errors that are not there. A file's name is the
// file system's to hold (a line break, an escape sequence), so it is
// shown quoted when it holds anything but printable ASCII.
func verdict(name string, valid bool, errors, warnings int, strict bool) string {
	name = shown.Text(name)
	if valid {
		return name + ": valid"
	}
	switch {
	case errors == 0 && strict:
		return fmt.Sprintf("%s: invalid with --strict: %s", name, count(warnings, "warning"))
	case warnings == 0:
		return fmt.Sprintf("%s: invalid: %s", name, count(errors, "error"))
	}
	return fmt.Sprintf("%s: invalid: %s and %s", name, count(errors, "error"), count(warnings, "warning"))
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// fileCode is the exit code with file r checked, code before it: a file
// that could not be read is a usage error, an invalid one a failure.
func fileCode(ctx context.Context, code int, r validateReport) int {
	switch {
	case ctx.Err() != nil:
		return exitFailed
	case r.Error != "":
		return exitUsage
	case !r.Valid && code == exitOK:
		return exitFailed
	}
	return code
}
