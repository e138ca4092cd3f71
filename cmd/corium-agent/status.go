package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/google/nftables"
	"golang.zx2c4.com/wireguard/wgctrl"

	"github.com/corium/corium-agent/internal/hostfacts/nlroute"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status/listen/scan"
	"github.com/corium/corium-agent/internal/status/report"
	"github.com/corium/corium-agent/internal/systemd/bus"
)

// statusTimeout bounds the live reads of one status.
const statusTimeout = 30 * time.Second

func init() {
	register("status", command{summary: "what this node is, why, and whether its overlay, guard and k0s really work", run: runStatus})
}

// openLive connects to the running host for the live parts of the
// inspection; a part it cannot reach stays nil with the reason. Tests
// replace it to point at namespaces they made.
var openLive = func(ctx context.Context, root rootfs.Root) (report.Options, func()) {
	o := report.Options{Root: root}
	if !root.IsHost() {
		why := "root is " + root.Dir() + ", not the host"
		o.DevicesWhy, o.LinksWhy, o.UnitsWhy, o.GuardWhy, o.SocketsWhy = why, why, why, why, why
		return o, func() {}
	}
	var closers []func()
	if sd, err := bus.Connect(ctx); err != nil {
		o.UnitsWhy = "no system bus"
	} else {
		o.Units, o.Services, o.Journal = sd, sd, bus.InvocationJournal{}
		closers = append(closers, sd.Close)
	}
	var devices scan.WireGuardDevices
	if wg, err := wgctrl.New(); err != nil {
		o.DevicesWhy = "opening wireguard control: " + err.Error()
	} else {
		o.Devices, devices = wg, wg
		closers = append(closers, func() { _ = wg.Close() })
	}
	if nl, err := nlroute.Open(); err != nil {
		o.LinksWhy = "opening netlink: " + err.Error()
	} else {
		o.Links = report.LinkFacts{Netlink: nl}
		closers = append(closers, nl.Close)
	}
	if diag, err := scan.Open(); err != nil {
		o.SocketsWhy = "opening sock_diag: " + err.Error()
	} else {
		o.Sockets = scan.Reader{Diag: diag, Proc: "/proc", WireGuard: devices}
		closers = append(closers, diag.Close)
	}
	if conn, err := nftables.New(); err != nil {
		o.GuardWhy = "connecting to nftables: " + err.Error()
	} else {
		o.Guard = report.NftGuard{Conn: conn}
	}
	return o, func() {
		for _, c := range closers {
			c()
		}
	}
}

func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("status", "", "Says what this node is, why, and whether its route, overlay, guard and k0s\nreally work; the first line is the verdict. Exit 0 ok, 1 degraded or failed,\n3 unprovisioned.", stderr)
	root := fs.String("root", "/", "the node's root directory; live state is read only for /")
	format := formatFlag(fs)
	if code, ok := parseNoArgs(fs, args, stdout); !ok {
		return code
	}
	if !checkFormat(stderr, "status", *format) || !checkRoot(stderr, "status", *root) {
		return exitUsage
	}

	// A hung bus or kernel interface must not hang the one command an
	// operator runs when something is wrong; what times out reads unknown.
	ctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	o, closeLive := openLive(ctx, rootfs.New(*root))
	defer closeLive()
	r := report.Inspect(ctx, o)
	if *format == "json" {
		if err := writeJSON(stdout, r); err != nil {
			fmt.Fprintf(stderr, "corium-agent status: encoding the report: %v\n", err)
			return exitFailed
		}
	} else {
		report.Text(stdout, r)
	}
	return statusExit(r.Verdict.State)
}

func statusExit(s report.State) int {
	switch s {
	case report.OK:
		return exitOK
	case report.Unprovisioned:
		return exitNothing
	}
	return exitFailed
}
