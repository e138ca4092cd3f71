package main

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/hostfacts/nlroute"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/systemd/bus"
)

// wireLiveHost connects the run to the running host: systemd over D-Bus,
// wgctrl and netlink for the overlay check and the node address, nftables
// for the guard. The returned func closes them.
func wireLiveHost(ctx context.Context, root rootfs.Root, o *bootstrap.Options) (func(), error) {
	// At first boot these run while systemd starts everything else behind
	// network-online.target: the time each took is logged, since it is
	// the time before the agent's first step.
	start := time.Now()
	sd, err := bus.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to systemd: %w", err)
	}
	sdTook := time.Since(start)
	wg, err := wgctrl.New()
	if err != nil {
		sd.Close()
		return nil, fmt.Errorf("opening wireguard control: %w", err)
	}
	wgTook := time.Since(start) - sdTook
	nl, err := nlroute.Open()
	if err != nil {
		sd.Close()
		_ = wg.Close()
		return nil, fmt.Errorf("opening netlink: %w", err)
	}
	o.Log.Info("connected to the host", "systemd", sdTook.Round(time.Millisecond), "wireguard", wgTook.Round(time.Millisecond), "netlink", (time.Since(start) - sdTook - wgTook).Round(time.Millisecond))
	o.Live = &apply.LiveHost{
		Systemd:  sd,
		Verifier: apply.Verifier{Devices: wg, Links: nl},
		Guard:    func(ctx context.Context) error { return nft.ApplyRendered(ctx, root) },
		Root:     root,
	}
	o.GatherFacts = liveFacts(nl)
	return func() {
		nl.Close()
		_ = wg.Close()
		sd.Close()
	}, nil
}

// liveFacts is how apply reads the host's network, and how the facts
// command does: the same read, so what facts prints is what apply gathers.
func liveFacts(nl gather.Netlink) func(endpoints []netip.Addr) (*hostfacts.Facts, error) {
	return func(endpoints []netip.Addr) (*hostfacts.Facts, error) {
		return gather.Gather(nl, endpoints...)
	}
}
