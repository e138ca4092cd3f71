package report

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestNoKeyInAnyOutput: the device read back holds the private and preshared
// keys (wgctrl returns them to root), the configuration holds them and the
// join token inline; a fully populated report, as JSON and as text, holds
// none of them in any encoding.
func TestNoKeyInAnyOutput(t *testing.T) {
	n := newNode(t, "wg0")
	o, dev := healthy(t, n, 10*time.Second)
	o.Root = provision(t, n)
	if dev.PrivateKey != n.priv || dev.Peers[0].PresharedKey != n.psk {
		t.Fatal("the fake device must carry the keys the report must not show")
	}
	dev.Peers = append(dev.Peers, dev.Peers[0]) // a foreign peer: drift too
	dev.Peers[1].PublicKey = fixture.GenKey(t).PublicKey()
	r := Inspect(context.Background(), o)
	if r.NodeAddress.Decision == nil || r.Firewall == nil || r.K0s == nil || len(r.Interfaces[0].Peers) == 0 || len(r.Interfaces[0].Drift) == 0 || r.LastRun == nil || r.Provenance == nil {
		t.Fatalf("the report is not fully populated: %+v", r)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"json": string(js), "text": textOf(r)}
	for _, s := range n.secrets() {
		forms := []string{s}
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			forms = append(forms, hex.EncodeToString(b))
		}
		for name, out := range outputs {
			for _, f := range forms {
				if strings.Contains(out, f) {
					t.Errorf("%s output holds a secret", name)
				}
			}
		}
	}
	if !strings.Contains(string(js), n.priv.PublicKey().String()) {
		t.Error("the public key is missing, so the search above proves little")
	}
}

// TestNoKeyFieldInTheTypes walks every type the report is made of: no field
// may be named for a private or preshared key, or hold a wgtypes.Key.
func TestNoKeyFieldInTheTypes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.PkgPath() == "golang.zx2c4.com/wireguard/wgctrl/wgtypes" {
			t.Errorf("%s is a wgtypes value, which can carry keys", path)
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty.PkgPath() == "time" {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			name := strings.ToLower(f.Name + " " + f.Tag.Get("json"))
			if strings.Contains(name, "private") || strings.Contains(name, "preshared") || strings.Contains(name, "secret") || strings.Contains(name, "token") {
				t.Errorf("field %s.%s could hold a secret", path, f.Name)
			}
			walk(f.Type, path+"."+f.Name)
		}
	}
	walk(reflect.TypeOf(Report{}), "Report")
	if len(seen) < 10 {
		t.Errorf("walked only %d types", len(seen))
	}
}
