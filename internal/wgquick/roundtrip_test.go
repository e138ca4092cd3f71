package wgquick_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/wgquick"
)

// Every wg-quick file of the golden trees reads back to a value that
// marshals to the same bytes: the header and the MTU comment included.
func TestGoldenRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../testdata/render/*/expected/etc/wireguard/*.conf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden wg-quick files: %v", err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := wgquick.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if f.Interface.PrivateKey.IsZero() || len(f.Peers) == 0 || f.Interface.MTU == 0 || f.Header == "" {
			t.Errorf("%s: read without its key, peers, MTU or header: %+v", path, f)
		}
		if got := wgquick.Marshal(f); string(got) != string(data) {
			t.Errorf("%s: marshals to\n%s\nnot\n%s", path, got, data)
		}
	}
}
