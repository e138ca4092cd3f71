package apply_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
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

// A wg that quotes every line it read, as it quotes a line it cannot
// parse: the keys the file holds under a secret key, however spelled and
// whether or not they are keys, are masked in the error.
func TestWgToolMasksEverySpelling(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "wg")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\ncat\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	psk := fixture.GenKey(t).String()
	const bad = "thisisnotakeybutasecretAAAAAAAAAAAAAAAAAAA"
	for name, line := range map[string]string{
		"canonical":          "PresharedKey = " + psk,
		"lower case":         "presharedkey=" + psk,
		"blanks in the name": " Preshared Key =\t" + psk,
		"malformed":          "PresharedKey = " + bad,
	} {
		t.Run(name, func(t *testing.T) {
			conf := "[Peer]\nPublicKey = " + rendertest.PubD + "\n" + line + "\n"
			err := apply.WgTool{Path: fake}.AddPeers(context.Background(), "cxnodevice", []byte(conf))
			if err == nil || !strings.Contains(err.Error(), rendertest.PubD) {
				t.Fatalf("err = %v, want the fake wg's output", err)
			}
			if strings.Contains(err.Error(), psk) || strings.Contains(err.Error(), bad) {
				t.Errorf("the error shows the preshared key: %v", err)
			}
		})
	}
}
