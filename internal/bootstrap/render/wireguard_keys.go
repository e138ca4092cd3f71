package render

import (
	"errors"
	"fmt"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
)

// The checks of the keys validation cannot make: a key read from a source
// is known only once resolved. A public key is printed wherever the node's
// keys are (plans, status, the applied record), so a key that is a secret
// is refused before anything is written, and no message shows a key.

// CheckResolvedKeys holds each interface's resolved private key to the
// publicKey its document states, and the keys they derive to the rule on
// keys across the node's interfaces (schema.NodeKeyClashes: no peer is
// another interface of this node, no two interfaces share a key): a wrong
// key file or credential on the node is caught at boot, before anything is
// written, not at the first handshake. apply calls it with the resolved
// secrets; a plan's stand-ins derive nothing a document states, so plan
// does not.
func CheckResolvedKeys(cfg *schema.Config, secrets Secrets) error {
	errs := []error{checkStatedKeys(cfg, secrets)}
	// Validation holds the keys the document gives across the interfaces;
	// a key read from a source is known only now.
	for _, f := range schema.NodeKeyClashes(cfg, resolvedOwnKeys(cfg, secrets)) {
		errs = append(errs, fmt.Errorf("%s (the keys as the resolved private keys derive them)", f))
	}
	return errors.Join(errs...)
}

// resolvedOwnKeys is each interface's own public key, derived from its
// resolved private key; nil where the key cannot be read, which rendering
// refuses.
func resolvedOwnKeys(cfg *schema.Config, secrets Secrets) []*schema.OwnKey {
	own := make([]*schema.OwnKey, len(cfg.WireGuard))
	for i, wg := range cfg.WireGuard {
		priv, err := wireGuardKey(secrets, schema.PrivateKeyPath(i), wg.PrivateKey, true)
		if err != nil {
			continue
		}
		key, _ := wgtypes.ParseKey(priv.Reveal()) // checked by wireGuardKey
		field := schema.PrivateKeyPath(i)
		if wg.PrivateKeyFrom != nil {
			field += "From"
		}
		own[i] = &schema.OwnKey{Key: key.PublicKey(), Field: field}
	}
	return own
}

// checkStatedKeys holds each stated publicKey to the resolved private key.
func checkStatedKeys(cfg *schema.Config, secrets Secrets) error {
	var errs []error
	for i, wg := range cfg.WireGuard {
		stated, err := wgtypes.ParseKey(wg.PublicKey)
		if wg.PublicKey == "" || err != nil {
			continue // none stated, or validation reports it
		}
		priv, err := wireGuardKey(secrets, schema.PrivateKeyPath(i), wg.PrivateKey, true)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		key, _ := wgtypes.ParseKey(priv.Reveal()) // checked by wireGuardKey
		at := finding.Path("wireguard").Index(i).Field("publicKey")
		from := keySource(i, wg)
		switch path, secret := secretHolding(secrets, stated); {
		case stated == key:
			errs = append(errs, fmt.Errorf("%s: is the private key read from %s itself, not its public key: give the output of wg pubkey for it, and treat that key as exposed", at, from))
		case secret:
			errs = append(errs, fmt.Errorf("%s: is the secret read for %s, not a public key: give the output of wg pubkey for the key read from %s, and treat that secret as exposed", at, path, from))
		case key.PublicKey() != stated:
			errs = append(errs, fmt.Errorf("%s: is not the public key of the private key read from %s: the node was given another key than its document states; fix the key's source, or the publicKey (its peers list this one)", at, from))
		}
	}
	return errors.Join(errs...)
}

// checkPeerKeys refuses a peer whose public key is this interface's own, or
// is a secret: the resolved private key, or any resolved key of the
// document. Validation catches the inline ones.
func checkPeerKeys(i int, wg schema.WireGuard, priv wgtypes.Key, secrets Secrets) error {
	for j, p := range wg.Peers {
		k, err := wgtypes.ParseKey(p.PublicKey)
		if err != nil {
			continue // validation reports it
		}
		at := finding.Path("wireguard").Index(i).Field("peers").Index(j).Field("publicKey")
		if k == priv.PublicKey() {
			return fmt.Errorf("%s: is this interface's own public key, derived from the private key read from %s; a peer is the other end of the tunnel", at, keySource(i, wg))
		}
		if path, ok := secretHolding(secrets, k); ok {
			return fmt.Errorf("%s: is the secret read for %s, not a public key: give the peer's public key (wg pubkey), and treat that secret as exposed", at, path)
		}
	}
	return nil
}

// secretHolding finds the resolved secret whose value is k; of several, the
// first by path, so a message names the same one every run.
func secretHolding(secrets Secrets, k wgtypes.Key) (string, bool) {
	found := ""
	for path, v := range secrets {
		if s, err := wgtypes.ParseKey(strings.TrimSpace(v.Reveal())); err == nil && s == k && (found == "" || path < found) {
			found = path
		}
	}
	return found, found != ""
}

// keySource names where interface i's private key came from: its source
// field and the source, or the inline field.
func keySource(i int, wg schema.WireGuard) string {
	if wg.PrivateKeyFrom != nil {
		return fmt.Sprintf("%sFrom (%s)", schema.PrivateKeyPath(i), wg.PrivateKeyFrom.Where())
	}
	return schema.PrivateKeyPath(i)
}
