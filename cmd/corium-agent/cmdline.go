package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

func init() {
	register("cmdline", command{summary: "print the kernel command line that carries a configuration inline (PXE)", run: runCmdline})
}

func runCmdline(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	about := `Prints the kernel command line parameters that carry the configuration in
FILE (- for standard input) inline, for a PXE boot with no server for it:
corium.config.sha256= first, then corium.config=data:;base64,... FILE is
read as validate reads it; out of a cloud-config only the corium block goes
on the line, as a standalone document. The document is validated first,
with the checks of validate --for cmdline, and refused when it carries
secrets inline or credentials in a secret's URL.`
	// A flag per boot loader (source.Loaders), each printing its script.
	loaders := source.Loaders()
	var booting []string // the loaders --kernel, --initrd and --append go with
	for _, l := range loaders {
		if l.About != "" {
			about += " " + l.About
		}
		if l.Boots {
			booting = append(booting, l.Flag())
		}
	}
	fs := newFlags("cmdline", " FILE", about, stderr)
	chosen := make([]*bool, len(loaders))
	for i, l := range loaders {
		chosen[i] = fs.Bool(l.Name, false, l.Usage)
	}
	with := spokenList(booting, "or")
	kernel := fs.String("kernel", "vmlinuz", "with "+with+": the kernel's URI (relative: from where the script was fetched)")
	initrd := fs.String("initrd", "initrd.img", "with "+with+": the initrd's URI")
	appendArgs := fs.String("append", "", "with "+with+": the boot's other kernel parameters (root=, console=, ...), after the agent's")
	var creds credentialFlags
	fs.Var(&creds, "credential", credentialUsage)
	allowSecrets := fs.Bool("allow-inline-secrets", false, "print the line although the document carries inline secrets or credentials in a secret's URL, which every user of the node can read in /proc/cmdline")
	files, code, ok := parseFlags(fs, args, stdout)
	if !ok {
		return code
	}
	if len(files) != 1 {
		return usageError(fs, "name one file, or - for standard input")
	}
	var loader *source.Loader // nil: the parameters as the kernel gets them
	var named []string
	for i, on := range chosen {
		if *on {
			loader = &loaders[i]
			named = append(named, loader.Flag())
		}
	}
	if len(named) > 1 {
		return usageError(fs, "%s: choose one boot loader", spokenList(named, "and"))
	}
	if (loader == nil || !loader.Boots) && (*appendArgs != "" || flagSet(fs, "kernel") || flagSet(fs, "initrd")) {
		return usageError(fs, "--kernel, --initrd and --append go with %s", with)
	}
	data, name, err := readInput(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "corium-agent cmdline: %v\n", err)
		return exitUsage
	}
	n, err := cluster.Read(ctx, name, data, schema.ForCmdline())
	if err != nil {
		fmt.Fprintf(stderr, "corium-agent cmdline: %v\n", err)
		return exitFailed
	}
	// The line goes to stdout alone, so it can be captured; what the check
	// found goes to stderr, in validate's form.
	for _, f := range n.Findings.Shown() {
		fmt.Fprintln(stderr, findingText(name, n.Delivery, f, n.Findings))
	}
	if len(n.Findings.Errors()) > 0 || n.Doc == nil || n.Doc.Config == nil {
		fmt.Fprintf(stderr, "corium-agent cmdline: %s is not valid; fix it first\n", name)
		return exitFailed
	}
	if secrets := schema.CmdlineSecrets(n.Doc.Config); len(secrets) > 0 && !*allowSecrets {
		paths := make([]string, len(secrets))
		for i, s := range secrets {
			paths[i] = s.Path
		}
		fmt.Fprintf(stderr, "corium-agent cmdline: refusing: %s carries secrets inline (%s), and every user of the node can read the command line in /proc/cmdline; take them from a systemd credential or a file (the ...From fields) and keep credentials out of a secret's URL (authFile sends a bearer token), or pass --allow-inline-secrets\n",
			name, strings.Join(paths, ", "))
		return exitFailed
	}
	doc, dropped, err := lineDocument(n)
	if err != nil {
		fmt.Fprintf(stderr, "corium-agent cmdline: %s: %v\n", name, err)
		return exitFailed
	}

	params := source.InlineParams(doc)
	sealed, ok := credentialParams(creds, n.Doc.Config, stderr)
	if !ok {
		return exitFailed
	}
	params = append(params, sealed...)
	line := strings.Join(params, " ")
	script := line + "\n"
	if loader != nil {
		boot := source.Boot{Kernel: *kernel, Initrd: *initrd, Append: *appendArgs}
		if script, line, err = loader.Script(params, boot); err != nil {
			fmt.Fprintf(stderr, "corium-agent cmdline: refusing: %v\n", err)
			return exitFailed
		}
	}
	if f := cmdlineFit(line); f != nil {
		fmt.Fprintln(stderr, "corium-agent cmdline: "+formatFinding(name, *f))
		if f.Severity == finding.Error {
			return exitFailed
		}
	}
	switch {
	case n.Doc.Shape == schema.ShapeEmbedded:
		// Said, not quoted: the keys left out are what must not travel.
		fmt.Fprintf(stderr, "corium-agent cmdline: %s is a cloud-config: the line carries its corium block alone, as a standalone document, without its other top-level keys (%d) and its comments, which every user of the node could read in /proc/cmdline\n", name, dropped)
	case n.Delivery.Via != "":
		fmt.Fprintf(stderr, "corium-agent cmdline: the line carries the document in %s's %s\n", name, n.Delivery.Via)
	}
	fmt.Fprint(stdout, script)
	return exitOK
}

// lineDocument is the document cmdline puts on the line for n: the one the
// file delivers, or out of a cloud-config its corium block alone
// (schema.Document.Standalone), since the cloud-config's other keys carry
// passwords and keys of their own; dropped counts those keys. validate
// --for cmdline measures the same document.
func lineDocument(n cluster.Node) (doc []byte, dropped int, err error) {
	if n.Doc == nil || n.Doc.Shape != schema.ShapeEmbedded || n.Doc.Config == nil {
		return n.Delivery.Data, 0, nil
	}
	return n.Doc.Standalone()
}

// cmdlineFit says whether line, the kernel command line a script hands
// over (unquoted, as the kernel sees it: the parameters that carry a
// document inline, then --append's), fits beside the rest of a typical one
// (source.CmdlineFit, of a line holding them alone): an error when it
// cannot fit at all, a warning when it leaves less than
// source.CmdlineRoom, nil when it fits with room. validate --for cmdline
// reports the same of the parameters alone.
func cmdlineFit(line string) *finding.Finding {
	return source.CmdlineFit(source.MeasureCmdline(line))
}
