package schema

import (
	"fmt"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/finding"
)

// The rules on an interface's keys: its own key pair, its peers' keys, and
// keys across the node's interfaces. No message quotes a key: a key in the
// wrong field may be a private one.

// ownKeys is what the document says of an interface's own public key: the
// one an inline privateKey derives, and the one publicKey states; each nil
// when not given (or not a key, which the field rules report).
func ownKeys(wg WireGuard) (derived, stated *wgtypes.Key) {
	if wg.PrivateKey != nil {
		if k, ok := parseKey(wg.PrivateKey.Reveal()); ok {
			pub := k.PublicKey()
			derived = &pub
		}
	}
	if k, ok := parseKey(wg.PublicKey); ok {
		stated = &k
	}
	return derived, stated
}

// OwnPublicKey is the interface's public key as far as the document knows
// it: derived from an inline private key, else stated by publicKey. ok is
// false when neither is given; a document that validated has the two agree.
func OwnPublicKey(wg WireGuard) (wgtypes.Key, bool) {
	derived, stated := ownKeys(wg)
	switch {
	case derived != nil:
		return *derived, true
	case stated != nil:
		return *stated, true
	}
	return wgtypes.Key{}, false
}

// interfaceKeys: one private key, a stated public key that is the private
// key's, unique peer keys, no peer with our own key or a secret.
func (v *crossCheck) interfaceKeys(base finding.Path, wg WireGuard) {
	// Both given is refused by secretPairs, as for every secret.
	if wg.PrivateKey == nil && wg.PrivateKeyFrom == nil {
		v.errorf(base.Field("privateKey").String(), "one of privateKey and privateKeyFrom is required")
	}
	derived, stated := ownKeys(wg)
	if stated != nil {
		if where, ok := v.inlineSecretKey(*stated); ok {
			// Other documents are checked against this field and it is
			// recorded with the configuration: a secret here is exposed.
			v.errorf(base.Field("publicKey").String(), "is the secret %s, not a public key: give the key wg pubkey derives from the private key, and treat that secret as exposed", where)
			stated = nil
		} else if derived != nil && *derived != *stated {
			v.errorf(base.Field("publicKey").String(), "is not the public key privateKey derives: give the output of wg pubkey for this interface's private key, or drop publicKey")
		}
	}
	seen := make(map[wgtypes.Key]int, len(wg.Peers))
	path := func(j int) finding.Path { return base.Field("peers").Index(j) }
	for j, p := range wg.Peers {
		k, ok := parseKey(p.PublicKey)
		if !ok {
			continue // the field rule reports it
		}
		if (derived != nil && k == *derived) || (stated != nil && k == *stated) {
			v.errorf(path(j).Field("publicKey").String(), "is this interface's own public key; a peer is the other end of the tunnel")
		}
		if where, ok := v.inlineSecretKey(k); ok {
			// It is printed wherever public keys are (plans, status, the
			// applied record): refused before any of them is written.
			v.errorf(path(j).Field("publicKey").String(), "is the secret %s, not a public key: give the peer's public key (wg pubkey), and treat that secret as exposed", where)
			continue
		}
		if first, dup := seen[k]; dup {
			v.errorf(path(j).Field("publicKey").String(), "duplicates peers[%d].publicKey", first)
			continue
		}
		seen[k] = j
	}
}

// nodeKeys: the keys across the node's interfaces, as the document gives
// them (an inline private key's, or a stated publicKey).
func (v *crossCheck) nodeKeys() {
	own := make([]*OwnKey, len(v.cfg.WireGuard))
	for i, wg := range v.cfg.WireGuard {
		k, ok := OwnPublicKey(wg)
		if !ok {
			continue
		}
		if _, secret := v.inlineSecretKey(k); secret {
			continue // interfaceKeys reports it
		}
		field := "publicKey"
		if wg.PrivateKey != nil {
			field = "privateKey"
		}
		own[i] = &OwnKey{Key: k, Field: finding.Path("wireguard").Index(i).Field(field).String()}
	}
	for _, f := range NodeKeyClashes(v.cfg, own) {
		v.errorf(f.Path, "%s", f.Message)
	}
}

// OwnKey is one interface's own public key and the field that gives it:
// privateKey or publicKey in the document, privateKeyFrom once resolved.
type OwnKey struct {
	Key   wgtypes.Key
	Field string
}

// NodeKeyClashes is the one rule on keys across a node's interfaces, for
// both places that know them: validation with the keys the document gives,
// apply with the keys the resolved private keys derive. own[i] is interface
// i's key, nil when unknown. Each interface needs a key pair of its own (a
// peer tells two interfaces with one key apart by nothing), and a peer is
// another node, so it is never one of this node's interfaces. A finding
// names fields, never a key.
func NodeKeyClashes(cfg *Config, own []*OwnKey) []finding.Finding {
	var out []finding.Finding
	refuse := func(path, format string, args ...any) {
		out = append(out, finding.Finding{Path: path, Severity: finding.Error, Message: fmt.Sprintf(format, args...)})
	}
	owner := make(map[wgtypes.Key]int, len(own))
	for i, k := range own {
		if k == nil {
			continue
		}
		if first, dup := owner[k.Key]; dup {
			refuse(k.Field, "gives this interface the same key pair as wireguard[%d]; each interface needs a key of its own (wg genkey)", first)
			continue
		}
		owner[k.Key] = i
	}
	for i, wg := range cfg.WireGuard {
		for j, p := range wg.Peers {
			k, ok := parseKey(p.PublicKey)
			if !ok {
				continue
			}
			if o, mine := owner[k]; mine && o != i {
				refuse(finding.Path("wireguard").Index(i).Field("peers").Index(j).Field("publicKey").String(), "is the public key of wireguard[%d] on this node; a peer is another node's interface", o)
			}
		}
	}
	return out
}

// inlineSecretKey finds k among the document's inline WireGuard secrets
// (private and preshared keys) and names the field that holds it. The keys
// are indexed once per validation: a hub has thousands of peers.
func (v *crossCheck) inlineSecretKey(k wgtypes.Key) (string, bool) {
	if v.inlineKeys == nil {
		v.inlineKeys = map[wgtypes.Key]string{}
		for _, f := range v.secrets() {
			if f.Kind != SecretWireGuardKey || f.Inline == nil {
				continue
			}
			if s, ok := parseKey(f.Inline.Reveal()); ok {
				if _, seen := v.inlineKeys[s]; !seen {
					v.inlineKeys[s] = f.Path
				}
			}
		}
	}
	path, ok := v.inlineKeys[k]
	return path, ok
}
