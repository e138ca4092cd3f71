package cluster_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A missing peer entry and a missing allowedIPs address come with the YAML
// to add, built from the other document's public values, in JSON as "fix";
// no secret, nor where one is read from, is in it.
func TestClusterPrintsTheFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  edit
		wants []string
	}{
		{"a missing peer entry", edit{"a2.yaml", "      - publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc= # a1\n        endpoint: 192.0.2.11:51820\n        allowedIPs: [10.30.0.1/32]\n        presharedKey: " + psk + "\n", ""},
			[]string{
				"# add to " + a2File + " wireguard[0].peers, for a1 (a1.yaml wireguard[0]):\n" +
					"- publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc=\n" +
					"  endpoint: 192.0.2.11:51820\n" +
					"  allowedIPs: [10.30.0.1/32]\n" +
					"  # and presharedKey or presharedKeyFrom, the same key as a1.yaml wireguard[0].peers[0].presharedKey\n",
			}},
		{"a missing allowedIPs address", edit{"a1.yaml", "allowedIPs: [10.30.0.11/32]", "allowedIPs: [10.30.0.12/32]"},
			[]string{"allowedIPs: [10.30.0.12/32, 10.30.0.11/32]\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := checkSet(t, false, tc.edit)
			out, err := json.Marshal(fs)
			if err != nil {
				t.Fatal(err)
			}
			var got []struct{ Fix string }
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			var fixes strings.Builder
			for _, f := range got {
				fixes.WriteString(f.Fix)
			}
			for _, w := range tc.wants {
				if !strings.Contains(fixes.String(), w) {
					t.Errorf("no fix %q in:\n%s", w, out)
				}
			}
			for _, secret := range []string{a1Private, psk, "corium.wg0", "credential"} {
				if strings.Contains(fixes.String(), secret) {
					t.Errorf("a fix shows a secret or its source:\n%s", fixes.String())
				}
			}
		})
	}
}

// An interface whose private key its own file refuses has only its stated
// publicKey, which may be a secret from elsewhere pasted there (the set
// cannot recognise it): it is never put in a fix: the finding
// stays, with nothing to copy.
const outsideSecret = "IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk="

func TestClusterFixNeverCopiesARefusedKey(t *testing.T) {
	fs := checkSet(t, true,
		edit{"a1.yaml", "    privateKey: " + a1Private + "\n", "    privateKey: x" + a1Private + "\n    publicKey: " + outsideSecret + "\n"},
		edit{"a2.yaml", "      - publicKey: Mkpl/vcJ4FmX/PyiqaK99Ch21Mo6YxfWheNYUPF1wlc= # a1\n        endpoint: 192.0.2.11:51820\n        allowedIPs: [10.30.0.1/32]\n        presharedKey: " + psk + "\n", ""},
	)
	expect(t, fs, want{"a1.yaml", "wireguard[0].peers[0].publicKey", errorSev, "has no peer for a1 (a1.yaml wireguard[0])"})
	out, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), outsideSecret) {
		t.Errorf("a fix copies a refused key:\n%s", out)
	}
}
