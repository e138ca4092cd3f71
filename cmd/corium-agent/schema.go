package main

import (
	"context"
	"fmt"
	"io"

	"github.com/corium/corium-agent/internal/schema"
)

func init() {
	register("schema", command{summary: "print the configuration's JSON Schema (draft 2020-12) for editors", run: runSchema})
}

func runSchema(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("schema", "", "Prints the configuration's JSON Schema (draft 2020-12), for editors; redirect\nit to a file.", stderr)
	if code, ok := parseNoArgs(fs, args, stdout); !ok {
		return code
	}
	if _, err := stdout.Write(schema.JSONSchema()); err != nil {
		fmt.Fprintf(stderr, "corium-agent schema: writing the schema: %v\n", err)
		return exitFailed
	}
	return exitOK
}
