package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/guardfile"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source/chain"
)

func init() {
	register("firewall", command{summary: "apply, show or remove the cluster-port guard (table inet corium)", run: runFirewall})
}

// firewallAbout is what firewall -h says after the usage line.
var firewallAbout = `  apply   program the guard and the pod masquerade, whichever the node has
          (remove the table when it has neither)
  show    compare the loaded guard with the rendered one; exit 0 when it is
          current or off, 1 when it is stale or missing
  remove  delete table inet corium; needs no config

The guard is read from ` + firewall.FilePath + ` under the root, as rendered at
first boot, or derived from --config FILE (no secrets are resolved, and the
file under the root is not rewritten).

The kernel acted on is the network namespace the command runs in, and only
with --root / (the default). A root other than / is another machine's tree:
there, apply and remove need --netns PATH, the network namespace to program
(/run/netns/NAME, /proc/PID/ns/net), and show without --netns prints the
rendered guard without comparing it with any table.`

// firewallArgs are the parsed flags of one firewall command.
type firewallArgs struct {
	verb, config, netns string
	root                rootfs.Root
	ifRendered          bool
}

func runFirewall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a, code, ok := parseFirewall(args, stdout, stderr)
	if !ok {
		return code
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "corium-agent firewall %s: %v\n", a.verb, err)
		return code
	}
	var g firewall.Guard
	if a.verb != "remove" {
		var err error
		if g, code, err = loadGuard(ctx, a.root, a.config); err != nil {
			if a.ifRendered && errors.Is(err, firewall.ErrNotRendered) {
				return exitOK // a node never provisioned has no guard to put back
			}
			return fail(code, err)
		}
	}
	// Off the host, the namespace the command runs in belongs to whoever
	// runs it (a workstation, a build): never guess it is the node's.
	kernel := a.root.IsHost() || a.netns != ""
	if !kernel && a.verb != "show" {
		return fail(exitUsage, fmt.Errorf("--root %s is not /, so the kernel this runs on is not that node's: pass --netns PATH (e.g. /run/netns/NAME) to %s the guard in that network namespace, or run it on the node with --root /", a.root.Dir(), a.verb))
	}
	if !kernel {
		printGuard(stdout, g, nil)
		fmt.Fprintf(stdout, "table:       not compared: --root %s is not /; pass --netns PATH to compare with the table of that network namespace\n", a.root.Dir())
		return exitOK
	}

	conn, closeConn, err := newNftConn(a.netns)
	if err != nil {
		return fail(exitFailed, err)
	}
	defer closeConn()
	if a.verb == "remove" {
		if err := nft.Remove(ctx, conn); err != nil {
			return fail(exitFailed, err)
		}
		fmt.Fprintf(stdout, "table inet %s removed; the cluster ports are open to every link, and pods' packets over the overlay are no longer masqueraded, until corium-agent firewall apply or the next boot\n", nft.TableName)
		return exitOK
	}
	if a.verb == "apply" {
		if err := nft.Apply(ctx, conn, g); err != nil {
			return fail(exitFailed, err)
		}
	}
	report, err := nft.State(conn, g)
	if err != nil {
		return fail(exitFailed, fmt.Errorf("checking the guard: %w", err))
	}
	printGuard(stdout, g, &report)
	if report.Status == nft.Current || report.Status == nft.Off {
		return exitOK
	}
	return exitFailed
}

// parseFirewall reads the verb and flags; !ok means exit with code.
func parseFirewall(args []string, stdout, stderr io.Writer) (a firewallArgs, code int, ok bool) {
	flags := newFlags("firewall", " apply|show|remove", firewallAbout, stderr)
	root := flags.String("root", "/", "the node's root directory")
	flags.StringVar(&a.config, "config", "", "derive the guard from this config instead of the rendered file")
	flags.StringVar(&a.netns, "netns", "", "act on the network namespace at this `path` (required with a --root other than /)")
	flags.BoolVar(&a.ifRendered, "if-rendered", false, "apply: with no rendered guard under the root, do nothing and exit 0")
	rest, code, ok := parseFlags(flags, args, stdout)
	if !ok {
		return a, code, false
	}
	if len(rest) == 0 {
		return a, usageError(flags, "name an action: apply, show or remove"), false
	}
	a.verb = rest[0]
	a.root = rootfs.New(*root)
	usage := func(format string, args ...any) (firewallArgs, int, bool) {
		fmt.Fprintf(stderr, "corium-agent firewall %s: "+format+"\n", append([]any{a.verb}, args...)...)
		return a, exitUsage, false
	}
	switch {
	case a.verb != "apply" && a.verb != "show" && a.verb != "remove":
		fmt.Fprintf(stderr, "corium-agent firewall: unknown action %q; use apply, show or remove\n", a.verb)
		return a, exitUsage, false
	case len(rest) > 1:
		return usage("unexpected argument %q", rest[1])
	case refusesTopology(stderr, "firewall "+a.verb, a.config):
		return a, exitUsage, false
	case a.verb == "remove" && a.config != "":
		return usage("remove needs no config; drop --config")
	case a.ifRendered && (a.verb != "apply" || a.config != ""):
		return usage("--if-rendered is for apply from the rendered file; drop it")
	}
	return a, exitOK, true
}

// loadGuard derives the guard from the config file when given, else reads the
// rendered one under the root. The int is the exit code for the error. The
// file is read as plan --config reads it, every delivery shape validate
// takes.
func loadGuard(ctx context.Context, root rootfs.Root, config string) (firewall.Guard, int, error) {
	if config != "" {
		doc, code, err := loadConfigFile(ctx, root, config)
		if err != nil {
			return firewall.Guard{}, code, err
		}
		g, err := firewall.Render(doc.Config, *doc.K0s)
		if err != nil {
			return firewall.Guard{}, exitFailed, fmt.Errorf("rendering the guard from %s: %w", config, err)
		}
		return g, exitOK, nil
	}
	g, err := guardfile.Load(root)
	if err != nil {
		return firewall.Guard{}, exitFailed, err
	}
	return g, exitOK, nil
}

// loadConfigFile reads and validates the document in config as plan
// --config reads it, every delivery shape validate takes; config "" runs
// the source chain under the root, as plan without --config does. The int
// is the exit code for the error: an unreadable file is a usage error.
func loadConfigFile(ctx context.Context, root rootfs.Root, config string) (*schema.Document, int, error) {
	res, err := chain.Find(ctx, chain.Options{Root: root, ConfigFile: config, Logger: slog.New(slog.DiscardHandler)})
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, exitUsage, err
	case err != nil:
		return nil, exitFailed, err
	case res.Source == "":
		return nil, exitUsage, fmt.Errorf("no source under %s holds a corium block: name the node's document with --config FILE", root.Dir())
	}
	doc, _, err := schema.LoadTree(ctx, res.Tree, bootstrap.ChecksFor(res)...)
	if err != nil {
		return nil, exitFailed, fmt.Errorf("loading %s: %w", res.Source, err)
	}
	return doc, exitOK, nil
}
