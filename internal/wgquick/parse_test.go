package wgquick_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/wgquick"
)

const (
	privKey = "8HCFz/Yu0go67yQPkdQMmMFZtgrUX/PjNWIAvomh510="
	pubKey  = "FTk2vaoL1o1iTlThIwB4FnC/7TmUEEjCUIsjF3MvEVo="
	pskKey  = "YR4BxRzCZXdUNoxc5HKPmx8Z8TUNpeKnbmd4rWqFzBY="
)

// Spellings wg and wg-quick both accept, read to one value: keys in any
// case, blanks anywhere in a line wg reads, a [Peer] header with blanks
// (wg-quick only asks that it starts with '['), comments.
func TestParseSpellings(t *testing.T) {
	for name, text := range map[string]string{
		"canonical":  "[Interface]\nAddress = 10.0.0.1/24\nMTU = 1400\nPrivateKey = " + privKey + "\n\n[Peer]\nPublicKey = " + pubKey + "\nPresharedKey = " + pskKey + "\nAllowedIPs = 10.0.0.2/32\n",
		"lower case": "[interface]\naddress = 10.0.0.1/24\nmtu = 1400\nprivatekey = " + privKey + "\n[peer]\npublickey = " + pubKey + "\npresharedkey=" + pskKey + "\nallowedips = 10.0.0.2/32\n",
		"odd blanks": "  [Interface]  \n\tAddress=10.0.0.1/24\nMTU\t=1400 # set\nPrivate Key =  " + privKey[:10] + " " + privKey[10:] + "\t\n[ Peer ]\nPublic Key = " + pubKey + "\n Preshared\tKey= " + pskKey + "\nAllowedIPs = 10.0.0.2/32 ,\n",
		"upper case": "[INTERFACE]\nADDRESS = 10.0.0.1/24\nMTU = 1400\nPRIVATEKEY = " + privKey + "\n[PEER]\nPUBLICKEY = " + pubKey + "\nPRESHAREDKEY = " + pskKey + "\nALLOWEDIPS = 10.0.0.2/32\n",
	} {
		t.Run(name, func(t *testing.T) {
			f, err := wgquick.Parse([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			i := f.Interface
			if i.PrivateKey.Reveal() != privKey || i.MTU != 1400 || strings.Join(i.Address, ",") != "10.0.0.1/24" || len(f.Peers) != 1 {
				t.Fatalf("interface read as %+v, %d peers", i, len(f.Peers))
			}
			p := f.Peers[0]
			if p.PublicKey.String() != pubKey || p.PresharedKey.Reveal() != pskKey || strings.Join(p.AllowedIPs, ",") != "10.0.0.2/32" {
				t.Fatalf("peer read as %+v", p)
			}
			red := string(wgquick.Marshal(f.Redacted()))
			if strings.Contains(red, privKey) || strings.Contains(red, pskKey) || strings.Count(red, "[redacted]") != 2 {
				t.Errorf("redacted form:\n%s", red)
			}
		})
	}
}

// Files wg and wg-quick read differently are refused with a
// *DisagreeError that names the line and quotes nothing of it.
func TestParseDisagreements(t *testing.T) {
	for name, tc := range map[string]struct {
		text string
		line int
	}{
		"interface header with blanks": {"[ Interface ]\nAddress = 10.0.0.1/24\nPrivateKey = " + privKey + "\n", 1},
		"interface header split":       {"[Inter face]\nPrivateKey = " + privKey + "\n", 1},
		"wg-quick key with blanks":     {"[Interface]\nM T U = 1400\nPrivateKey = " + privKey + "\n", 2},
		"wg-quick header wg refuses":   {"[Interface]=\nPrivateKey = " + privKey + "\n", 1},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := wgquick.Parse([]byte(tc.text))
			var d *wgquick.DisagreeError
			if !errors.As(err, &d) || d.Line != tc.line {
				t.Fatalf("got %v, want a disagreement at line %d", err, tc.line)
			}
			if strings.Contains(err.Error(), privKey[:8]) {
				t.Errorf("error quotes the key: %v", err)
			}
		})
	}
}

// Lines a reader refuses are errors that quote nothing of the file.
func TestParseRefusals(t *testing.T) {
	for name, text := range map[string]string{
		"outside any section": "PrivateKey = " + privKey + "\n",
		"unknown key":         "[Interface]\nPrivateKee = " + privKey + "\n",
		"short key":           "[Interface]\nPrivateKey = " + privKey[:20] + "\n",
		"peer without key":    "[Interface]\nPrivateKey = " + privKey + "\n[Peer]\nPresharedKey = " + pskKey + "\n",
		"unknown section":     "[Interface]\n[Peers]\n",
		"empty value":         "[Interface]\nPrivateKey =\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := wgquick.Parse([]byte(text))
			if err == nil {
				t.Fatal("read without error")
			}
			if strings.Contains(err.Error(), privKey[:8]) || strings.Contains(err.Error(), pskKey[:8]) {
				t.Errorf("error quotes a key: %v", err)
			}
		})
	}
}

// ParsePeers takes the input of `wg addconf` alone.
func TestParsePeers(t *testing.T) {
	peers, err := wgquick.ParsePeers(wgquick.MarshalPeers([]wgquick.Peer{{AllowedIPs: []string{"10.0.0.2/32"}}}, ""))
	if err != nil || len(peers) != 1 {
		t.Fatalf("got %d peers, %v", len(peers), err)
	}
	if _, err := wgquick.ParsePeers([]byte("[Interface]\nListenPort = 1\n")); err == nil {
		t.Error("a file with an [Interface] read as peers alone")
	}
}
