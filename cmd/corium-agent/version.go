package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "dev"

func init() {
	register("version", command{summary: "print the agent's version", run: runVersion})
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", "Prints the agent's version.", stderr)
	if code, ok := parseNoArgs(fs, args, stdout); !ok {
		return code
	}
	v := version
	if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	fmt.Fprintf(stdout, "corium-agent %s\n", v)
	return exitOK
}
