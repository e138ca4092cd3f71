package main

import (
	"fmt"
	"os"

	"github.com/google/nftables"
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/firewall/nft"
)

// newNftConn is the kernel connection the firewall command acts on: the
// network namespace of the calling thread, or the one at netnsPath. The
// func closes what it opened.
var newNftConn = func(netnsPath string) (nft.Conn, func(), error) {
	if netnsPath == "" {
		conn, err := nftables.New()
		if err != nil {
			return nil, nil, fmt.Errorf("connecting to nftables: %w", err)
		}
		return conn, func() {}, nil
	}
	f, err := openNetns(netnsPath)
	if err != nil {
		return nil, nil, err
	}
	// Every request of the connection enters the namespace through the fd,
	// so it stays open as long as the connection is used.
	conn, err := nftables.New(nftables.WithNetNSFd(int(f.Fd())))
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("connecting to nftables in %s: %w", netnsPath, err)
	}
	return conn, func() { f.Close() }, nil
}

// openNetns opens a network namespace file, refusing anything else: a
// mistyped path would otherwise fail later as a bare "invalid argument".
func openNetns(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening the network namespace: %w", err)
	}
	kind, err := unix.IoctlRetInt(int(f.Fd()), unix.NS_GET_NSTYPE)
	if err != nil || kind != unix.CLONE_NEWNET {
		f.Close()
		return nil, fmt.Errorf("--netns %s is not a network namespace; pass /run/netns/NAME or /proc/PID/ns/net", path)
	}
	return f, nil
}
