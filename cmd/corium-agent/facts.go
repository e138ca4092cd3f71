package main

import (
	"context"
	"fmt"
	"io"

	"github.com/vishvananda/netlink"
	vnetns "github.com/vishvananda/netns"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/hostfacts/nlroute"
	"github.com/corium/corium-agent/internal/rootfs"
)

func init() {
	register("facts", command{summary: "print this host's network as JSON, the form plan --facts and validate --facts read", run: runFacts})
}

// factsAbout is what facts -h says after the usage line.
const factsAbout = `Prints this host's network as JSON, exactly as apply reads it at first boot and
in the form plan --facts and validate --facts read: the links that are up with
their MACs and addresses, the default route of each family, and the route to
each peer endpoint and ha.unicastPeers address of the document. Capture it once
on the node, then plan and validate anywhere. The routes are looked up for the
document's addresses, so it needs the document: --config FILE, else the source
chain under --root. docs/overlay.md ("Host facts") describes each field.

The kernel read is the network namespace the command runs in, and only with
--root / (the default); with another root, pass --netns PATH.

Run from a rescue or installer system, the interface names and addresses may
differ from the installed system's (another kernel names the links, another
network configuration sets the addresses): check them before planning with it.`

func runFacts(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("facts", "", factsAbout, stderr)
	root := fs.String("root", "/", "the node's root directory, where the source chain is read without --config")
	config := fs.String("config", "", "the node's document (`file`): its peers' endpoints and unicast VRRP peers are the routes looked up")
	netnsPath := fs.String("netns", "", "read the network namespace at this `path` (/run/netns/NAME, /proc/PID/ns/net); required with a --root other than /")
	if code, ok := parseNoArgs(fs, args, stdout); !ok {
		return code
	}
	if !checkRoot(stderr, "facts", *root) {
		return exitUsage
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "corium-agent facts: %v\n", err)
		return code
	}
	r := rootfs.New(*root)
	// Off the host, the namespace the command runs in belongs to whoever
	// runs it (a workstation, a build): never print its network as the
	// node's.
	if !r.IsHost() && *netnsPath == "" {
		return fail(exitUsage, fmt.Errorf("--root %s is not /, so the network this runs in is not that node's: pass --netns PATH (e.g. /run/netns/NAME) to read that network namespace, or run it on the node with --root /", r.Dir()))
	}
	doc, code, err := loadConfigFile(ctx, r, *config)
	if err != nil {
		return fail(code, err)
	}
	nl, err := openFactsNetlink(*netnsPath)
	if err != nil {
		return fail(exitFailed, err)
	}
	defer nl.Close()
	facts, err := bootstrap.HostFacts(bootstrap.Options{GatherFacts: liveFacts(nl)}, doc.Config)
	if err != nil {
		return fail(exitFailed, err)
	}
	if err := writeJSON(stdout, facts); err != nil {
		return fail(exitFailed, fmt.Errorf("writing json: %w", err))
	}
	return exitOK
}

// openFactsNetlink is a route netlink handle on the namespace at path, or
// on the one the command runs in.
func openFactsNetlink(path string) (*netlink.Handle, error) {
	if path == "" {
		nl, err := nlroute.Open()
		if err != nil {
			return nil, fmt.Errorf("opening netlink: %w", err)
		}
		return nl, nil
	}
	f, err := openNetns(path)
	if err != nil {
		return nil, err
	}
	// The handle's sockets are made inside the namespace and stay there:
	// the file is not needed once it is open.
	defer f.Close()
	nl, err := nlroute.OpenAt(vnetns.NsHandle(int(f.Fd())))
	if err != nil {
		return nil, fmt.Errorf("opening netlink in %s: %w", path, err)
	}
	return nl, nil
}
