package plan

import (
	"fmt"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

func TestParseSections(t *testing.T) {
	a, b := mustKey(t), mustKey(t)
	psk := mustKey(t).String()
	conf := fmt.Sprintf("# managed\n[Interface]\nAddress = 10.0.0.1/24  # ours\nPrivateKey = %s\n\n[peer]\n  PublicKey = %s\nPresharedKey = %s\nAllowedIPs = 10.0.0.2/32, 10.0.0.3/32\n[Peer]\npublickey=%s\n", mustKey(t), a, psk, b)
	s, ok := ParseSections([]byte(conf))
	if !ok || len(s.Peers) != 2 || s.Peers[0].Key != a || s.Peers[1].Key != b {
		t.Fatalf("ParseSections = %v, %v", s, ok)
	}
	if got := strings.Join(s.Interface, "|"); !strings.HasPrefix(got, "Address=10.0.0.1/24|PrivateKey=") {
		t.Errorf("interface lines %q, want wg's spelling: comments cut, blanks gone", got)
	}
	text, ok := s.Text([]Key{a})
	want := "[Peer]\nPublicKey=" + a.String() + "\nPresharedKey=" + psk + "\nAllowedIPs=10.0.0.2/32,10.0.0.3/32\n"
	if !ok || string(text) != want {
		t.Errorf("Text = %q, want %q", text, want)
	}
	if _, ok := s.Text([]Key{mustKey(t)}); ok {
		t.Error("Text of a peer the file lacks succeeded")
	}
	if shown := fmt.Sprint(s, s.Peers[0]); strings.Contains(shown, psk) {
		t.Errorf("printing the sections shows the preshared key: %s", shown)
	}
	for name, bad := range map[string]string{
		"a line before any section": "Address = 10.0.0.1/24\n[Peer]\nPublicKey = " + a.String() + "\n",
		"a peer without a key":      "[Peer]\nAllowedIPs = 10.0.0.2/32\n",
		"a peer with two keys":      "[Peer]\nPublicKey = " + a.String() + "\nPublicKey = " + b.String() + "\n",
		"two sections of one peer":  "[Peer]\nPublicKey = " + a.String() + "\n[Peer]\nPublicKey = " + a.String() + "\n",
		"a malformed key":           "[Peer]\nPublicKey = notakey\n",
	} {
		if _, ok := ParseSections([]byte(bad)); ok {
			t.Errorf("%s: parsed", name)
		}
	}
}

func mustKey(t *testing.T) Key {
	t.Helper()
	k, err := wgtypes.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	return Key(k.PublicKey())
}
