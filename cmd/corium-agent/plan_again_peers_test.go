package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// An again run that only swaps wg0's second peer for a new one with a
// preshared key is shown, planned and recorded as a wireguard-peers action,
// in text and JSON, with no secret anywhere.
func TestPlanAgainShowsWireGuardPeers(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	if code, out, errOut := runCLI(t, demoArgs("apply", root)...); code != exitOK {
		t.Fatalf("apply: %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const gone = "8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc="
	old := "      - publicKey: " + gone + "\n        endpoint: 192.0.2.13:51820\n        allowedIPs: [10.10.0.3/32]\n"
	added := fixture.GenKey(t).PublicKey().String()
	if !strings.Contains(string(data), old) {
		t.Fatal("demo config changed shape: no second wg0 peer")
	}
	doc := strings.Replace(string(data), old, "      - publicKey: "+added+"\n        allowedIPs: [10.10.0.4/32]\n        presharedKeyFrom: {file: /run/corium/secrets/wg0-c2.psk}\n", 1)
	config := filepath.Join(t.TempDir(), "again.yaml")
	if err := os.WriteFile(config, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--again", "--root", root, "--config", config, "--facts", filepath.Join(demo, "facts.json")}
	outputs := map[string]string{}
	code, out, errOut := runCLI(t, append([]string{"plan"}, args...)...)
	if code != exitOK {
		t.Fatalf("plan --again: exit %d\n%s%s", code, out, errOut)
	}
	outputs["plan"], outputs["plan stderr"] = out, errOut
	want := "action    wireguard-peers wg-quick@wg0.service wg0 add=" + added + " remove=" + gone + " ("
	if !strings.Contains(out, want) {
		t.Errorf("plan --again lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "action    reload wg-quick@wg0") || strings.Contains(out, "action    restart wg-quick@wg0") {
		t.Errorf("plan --again reloads or restarts wg0 for a change of whole peers:\n%s", out)
	}
	code, out, errOut = runCLI(t, append([]string{"plan", "--format", "json"}, args...)...)
	if code != exitOK || !strings.Contains(out, `"kind": "wireguard-peers"`) {
		t.Errorf("plan --again --format json: exit %d, no wireguard-peers action:\n%s%s", code, out, errOut)
	}
	outputs["plan json"], outputs["plan json stderr"] = out, errOut
	code, out, errOut = runCLI(t, append([]string{"apply"}, args...)...)
	if code != exitOK {
		t.Fatalf("apply --again: exit %d\n%s%s", code, out, errOut)
	}
	outputs["apply"], outputs["apply stderr"] = out, errOut
	_, raw := readStatus(t, root)
	if !strings.Contains(raw, `"kind": "wireguard-peers"`) {
		t.Errorf("status does not record the wireguard-peers action:\n%s", raw)
	}
	outputs["status"] = raw
	noDemoSecrets(t, fixture.DemoSecrets(t, demo), outputs)
}
