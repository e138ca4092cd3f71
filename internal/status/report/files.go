package report

import (
	"fmt"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
)

// expectedPublicKey is the public key interface name should have, from the
// record of what each device must be (status.DevicesPath), which survives
// a reboot as the status file does not. via names the record.
func expectedPublicKey(root rootfs.Root, name string) (key wgtypes.Key, via string, err error) {
	devices, ok, err := store.ReadDevices(root)
	switch {
	case err != nil:
		return wgtypes.Key{}, "", err
	case !ok:
		return wgtypes.Key{}, "", fmt.Errorf("no record of what the devices must be at %s (an older agent provisioned this node); run corium-agent apply --again to write it", status.DevicesPath)
	}
	for _, d := range devices {
		if d.Name == name {
			return wgtypes.Key(d.PublicKey), status.DevicesPath, nil
		}
	}
	return wgtypes.Key{}, "", fmt.Errorf("%s has no entry for %s; run corium-agent apply --again to write it", status.DevicesPath, name)
}

// recordedNodeAddress is the node address the node joined with, from its
// record, else the last run's decision ("" when k0s chose it, or nothing
// says). via names where it came from.
func recordedNodeAddress(root rootfs.Root, run *status.Status) (addr, via string) {
	if a, ok, err := store.ReadNodeAddress(root); err == nil && ok {
		return a.String(), status.NodeAddressPath
	}
	if run != nil && run.NodeAddress != nil && run.NodeAddress.Address != "" {
		return run.NodeAddress.Address, status.Path
	}
	return "", ""
}
