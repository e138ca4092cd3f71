package render

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// A stated publicKey is held to the resolved private key at apply, naming
// the field and where the key came from, never a key.
func TestCheckResolvedKeys(t *testing.T) {
	for _, tc := range []struct {
		name, stated, want string
	}{
		{"the key the resolved one derives", testPubB, ""},
		{"another key", testPubD, "wireguard[1].publicKey: is not the public key of the private key read from wireguard[1].privateKeyFrom (/run/corium/wg1.key): the node was given another key"},
		{"the resolved private key itself", testPrivB, "wireguard[1].publicKey: is the private key read from wireguard[1].privateKeyFrom (/run/corium/wg1.key) itself, not its public key"},
		{"the resolved preshared key", testPSK, "wireguard[1].publicKey: is the secret read for wireguard[1].peers[0].presharedKeyFrom, not a public key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := twoInterfaceConfig(schema.RoleWorker)
			cfg.WireGuard[1].PublicKey = tc.stated
			err := CheckResolvedKeys(cfg, twoInterfaceSecrets())
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused the right key: %v", err)
			case tc.want == "":
				return
			case err == nil || !strings.HasPrefix(err.Error(), tc.want):
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			for _, k := range []string{testPrivB, testPubB, testPSK, testPubD} {
				if strings.Contains(err.Error(), k) {
					t.Errorf("the error shows a key: %v", err)
				}
			}
		})
	}
}

// An interface without a stated key, or with an inline private key that
// derives it, passes; every interface is checked, each error joined.
func TestCheckResolvedKeysEveryInterface(t *testing.T) {
	cfg := twoInterfaceConfig(schema.RoleWorker)
	if err := CheckResolvedKeys(cfg, twoInterfaceSecrets()); err != nil {
		t.Fatalf("no publicKey stated: %v", err)
	}
	cfg.WireGuard[0].PublicKey = testPubA
	if err := CheckResolvedKeys(cfg, twoInterfaceSecrets()); err != nil {
		t.Fatalf("the inline key's own public key: %v", err)
	}
	cfg.WireGuard[0].PublicKey, cfg.WireGuard[1].PublicKey = testPubD, testPubD
	err := CheckResolvedKeys(cfg, twoInterfaceSecrets())
	if err == nil || !strings.Contains(err.Error(), "wireguard[0].publicKey: is not the public key of the private key read from wireguard[0].privateKey:") ||
		!strings.Contains(err.Error(), "wireguard[1].publicKey:") {
		t.Errorf("got %v, want both interfaces named", err)
	}
}

// A key read from a source is held at apply to the rule validation holds
// the document's keys to (schema.NodeKeyClashes): a peer is never another
// interface of this node, and no two interfaces share a key. The messages
// name both fields and no private key.
func TestCheckResolvedKeysAcrossInterfaces(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    func(*schema.Config, Secrets)
		want    string
		private string
	}{
		{"a peer is another interface's resolved key", func(c *schema.Config, _ Secrets) { c.WireGuard[0].Peers[0].PublicKey = testPubB },
			"wireguard[0].peers[0].publicKey: is the public key of wireguard[1] on this node; a peer is another node's interface", testPrivB},
		{"two interfaces resolve one key", func(_ *schema.Config, s Secrets) { s["wireguard[1].privateKeyFrom"] = secret.NewValue(testPrivA) },
			"wireguard[1].privateKeyFrom: gives this interface the same key pair as wireguard[0]", testPrivA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, secrets := twoInterfaceConfig(schema.RoleWorker), twoInterfaceSecrets()
			tc.edit(cfg, secrets)
			err := CheckResolvedKeys(cfg, secrets)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), tc.private) || strings.Contains(err.Error(), testPSK) {
				t.Errorf("the error shows a secret: %v", err)
			}
		})
	}
}
