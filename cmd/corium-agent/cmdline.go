package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

func init() {
	register("cmdline", command{summary: "print the kernel command line that carries a configuration inline (PXE)", run: runCmdline})
}

// cmdlineRoom is what the rest of a typical line needs beside the agent's
// parameters: the boot loader's BOOT_IMAGE=, root=, a bootc entry's
// ostree= and boot=, console=, ip= take a few hundred bytes.
const cmdlineRoom = 512

func runCmdline(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("cmdline", " FILE", `Prints the kernel command line parameters that carry the configuration in
FILE (- for standard input) inline, for a PXE boot with no server for it:
corium.config.sha256= first, then corium.config=data:;base64,... The
document is validated first, with the checks of validate --for cmdline, and
refused when it carries inline secrets.`, stderr)
	grub := fs.Bool("grub", false, "quote the parameters for GRUB's linux line (grub.cfg)")
	allowSecrets := fs.Bool("allow-inline-secrets", false, "print the line although the document carries inline secrets, which every user of the node can read in /proc/cmdline")
	files, code, ok := parseFlags(fs, args, stdout)
	if !ok {
		return code
	}
	if len(files) != 1 {
		return usageError(fs, "name one file, or - for standard input")
	}
	data, name, err := readInput(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "corium-agent cmdline: %v\n", err)
		return exitUsage
	}
	doc, findings, err := schema.Check(ctx, data, schema.ForCmdline())
	var syn *schema.SyntaxError
	switch {
	case errors.As(err, &syn):
		findings = schema.Findings{syn.Finding()}
	case err != nil:
		fmt.Fprintf(stderr, "corium-agent cmdline: %v\n", err)
		return exitFailed
	}
	// The line goes to stdout alone, so it can be captured; what the check
	// found goes to stderr, in validate's form.
	for _, f := range findings.Shown() {
		fmt.Fprintln(stderr, formatFinding(name, f))
	}
	if len(findings.Errors()) > 0 {
		fmt.Fprintf(stderr, "corium-agent cmdline: %s is not valid; fix it first\n", name)
		return exitFailed
	}
	if secrets := schema.CmdlineSecrets(doc.Config); len(secrets) > 0 && !*allowSecrets {
		paths := make([]string, len(secrets))
		for i, s := range secrets {
			paths[i] = s.Path
		}
		fmt.Fprintf(stderr, "corium-agent cmdline: refusing: %s carries inline secrets (%s), and every user of the node can read the command line in /proc/cmdline; take them from a systemd credential or a file (the ...From fields), or pass --allow-inline-secrets\n",
			name, strings.Join(paths, ", "))
		return exitFailed
	}

	params := source.InlineParams(data)
	if f := cmdlineFit(params); f != nil {
		fmt.Fprintln(stderr, "corium-agent cmdline: "+formatFinding(name, *f))
		if f.Severity == schema.SeverityError {
			return exitFailed
		}
	}
	if *grub {
		for i, p := range params {
			params[i] = grubQuote(p)
		}
	}
	fmt.Fprintln(stdout, strings.Join(params, " "))
	return exitOK
}

// cmdlineFit says whether the parameters that carry a document inline fit
// on a kernel command line, beside the rest of a typical one: an error when
// they cannot fit at all, a warning when they leave less than cmdlineRoom,
// nil when they fit with room. validate --for cmdline reports the same.
func cmdlineFit(params []string) *schema.Finding {
	size := len(strings.Join(params, " ")) // as the kernel sees them, unquoted
	switch left := source.MaxCmdline - size - 1; {
	case left < 0:
		return &schema.Finding{Severity: schema.SeverityError, Message: fmt.Sprintf(
			"the kernel command line parameters that carry this document take %d bytes, and the kernel keeps %d of the whole line; a longer line is cut, and the node refuses a cut one: put the document in a file or at a URL (corium.config=https://... with corium.config.sha256=), or shorten it (comments count)",
			size, source.MaxCmdline)}
	case left < cmdlineRoom:
		return &schema.Finding{Severity: schema.SeverityWarning, Message: fmt.Sprintf(
			"the kernel command line parameters that carry this document take %d of the %d bytes the kernel keeps of the whole line, leaving %d for the rest of it (BOOT_IMAGE=, root=, console= and the like take a few hundred); a longer line is cut, and the node refuses a cut one: shorten the document (comments count) or put it in a file or at a URL",
			size, source.MaxCmdline, left)}
	}
	return nil
}
