package inspect

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status"
)

// readApplied decodes the applied configuration. Its inline secrets are
// already redacted on disk; status never uses them.
func readApplied(root rootfs.Root) (*schema.Config, error) {
	data, err := root.ReadFile(bootstrap.AppliedPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", bootstrap.AppliedPath, err)
	}
	var cfg schema.Config
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", bootstrap.AppliedPath, err)
	}
	return &cfg, nil
}

// expectedPublicKey is the public key interface name should have: the one
// the last run verified (the status file carries it as a verify argument),
// else the one derived from the rendered wg-quick file, since the status
// file does not survive a reboot. via says which.
func expectedPublicKey(root rootfs.Root, run *status.Status, name string) (key wgtypes.Key, via string, err error) {
	if run != nil {
		for _, s := range run.Steps {
			for _, a := range s.Actions {
				if a.Kind != string(bootstrap.ActionVerifyDevice) || len(a.Args) == 0 || a.Args[0] != name {
					continue
				}
				e, err := bootstrap.ParseDeviceExpectation(a.Args)
				if err != nil {
					return wgtypes.Key{}, "", err
				}
				return e.PublicKey, status.Path, nil
			}
		}
	}
	path := bootstrap.WireGuardConfPath(name)
	data, err := root.ReadFile(path)
	if err != nil {
		return wgtypes.Key{}, "", fmt.Errorf("reading %s: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || strings.TrimSpace(k) != "PrivateKey" {
			continue
		}
		priv, err := wgtypes.ParseKey(strings.TrimSpace(v))
		if err != nil {
			// The parse error would quote the line; name the file only.
			return wgtypes.Key{}, "", fmt.Errorf("reading %s: PrivateKey is not a WireGuard key", path)
		}
		return priv.PublicKey(), path, nil
	}
	return wgtypes.Key{}, "", fmt.Errorf("reading %s: no PrivateKey line", path)
}

// recordedNodeAddress is the node address the first boot recorded ("" when
// k0s chose it).
func recordedNodeAddress(root rootfs.Root, run *status.Status) string {
	if b, err := root.ReadFile(bootstrap.NodeAddressPath); err == nil {
		if a := strings.TrimSpace(string(b)); a != "" {
			return a
		}
	}
	if run != nil && run.NodeAddress != nil {
		return run.NodeAddress.Address
	}
	return ""
}

const nodeIPFlag = "--kubelet-extra-args=--node-ip="

// installedAddress is the node address k0s was installed with, from the
// k0s-install action of the last run, else the recorded node address.
func installedAddress(root rootfs.Root, run *status.Status) (addr, via string) {
	if run != nil {
		for _, s := range run.Steps {
			for _, a := range s.Actions {
				if a.Kind != string(bootstrap.ActionK0sInstall) {
					continue
				}
				for _, arg := range a.Args {
					if v, ok := strings.CutPrefix(arg, nodeIPFlag); ok {
						return v, "the k0s-install action in " + status.Path
					}
				}
			}
		}
	}
	if b, err := root.ReadFile(bootstrap.NodeAddressPath); err == nil {
		if a := strings.TrimSpace(string(b)); a != "" {
			return a, bootstrap.NodeAddressPath
		}
	}
	return "", ""
}
