package bootstrap

import (
	"fmt"

	"github.com/vishvananda/netlink"
	"golang.zx2c4.com/wireguard/wgctrl"
)

// OpenLiveVerifier is the Verifier of the running host: wgctrl for the
// devices (kernel or userspace) and netlink in the agent's own network
// namespace for the addresses. close releases both.
func OpenLiveVerifier() (v Verifier, close func() error, err error) {
	wg, err := wgctrl.New()
	if err != nil {
		return Verifier{}, nil, fmt.Errorf("opening wgctrl: %w", err)
	}
	nl, err := netlink.NewHandle()
	if err != nil {
		_ = wg.Close()
		return Verifier{}, nil, fmt.Errorf("opening netlink: %w", err)
	}
	close = func() error {
		nl.Close()
		return wg.Close()
	}
	return Verifier{Devices: wg, Links: nl}, close, nil
}

// GatherLiveFacts reads the running host's facts over netlink (GatherFacts
// in the agent's own network namespace).
func GatherLiveFacts() (*Facts, error) {
	nl, err := netlink.NewHandle()
	if err != nil {
		return nil, fmt.Errorf("opening netlink: %w", err)
	}
	defer nl.Close()
	return GatherFacts(nl)
}
