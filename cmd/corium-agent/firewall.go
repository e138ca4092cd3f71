package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/nftables"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

func init() {
	register("firewall", command{summary: "apply, show or remove the cluster-port guard (table inet corium)", run: runFirewall})
}

// newNftConn is the kernel connection; it talks to the network namespace of
// the calling thread.
var newNftConn = func() (firewall.Conn, error) { return nftables.New() }

func firewallUsage(w io.Writer, flags *flag.FlagSet) {
	fmt.Fprintf(w, `usage: corium-agent firewall apply|show|remove [--root DIR] [--config FILE]

  apply   program the guard (or remove it when clusterPorts is open)
  show    compare the loaded guard with the rendered one; exit 0 when it is
          current or off, 1 when it is stale or missing
  remove  delete table inet corium; needs no config

The guard is read from %s under the root, as rendered at
first boot, or derived from --config FILE (no secrets are resolved, and the
file under the root is not rewritten). The guard is programmed into the
network namespace the command runs in; --root only says where the file is.
`, firewall.FilePath)
	flags.PrintDefaults()
}

func runFirewall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := newFlags("firewall", stderr)
	root := flags.String("root", "/", "the node's root directory")
	config := flags.String("config", "", "derive the guard from this config instead of the rendered file")
	flags.Usage = func() { firewallUsage(stderr, flags) }
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			flags.Usage()
			return exitOK
		}
		flags.Usage()
		return exitUsage
	}
	verb := args[0]
	if err := flags.Parse(args[1:]); err != nil {
		return parseExit(err)
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "corium-agent firewall %s: unexpected argument %q\n", verb, flags.Arg(0))
		return exitUsage
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "corium-agent firewall %s: %v\n", verb, err)
		return code
	}
	if verb != "apply" && verb != "show" && verb != "remove" {
		fmt.Fprintf(stderr, "corium-agent firewall: unknown action %q; use apply, show or remove\n", verb)
		return exitUsage
	}
	if verb == "remove" && *config != "" {
		return fail(exitUsage, errors.New("remove needs no config; drop --config"))
	}

	conn, err := newNftConn()
	if err != nil {
		return fail(exitFailed, fmt.Errorf("connecting to nftables: %w", err))
	}
	if verb == "remove" {
		if err := firewall.Remove(ctx, conn); err != nil {
			return fail(exitFailed, err)
		}
		fmt.Fprintf(stdout, "table inet %s removed; the cluster ports are open to every link\n", firewall.TableName)
		return exitOK
	}

	g, code, err := loadGuard(rootfs.New(*root), *config)
	if err != nil {
		return fail(code, err)
	}
	if verb == "apply" {
		if err := firewall.Apply(ctx, conn, g); err != nil {
			return fail(exitFailed, err)
		}
	}
	report, err := firewall.State(conn, g)
	if err != nil {
		return fail(exitFailed, fmt.Errorf("checking the guard: %w", err))
	}
	printGuard(stdout, g, report)
	if report.Status == firewall.Current || report.Status == firewall.Off {
		return exitOK
	}
	return exitFailed
}

// loadGuard derives the guard from the config file when given, else reads the
// rendered one under the root. The int is the exit code for the error.
func loadGuard(root rootfs.Root, config string) (firewall.Guard, int, error) {
	if config != "" {
		data, err := os.ReadFile(config)
		if err != nil {
			return firewall.Guard{}, exitUsage, fmt.Errorf("reading %s: %w", config, err)
		}
		cfg, _, err := schema.Load(data)
		if err != nil {
			return firewall.Guard{}, exitFailed, fmt.Errorf("loading %s: %w", config, err)
		}
		g, err := firewall.Render(cfg)
		if err != nil {
			return firewall.Guard{}, exitFailed, fmt.Errorf("rendering the guard from %s: %w", config, err)
		}
		return g, exitOK, nil
	}
	g, err := firewall.Load(root)
	if err != nil {
		return firewall.Guard{}, exitFailed, err
	}
	return g, exitOK, nil
}

func printGuard(w io.Writer, g firewall.Guard, r firewall.Report) {
	if !g.On {
		fmt.Fprintln(w, "guard:       off (clusterPorts: open)")
	} else {
		fmt.Fprintln(w, "guard:       on (clusterPorts: overlay)")
		fmt.Fprintf(w, "guarded:     %s\n", joinPorts(g.Ports))
		fmt.Fprintf(w, "public:      %s\n", joinPorts(g.PublicPorts))
		fmt.Fprintf(w, "interfaces:  %s\n", strings.Join(g.Interfaces, " "))
		fmt.Fprintf(w, "pod network: %s (over its own link only)\n", g.PodCIDR)
	}
	fmt.Fprintf(w, "table:       %s: %s\n", r.Status, r.Reason)
	if r.Want != "" {
		fmt.Fprintf(w, "rendered:    sha256=%s\n", r.Want)
	}
	if r.Loaded != "" && r.Loaded != r.Want {
		fmt.Fprintf(w, "loaded:      sha256=%s\n", r.Loaded)
	}
}

func joinPorts(ps []firewall.Port) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}
