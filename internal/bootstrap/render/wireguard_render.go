package render

import (
	"fmt"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/wgquick"
)

// StepWireGuard names the overlay step in plans and status.
const StepWireGuard = "wireguard"

// RenderWireGuard renders the host overlay: one wg-quick file per interface
// (0600 in a 0700 directory, it holds the private key), the record of what
// each device must be, and the live actions that bring the interfaces up
// and check them (the units that enable them and tie k0s to them are
// RenderUnits'). With no interfaces it returns an empty step. It has no
// host facts, so an interface without mtu gets 1420 (see InterfaceMTU).
//
// secrets holds the resolved keys by field path (see Secrets). A missing or
// malformed key is an error naming the field path, never the value.
func RenderWireGuard(cfg *schema.Config, secrets Secrets) (plan.Step, error) {
	return renderWireGuard(Inputs{Config: cfg, Secrets: secrets})
}

// RenderOverlay is the overlay on a first boot (in.Previous nil) or on day
// two, where in.Previous is what the last run applied: an interface whose
// change a reload carries (see ReloadSuffices) is reloaded instead of
// restarted, or, when the change is only whole peers added and removed,
// has those peers added and removed alone (see PeerDelta); interfaces the
// last run made that the config drops are taken down and removed. It reads
// Config, Secrets, Facts, Previous and WgQuickLinks.
func RenderOverlay(in Inputs) ([]plan.Step, error) {
	step, err := renderWireGuard(in)
	if err != nil {
		return nil, err
	}
	steps := []plan.Step{step}
	if rm := renderRemoved(in.Config, in.Previous, in.WgQuickLinks); len(rm.Actions) > 0 || len(rm.Removes) > 0 {
		steps = append(steps, rm)
	}
	return steps, nil
}

func renderWireGuard(in Inputs) (plan.Step, error) {
	cfg, prev := in.Config, in.Previous
	if err := checkPrevious(cfg, prev); err != nil {
		return plan.Step{}, err
	}
	step := plan.Step{Name: StepWireGuard}
	if len(cfg.WireGuard) == 0 {
		if len(prev.Removed(cfg)) > 0 {
			// The last interface goes: so does the record of what it must be.
			step.Removes = append(step.Removes, status.DevicesPath)
		}
		return step, nil
	}
	var devices []plan.Device
	for i, wg := range cfg.WireGuard {
		mtu, err := InterfaceMTU(wg, in.Facts, prev)
		if err != nil {
			return plan.Step{}, fmt.Errorf("wireguard[%d].%w", i, err)
		}
		f, expect, err := renderWgQuick(i, wg, in.Secrets, mtu)
		if err != nil {
			return plan.Step{}, err
		}
		conf := wgquick.Marshal(f)
		confPath := WireGuardConfPath(wg.Name)
		unitName := plan.WgQuickUnit(wg.Name)
		step.Files = append(step.Files, plan.File{Path: confPath, Mode: 0o600, DirMode: 0o700, Content: conf, Secret: true, SecretKeys: wgquick.SecretKeys, SecretSyntax: plan.SyntaxINI})
		// A running interface does not re-read its file: a changed file
		// restarts it; an unchanged one is started, a no-op when it runs.
		// On an again run a change a reload carries is reloaded after the start,
		// so an interface found down comes up from the new file and the
		// reload is a plain one, never a start in disguise. A change of
		// whole peers alone is made peer by peer instead (PeerDelta), so
		// the peers that stay are not set again.
		if reloadCarries(prev, wg, mtu) {
			step.Actions = append(step.Actions, plan.Action{Kind: plan.ActionStart, Unit: unitName})
			if change, ok := peerChange(prev, wg.Name, confPath, conf); ok {
				step.Actions = append(step.Actions, plan.Action{Kind: plan.ActionWireGuardPeers, Unit: unitName, Peers: change, OnChange: []string{confPath}})
			} else {
				step.Actions = append(step.Actions, plan.Action{Kind: plan.ActionReload, Unit: unitName, OnChange: []string{confPath}})
			}
		} else {
			step.Actions = append(step.Actions,
				plan.Action{Kind: plan.ActionRestart, Unit: unitName, OnChange: []string{confPath}},
				plan.Action{Kind: plan.ActionStart, Unit: unitName},
			)
		}
		step.Actions = append(step.Actions, plan.Action{Kind: plan.ActionVerifyDevice, Unit: unitName, Device: &expect})
		devices = append(devices, expect)
	}
	// What each device must be, for status to check after any reboot.
	step.Files = append(step.Files, plan.File{Path: status.DevicesPath, Mode: 0o600, DirMode: 0o700, Content: status.EncodeDevices(devices)})
	return step, nil
}

// reloadCarries compares the interface as the last run's file left it with
// the one rendered now, each with the MTU its file states: a derived MTU
// follows the host's routes, so two alike configurations need not make
// alike files.
func reloadCarries(prev *Previous, wg schema.WireGuard, mtu MTU) bool {
	old := prev.iface(wg.Name)
	if old == nil {
		return false
	}
	was, now := *old, wg
	was.MTU = nil
	if v := prev.confMTU(wg.Name); v > 0 {
		was.MTU = &v
	}
	now.MTU = &mtu.Value
	return ReloadSuffices(was, now)
}

// renderWgQuick is interface i as a wg-quick file (package wgquick writes
// it), and what the live device must look like once it is up. Only keys wg-quick
// handles without outside help are used: DNS= needs resolvconf, and Table=,
// PostUp= and friends are not part of the contract.
func renderWgQuick(i int, wg schema.WireGuard, secrets Secrets, mtu MTU) (wgquick.File, plan.Device, error) {
	priv, err := wireGuardKey(secrets, schema.PrivateKeyPath(i), wg.PrivateKey, true)
	if err != nil {
		return wgquick.File{}, plan.Device{}, err
	}
	key, _ := wgtypes.ParseKey(priv.Reveal()) // checked by wireGuardKey
	if err := checkPeerKeys(i, wg, key, secrets); err != nil {
		return wgquick.File{}, plan.Device{}, err
	}
	expect, err := expectDevice(wg, key, mtu.Value)
	if err != nil {
		return wgquick.File{}, plan.Device{}, fmt.Errorf("wireguard[%d]: %w", i, err)
	}
	f := wgquick.File{
		Header: plan.Managed("#"),
		Interface: wgquick.Interface{
			Address: wg.Address,
			// Always stated: the device and the CNI's MTU then follow one
			// number, instead of the CNI guessing what wg-quick would pick
			// at `up`.
			MTU:        mtu.Value,
			MTUComment: mtu.Why,
			ListenPort: wg.ListenPort,
			PrivateKey: priv,
		},
	}
	for j, p := range wg.Peers {
		pub, err := wgtypes.ParseKey(p.PublicKey)
		if err != nil {
			return wgquick.File{}, plan.Device{}, fmt.Errorf("%s: not a base64 32-byte wireguard key", finding.Path("wireguard").Index(i).Field("peers").Index(j).Field("publicKey"))
		}
		psk, err := wireGuardKey(secrets, schema.PresharedKeyPath(i, j), p.PresharedKey, p.PresharedKeyFrom != nil)
		if err != nil {
			return wgquick.File{}, plan.Device{}, err
		}
		f.Peers = append(f.Peers, wgquick.Peer{
			PublicKey:           pub,
			PresharedKey:        psk,
			Endpoint:            p.Endpoint,
			AllowedIPs:          p.AllowedIPs,
			PersistentKeepalive: p.PersistentKeepalive,
		})
	}
	return f, expect, nil
}

// wireGuardKey looks up a key and checks its shape, so a truncated secret
// fails here, naming the field, and not in wg-quick at boot.
func wireGuardKey(secrets Secrets, path string, inline *secret.Value, required bool) (secret.Value, error) {
	v, ok := lookupSecret(secrets, path, inline)
	if !ok {
		if required {
			return secret.Value{}, fmt.Errorf("%s: no resolved key; resolve the interface's secrets before rendering", path)
		}
		return secret.Value{}, nil
	}
	// The parse error is dropped on purpose: it may quote the key. Go's
	// base64 ignores stray bits after the last byte and wg does not, so
	// only the canonical spelling passes.
	trimmed := strings.TrimSpace(v.Reveal())
	if k, err := wgtypes.ParseKey(trimmed); err != nil || k.String() != trimmed {
		return secret.Value{}, fmt.Errorf("%s: not a base64 32-byte wireguard key; check the value's source", path)
	}
	return secret.NewValue(strings.TrimSpace(v.Reveal())), nil
}
