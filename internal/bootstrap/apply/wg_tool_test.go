package apply_test

import (
	"context"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// wg quotes a key it cannot parse (config.c parse_key): the error of a
// failed addconf masks the file's preshared keys. The parse fails before wg
// looks for the device, so no device is needed.
func TestWgToolMasksWhatWgQuotes(t *testing.T) {
	host.RequireCommands(t, "wg")
	const bad = "thisisnotakeybutasecretAAAAAAAAAAAAAAAAAAA"
	conf := "[Peer]\nPublicKey=" + rendertest.PubD + "\nPresharedKey=" + bad + "\n"
	err := apply.WgTool{}.AddPeers(context.Background(), "cxnodevice", []byte(conf))
	if err == nil {
		t.Fatal("wg addconf took a malformed preshared key")
	}
	if strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "not the correct length or format") {
		t.Errorf("err = %v, want wg's words with the key masked", err)
	}
}
