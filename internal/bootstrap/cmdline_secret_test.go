package bootstrap

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
)

// A document inline on the kernel command line is in /proc/cmdline, which
// every user of the node reads: each inline secret in it is a warning that
// names the field, in the log and in the status; a secret from a source is
// not.
func TestInlineSecretOnTheKernelCommandLineWarns(t *testing.T) {
	const doc = `role: single
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKey: aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9w=
    peers:
      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
        allowedIPs: [10.10.0.2/32]
        presharedKeyFrom: {file: /run/psk}
`
	for _, tc := range []struct {
		name, cmdline string
		warned        bool
	}{
		{"inline on the command line", "corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(doc)), true},
		{"a path on the command line", "corium.config=/run/node.yaml", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, content := range map[string]string{
				"proc/cmdline":  "BOOT_IMAGE=/vmlinuz " + tc.cmdline + "\n",
				"run/node.yaml": doc,
				"run/psk":       "YmFzZTY0IG9mIDMyIGJ5dGVzIG9mIHByZXNoYXJlZCE=\n",
			} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			root := rootfs.New(dir)
			var log bytes.Buffer
			o := demoOptions(root, &log)
			o.ConfigFile, o.FactsFile = "", ""
			st, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			var warned []string
			for _, w := range st.Validation.Warnings {
				if strings.Contains(w.Message, "/proc/cmdline") {
					warned = append(warned, w.Path)
				}
			}
			switch {
			case tc.warned && (len(warned) != 1 || warned[0] != "wireguard[0].privateKey"):
				t.Errorf("warnings for %v, want wireguard[0].privateKey alone: %+v", warned, st.Validation.Warnings)
			case !tc.warned && len(warned) > 0:
				t.Errorf("a document not on the command line was warned about: %v", warned)
			}
			if tc.warned && !strings.Contains(log.String(), "wireguard[0].privateKey: is an inline secret on the kernel command line") {
				t.Errorf("the log does not carry the warning:\n%s", log.String())
			}
		})
	}
}
