package apply_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/ondisk"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestWireGuardPeersApply applies an again run that adds a peer with a
// preshared key to wg1 and removes one from wg0: wg is handed the added
// peer's section of the new file alone (its preshared key, no [Interface],
// no other peer) and the removed peer's key, systemd reloads and restarts
// nothing, and neither status, the log nor the recorded calls show the
// preshared key.
func TestWireGuardPeersApply(t *testing.T) {
	ctx := context.Background()
	psk := fixture.GenKey(t).String()
	root := rootfs.New(t.TempDir())
	applied := rendertest.TwoInterfaceConfig(schema.RoleWorker)
	applied.WireGuard[0].Peers = append(applied.WireGuard[0].Peers, schema.Peer{PublicKey: rendertest.PubB, AllowedIPs: []string{"10.10.0.3/32"}})
	secrets := rendertest.TwoInterfaceSecrets()
	first := overlaySteps(t, render.Inputs{Config: applied, Secrets: secrets})
	devs, links := applytest.LiveDevicesFor(t, first...)
	ex := &apply.Executor{Root: root, LiveUnderRoot: true, Live: &apply.LiveHost{Systemd: &systemdtest.Fake{}, Verifier: apply.Verifier{Devices: devs, Links: links}}}
	if _, err := ex.Apply(ctx, &plan.Plan{Steps: first}); err != nil {
		t.Fatal(err)
	}

	next := rendertest.TwoInterfaceConfig(schema.RoleWorker)
	v := secret.NewValue(psk)
	next.WireGuard[1].Peers = append(next.WireGuard[1].Peers, schema.Peer{PublicKey: rendertest.PubD, AllowedIPs: []string{"fd20::5/128"}, PresharedKey: &v})
	prev := ondisk.ReadPrevious(root, applied)
	steps := overlaySteps(t, render.Inputs{Config: next, Secrets: secrets, Previous: prev})
	devs, links = applytest.LiveDevicesFor(t, steps...)
	sd, peers := &systemdtest.Fake{}, &applytest.RecordingPeers{}
	var log bytes.Buffer
	ex = &apply.Executor{Root: root, LiveUnderRoot: true, Log: slog.New(slog.NewTextHandler(&log, nil)),
		Live: &apply.LiveHost{Systemd: sd, Peers: peers, Root: root, Verifier: apply.Verifier{Devices: devs, Links: links}}}
	st, err := ex.Apply(ctx, &plan.Plan{Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	want := "remove wg0 " + rendertest.PubB + "\naddconf wg1 peer=" + rendertest.PubD + " presharedKey=set\n"
	if got := peers.Text(); got != want {
		t.Errorf("wg was asked:\n%s\nwant:\n%s", got, want)
	}
	sent := peers.Sent()
	if len(sent) != 1 {
		t.Fatalf("%d files handed to addconf, want 1", len(sent))
	}
	wantSent := "[Peer]\nPublicKey = " + rendertest.PubD + "\nPresharedKey = " + psk + "\nAllowedIPs = fd20::5/128\n"
	if string(sent[0]) != wantSent {
		t.Errorf("addconf read:\n%s\nwant the added peer's section alone (its preshared key shown here as it is, the test's own)", sent[0])
	}
	if got := sd.Text(); strings.Contains(got, "reload wg-quick") || strings.Contains(got, "restart") {
		t.Errorf("systemd was asked to reload or restart an interface:\n%s", got)
	}
	js, _ := json.Marshal(st)
	for _, s := range []string{string(js), log.String(), peers.Text(), sd.Text()} {
		if strings.Contains(s, psk) || strings.Contains(s, rendertest.PSK) {
			t.Errorf("a preshared key shows in status, the log or a recorded call:\n%s", s)
		}
	}
	if !strings.Contains(string(js), `"kind":"wireguard-peers","unit":"wg-quick@wg1.service","args":["wg1","add=`+rendertest.PubD+`"],"outcome":"done"`) {
		t.Errorf("status does not report wg1's peer added:\n%s", js)
	}

	// The same document again: the file is unchanged, wg is asked nothing.
	again := &applytest.RecordingPeers{}
	ex.Live = &apply.LiveHost{Systemd: &systemdtest.Fake{}, Peers: again, Root: root, Verifier: apply.Verifier{Devices: devs, Links: links}}
	steps = overlaySteps(t, render.Inputs{Config: next, Secrets: secrets, Previous: ondisk.ReadPrevious(root, next)})
	if _, err := ex.Apply(ctx, &plan.Plan{Steps: steps}); err != nil {
		t.Fatal(err)
	}
	if again.Text() != "" {
		t.Errorf("an unchanged file changed peers:\n%s", again.Text())
	}
}

// A failing wg stops the step with an error naming the interface and no
// secret; a file that lost the added peer's section is refused before wg.
func TestWireGuardPeersFailures(t *testing.T) {
	ctx := context.Background()
	root := rootfs.New(t.TempDir())
	psk := fixture.GenKey(t).String()
	conf := "[Interface]\nPrivateKey = " + rendertest.PrivA + "\n\n[Peer]\nPublicKey = " + rendertest.PubD + "\nPresharedKey = " + psk + "\nAllowedIPs = 10.10.0.4/32\n"
	if _, err := root.WriteFile("/etc/wireguard/wg0.conf", []byte(conf), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	key := func(s string) plan.Key {
		var k plan.Key
		if err := k.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		return k
	}
	for _, c := range []struct {
		name   string
		change plan.PeerChange
		err    error
		want   string
	}{
		{"wg fails", plan.PeerChange{Interface: "wg0", Conf: "/etc/wireguard/wg0.conf", Add: []plan.Key{key(rendertest.PubD)}}, errors.New("exit status 1"),
			"adding peers to wireguard wg0: exit status 1"},
		{"the section is gone", plan.PeerChange{Interface: "wg0", Conf: "/etc/wireguard/wg0.conf", Add: []plan.Key{key(rendertest.PubB)}}, nil,
			"adding peers to wireguard wg0: /etc/wireguard/wg0.conf does not hold one [Peer] section for each added peer"},
		{"the removal fails", plan.PeerChange{Interface: "wg0", Remove: []plan.Key{key(rendertest.PubB)}}, errors.New("exit status 1"),
			"removing peers from wireguard wg0: exit status 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			peers := &applytest.RecordingPeers{Err: c.err}
			h := &apply.LiveHost{Peers: peers, Root: root}
			err := h.Do(ctx, plan.Action{Kind: plan.ActionWireGuardPeers, Unit: "wg-quick@wg0.service", Peers: &c.change})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), psk) || strings.Contains(err.Error(), rendertest.PrivA) {
				t.Errorf("the error shows a key: %v", err)
			}
		})
	}
}
