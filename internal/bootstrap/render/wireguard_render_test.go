package render

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
)

func TestRenderWireGuardNoInterfaces(t *testing.T) {
	step, err := RenderWireGuard(&schema.Config{Role: schema.RoleSingle}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if step.Name != StepWireGuard || len(step.Files)+len(step.Links)+len(step.Actions) != 0 {
		t.Errorf("no interfaces rendered %+v, want an empty step", step)
	}
}

func TestRenderWireGuardDeterministic(t *testing.T) {
	a, err := RenderWireGuard(twoInterfaceConfig(schema.RoleController), twoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		b, _ := RenderWireGuard(twoInterfaceConfig(schema.RoleController), twoInterfaceSecrets())
		for i := range a.Files {
			if !bytes.Equal(a.Files[i].Content, b.Files[i].Content) {
				t.Fatalf("%s differs between two renders of the same input", a.Files[i].Path)
			}
		}
	}
}

func TestRenderWireGuardKeyErrors(t *testing.T) {
	cases := []struct {
		name    string
		secrets Secrets
		want    string
	}{
		{"unresolved private key", Secrets{"wireguard[1].peers[0].presharedKeyFrom": secret.NewValue(testPSK)},
			"wireguard[1].privateKey: no resolved key"},
		{"unresolved preshared key", Secrets{"wireguard[1].privateKeyFrom": secret.NewValue(testPrivB)},
			"wireguard[1].peers[0].presharedKey: no resolved key"},
		{"truncated private key", Secrets{"wireguard[1].privateKeyFrom": secret.NewValue(testPrivB[:20]),
			"wireguard[1].peers[0].presharedKeyFrom": secret.NewValue(testPSK)},
			"wireguard[1].privateKey: not a base64 32-byte wireguard key"},
		{"garbage preshared key", Secrets{"wireguard[1].privateKeyFrom": secret.NewValue(testPrivB),
			"wireguard[1].peers[0].presharedKeyFrom": secret.NewValue("hunter2-" + testPSK)},
			"wireguard[1].peers[0].presharedKey: not a base64 32-byte wireguard key"},
		// The peer's key is what the node was handed as a secret: it would
		// be printed wherever public keys are.
		{"resolved private key is a peer's key", Secrets{"wireguard[1].privateKeyFrom": secret.NewValue(testPubC),
			"wireguard[1].peers[0].presharedKeyFrom": secret.NewValue(testPSK)},
			"wireguard[1].peers[0].publicKey: is the secret read for wireguard[1].privateKeyFrom, not a public key"},
		{"resolved preshared key is another interface's peer key", Secrets{"wireguard[1].privateKeyFrom": secret.NewValue(testPrivB),
			"wireguard[1].peers[0].presharedKeyFrom": secret.NewValue(testPubE)},
			"wireguard[0].peers[0].publicKey: is the secret read for wireguard[1].peers[0].presharedKeyFrom, not a public key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := RenderWireGuard(twoInterfaceConfig(schema.RoleWorker), c.secrets)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			for _, v := range c.secrets {
				if strings.Contains(err.Error(), v.Reveal()) {
					t.Errorf("error shows the secret: %v", err)
				}
			}
		})
	}
}

// A key read from a source is known only at apply: a peer that is the
// interface itself is refused then, naming the field, never the key.
func TestRenderWireGuardRefusesOwnResolvedKeyAsPeer(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	cfg.WireGuard[1].Peers[0].PublicKey = testPubD
	secrets := twoInterfaceSecrets()
	secrets["wireguard[1].privateKeyFrom"] = secret.NewValue(testPrivD)
	_, err := RenderWireGuard(cfg, secrets)
	if err == nil || !strings.HasPrefix(err.Error(), "wireguard[1].peers[0].publicKey: is this interface's own public key") {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), testPrivD) || strings.Contains(err.Error(), testPubD) {
		t.Errorf("the error shows a key: %v", err)
	}
}

func TestRenderWireGuardSecretPrecedence(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	secrets := twoInterfaceSecrets()
	// A resolved value under the inline path wins over the config's own.
	secrets["wireguard[0].privateKey"] = secret.NewValue(testPrivD)
	step, err := RenderWireGuard(cfg, secrets)
	if err != nil {
		t.Fatal(err)
	}
	conf := string(fileAt(t, step, WireGuardConfPath("wg0")).Content)
	if !strings.Contains(conf, "PrivateKey = "+testPrivD+"\n") {
		t.Errorf("wg0.conf does not use the resolved key:\n%s", conf)
	}
	if e := applytest.DeviceOf(t, step); e.PublicKey.String() != testPubD {
		t.Errorf("expected public key %s, want %s (derived from the key written)", e.PublicKey, testPubD)
	}
}

// TestWireGuardSecretsNeverShown renders and applies the overlay with a fake
// systemd and searches every output the agent makes of it (plan, action
// lines, status, logs of the executor, node-address decision, errors) for the
// private and preshared keys, which must appear only in the 0600 files.
func TestWireGuardSecretsNeverShown(t *testing.T) {
	values := []string{testPrivA, testPrivB, testPSK}
	cfg := twoInterfaceConfig(schema.RoleControllerWorker)
	step, err := RenderWireGuard(cfg, twoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	var outputs bytes.Buffer
	stepJSON, _ := json.Marshal(step)
	outputs.Write(stepJSON)
	for _, a := range step.Actions {
		outputs.WriteString(a.String() + "\n")
	}
	cfgJSON, _ := json.Marshal(cfg)
	outputs.Write(cfgJSON)
	decision, _ := json.Marshal(SelectNodeAddress(cfg, schema.Effective(cfg), nil))
	outputs.Write(decision)

	devs, links := applytest.LiveDevicesFor(t, step)
	devs["wg0"].PublicKey = devs["wg1"].PublicKey // a mismatch, so an error is produced too
	root := rootfs.New(t.TempDir())
	var log bytes.Buffer
	ex := &apply.Executor{Root: root, LiveUnderRoot: true, Log: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Live: &apply.LiveHost{Systemd: &systemdtest.Fake{}, Verifier: apply.Verifier{Devices: devs, Links: links}}}
	st, err := ex.Apply(context.Background(), &plan.Plan{Steps: []plan.Step{step}})
	if err == nil {
		t.Fatal("the mismatched device passed verification")
	}
	outputs.WriteString(err.Error())
	stJSON, _ := json.Marshal(st)
	outputs.Write(stJSON)
	outputs.Write(log.Bytes())

	for _, v := range values {
		if bytes.Contains(outputs.Bytes(), []byte(v)) {
			t.Errorf("a secret value appears in the agent's output:\n%s", outputs.String())
		}
	}
	// Positive controls: the outputs searched are the real ones, and the
	// values do reach their one destination.
	if !bytes.Contains(outputs.Bytes(), []byte(testPubB)) || !bytes.Contains(outputs.Bytes(), []byte("public key is")) {
		t.Fatalf("the outputs searched lack the public key and the verification error:\n%s", outputs.String())
	}
	for _, p := range []string{WireGuardConfPath("wg0"), WireGuardConfPath("wg1")} {
		data, err := root.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte("PrivateKey = ")) {
			t.Errorf("%s holds no private key", p)
		}
	}
	if data, _ := root.ReadFile(WireGuardConfPath("wg1")); !bytes.Contains(data, []byte(testPSK)) {
		t.Error("wg1.conf does not hold the preshared key")
	}
}
