package wgquick_test

import (
	"reflect"
	"testing"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/wgquick"
)

// Whatever Parse reads, Marshal writes back to a file Parse reads to the
// same value, and the redacted form holds none of its secrets.
func FuzzParse(f *testing.F) {
	f.Add("[Interface]\nAddress = 10.0.0.1/24\nMTU = 1400\nPrivateKey = " + privKey + "\n\n[Peer]\nPublicKey = " + pubKey + "\nPresharedKey = " + pskKey + "\nAllowedIPs = 10.0.0.2/32\n")
	f.Add("# head\n[interface]\nprivate key=" + privKey + "\nPostUp = echo a=b # c\nSaveConfig = true\n[ Peer ]\npublickey=" + pubKey + "\npersistentkeepalive=off\n")
	f.Add("[ Interface ]\nMTU = 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		file, err := wgquick.Parse([]byte(text))
		if err != nil {
			return
		}
		again, err := wgquick.Parse(wgquick.Marshal(file))
		if err != nil {
			t.Fatalf("the marshalled file does not parse: %v\n%s", err, wgquick.Marshal(file))
		}
		if !reflect.DeepEqual(normal(file), normal(again)) {
			t.Fatalf("read back as\n%#v\nnot\n%#v", again, file)
		}
		// Every secret of the redacted form is the marker (a public key
		// may happen to spell a secret, so the text is not searched).
		shown := wgquick.SecretValues(wgquick.Marshal(file.Redacted()))
		if len(shown) != len(file.Secrets()) {
			t.Fatalf("the redacted form has %d secret lines, not %d", len(shown), len(file.Secrets()))
		}
		for _, s := range shown {
			if s != secret.Redacted {
				t.Fatalf("the redacted form holds a secret:\n%s", wgquick.Marshal(file.Redacted()))
			}
		}
	})
}

// normal drops what Marshal is not asked to keep: empty lists read as none.
func normal(f wgquick.File) wgquick.File {
	nilEmpty := func(s []string) []string {
		if len(s) == 0 {
			return nil
		}
		return s
	}
	i := &f.Interface
	i.Address, i.DNS, i.PreUp, i.PostUp, i.PreDown, i.PostDown = nilEmpty(i.Address), nilEmpty(i.DNS), nilEmpty(i.PreUp), nilEmpty(i.PostUp), nilEmpty(i.PreDown), nilEmpty(i.PostDown)
	for j := range f.Peers {
		f.Peers[j].AllowedIPs = nilEmpty(f.Peers[j].AllowedIPs)
	}
	return f
}
