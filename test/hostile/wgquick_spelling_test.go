package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	secretvalue "github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/wgquick"
)

// TestExistingWgQuickSpellingsLeakNoKey provisions the baseline, then
// puts in wg0's file keys found nowhere else (a key rotated out, say) in
// each spelling wg accepts: keys in any case, blanks anywhere, a [Peer]
// header with blanks. plan, plan --full and plan --format json, first boot
// and --again, and apply --again must show neither key in any form. A
// header "[ Interface ]", which wg reads as the header and wg-quick does
// not, is refused by the plan and by apply, which say so and quote nothing.
func TestExistingWgQuickSpellingsLeakNoKey(t *testing.T) {
	r := newRunSetup(t)
	baseFile := filepath.Join(r.work, "baseline.yaml")
	write(t, baseFile, r.base, 0o600)
	for _, c := range []struct {
		name    string
		respell func(priv, psk string) *strings.Replacer
		refused bool
	}{
		{"canonical", func(string, string) *strings.Replacer { return strings.NewReplacer() }, false},
		{"keys in lower case", func(string, string) *strings.Replacer {
			return strings.NewReplacer("PrivateKey = ", "privatekey = ", "PresharedKey = ", "presharedkey=")
		}, false},
		{"keys in upper case", func(string, string) *strings.Replacer {
			return strings.NewReplacer("PrivateKey = ", "PRIVATEKEY = ", "PresharedKey = ", "PRESHAREDKEY = ")
		}, false},
		{"blanks in names and values", func(priv, psk string) *strings.Replacer {
			return strings.NewReplacer("PrivateKey = "+priv, "Private Key=\t"+priv[:22]+" "+priv[22:], "PresharedKey = "+psk, "  Preshared\tKey =  "+psk[:10]+"  "+psk[10:])
		}, false},
		{"peer header with blanks", func(string, string) *strings.Replacer {
			return strings.NewReplacer("[Peer]", " [ Peer ] ", "PrivateKey = ", "PrivateKey=", "PresharedKey = ", "presharedKey =")
		}, false},
		{"interface header with blanks", func(string, string) *strings.Replacer {
			return strings.NewReplacer("[Interface]", "[ Interface ]", "PrivateKey = ", "privateKey=")
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := &agent{bin: r.bin, env: r.env, notes: notifytest.Listen(t)}
			root := newRoot(t, r.secrets)
			if code, out := a.run(t, "apply", "--root", root, "--config", baseFile, "--facts", r.factsFile); code != 0 {
				t.Fatalf("provisioning with the baseline:\n%s", out)
			}
			oldPriv, oldPSK := fixture.GenKey(t).String(), fixture.GenKey(t).String()
			confPath := filepath.Join(root, "etc/wireguard/wg0.conf")
			data, err := os.ReadFile(confPath)
			if err != nil {
				t.Fatal(err)
			}
			f, err := wgquick.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			f.Interface.PrivateKey = secretvalue.NewValue(oldPriv)
			withPSK := 0
			for i := range f.Peers {
				if !f.Peers[i].PresharedKey.IsZero() {
					f.Peers[i].PresharedKey = secretvalue.NewValue(oldPSK)
					withPSK++
				}
			}
			if withPSK == 0 {
				t.Fatal("the baseline's wg0 has no peer with a preshared key, so the search below is not of one")
			}
			spelled := c.respell(oldPriv, oldPSK).Replace(string(wgquick.Marshal(f)))
			write(t, confPath, spelled, 0o600)
			if c.name != "canonical" && spelled == string(wgquick.Marshal(f)) {
				t.Fatal("the spelling changed nothing")
			}

			var plans []string
			for _, again := range [][]string{nil, {"--again"}} {
				for _, format := range [][]string{nil, {"--full"}, {"--format", "json"}} {
					args := append(append([]string{"plan", "--root", root, "--config", baseFile, "--facts", r.factsFile}, again...), format...)
					_, out := a.run(t, args...)
					plans = append(plans, out)
				}
			}
			code, applied := a.run(t, "apply", "--again", "--root", root, "--config", baseFile, "--facts", r.factsFile)
			a.run(t, "status", "--root", root, "--format", "json")

			const refusal = "wg and wg-quick read this file differently"
			// A first boot's plan builds on no last run, and shows the file
			// it would replace; an again run builds on it, or refuses.
			for i, out := range append(plans, applied) {
				again := i >= 3
				switch {
				case c.refused && again && !strings.Contains(out, refusal):
					t.Errorf("the file is not refused:\n%s", out)
				case (!c.refused || !again) && !strings.Contains(out, "/etc/wireguard/wg0.conf"):
					t.Errorf("the output does not show wg0's file, so the search below is not of it:\n%s", out)
				}
			}
			if c.refused != (code != 0) {
				t.Errorf("apply --again: exit %d, refused %v:\n%s", code, c.refused, applied)
			}
			// The --full plan shows the file's lines: each key line, and no key.
			if full := plans[4]; !c.refused && !strings.Contains(full, "wg0.conf") {
				t.Errorf("plan --again --full shows no wg0.conf:\n%s", full)
			}
			all := strings.Join(append(a.out, a.notes.Text()), "\n")
			old := map[string]secret{"the old private key": {value: oldPriv}, "the old preshared key": {value: oldPSK}}
			if found := leaks(all, old); len(found) > 0 {
				t.Errorf("the outputs show %v:\n%s", found, all)
			}
			if found := leaks(all, r.secrets); len(found) > 0 {
				t.Errorf("the outputs show %v:\n%s", found, all)
			}
		})
	}
}
