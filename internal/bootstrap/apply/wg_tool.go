package apply

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/wgquick"
)

// WgTool changes peers with wireguard-tools' wg, the program wg-quick
// itself runs, so the file's format, a host name endpoint's resolution and
// the kernel's or wireguard-go's interface are wg's alone, as they are on a
// reload.
type WgTool struct {
	// Path is the wg binary; "" finds wg on PATH.
	Path string
}

func (w WgTool) bin() string {
	if w.Path == "" {
		return "wg"
	}
	return w.Path
}

// AddPeers runs `wg addconf IF /dev/stdin` with conf on its standard input,
// so the sections, preshared keys among them, are on no command line and
// in no other file. A file without [Interface] sets no device field: wg's
// config_read_init with append sets no WGDEVICE_ flag.
func (w WgTool) AddPeers(ctx context.Context, iface string, conf []byte) error {
	cmd := exec.CommandContext(ctx, w.bin(), "addconf", iface, "/dev/stdin")
	cmd.Stdin = bytes.NewReader(conf)
	out, err := cmd.CombinedOutput()
	if err != nil {
		// wg quotes a line or a key it cannot parse: mask the file's
		// preshared keys, as wg read them, in what it said.
		return fmt.Errorf("wg addconf %s: %w: %s", iface, err, secret.MaskValues(tail(out), wgquick.SecretValues(conf)))
	}
	return nil
}

// RemovePeers runs `wg set IF peer KEY remove ...`, which sends each peer
// alone with WGPEER_F_REMOVE_ME; a peer the device does not have is no
// error.
func (w WgTool) RemovePeers(ctx context.Context, iface string, keys []plan.Key) error {
	args := []string{"set", iface}
	for _, k := range keys {
		args = append(args, "peer", k.String(), "remove")
	}
	if out, err := exec.CommandContext(ctx, w.bin(), args...).CombinedOutput(); err != nil {
		return fmt.Errorf("wg set %s ... remove: %w: %s", iface, err, tail(out))
	}
	return nil
}

// tail is a command's output for an error: its last 400 bytes, where a
// tool says why it failed.
func tail(out []byte) string {
	s := strings.TrimSpace(string(out))
	if len(s) > 400 {
		s = "..." + s[len(s)-400:]
	}
	return s
}
