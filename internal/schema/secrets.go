package schema

import (
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// SecretKind says what a secret is, for what may check or stand in for it.
type SecretKind int

const (
	// SecretToken is a k0s join token.
	SecretToken SecretKind = iota
	// SecretPassword is keepalived's VRRP password.
	SecretPassword
	// SecretWireGuardKey is a WireGuard private or preshared key.
	SecretWireGuardKey
	// SecretDataSource is kine's datasource URL, the database's password
	// in it.
	SecretDataSource
)

// DataSourcePath is the path of kine's datasource as a SecretField: it has
// no inline field, only its source, storage.dataSourceFrom.
const DataSourcePath = "storage.dataSource"

// SecretField is one secret the document sets: inline (Inline) or through a
// SecretSource (From), written at Path, the inline field's path
// (wireguard[0].privateKey); the source's field is FromPath. A secret the
// contract takes from a source only (storage.dataSourceFrom) has a Path all
// the same, its source's path less "From", and never an Inline value.
type SecretField struct {
	Path   string
	Kind   SecretKind
	Inline *secret.Value
	From   *secret.Source
}

// FromPath is the path of the field's SecretSource: Path + "From".
func (f SecretField) FromPath() string { return f.Path + "From" }

// SecretFields lists every secret the document sets, in document order. It is
// the one list of the contract's secret fields: validation, resolution,
// render, plan masking and the leak tests all walk it, so a secret field
// added to the types is added here and nowhere else.
func SecretFields(cfg *Config) []SecretField {
	var out []SecretField
	add := func(path string, kind SecretKind, inline *secret.Value, from *secret.Source) {
		if inline != nil || from != nil {
			out = append(out, SecretField{Path: path, Kind: kind, Inline: inline, From: from})
		}
	}
	add(DataSourcePath, SecretDataSource, nil, cfg.Storage.DataSourceFrom)
	add("join.token", SecretToken, cfg.Join.Token, cfg.Join.TokenFrom)
	add("ha.authPass", SecretPassword, cfg.HA.AuthPass, cfg.HA.AuthPassFrom)
	for i, wg := range cfg.WireGuard {
		add(PrivateKeyPath(i), SecretWireGuardKey, wg.PrivateKey, wg.PrivateKeyFrom)
		for j, p := range wg.Peers {
			if p.PresharedKey != nil || p.PresharedKeyFrom != nil { // a path spelled only when set: a hub has thousands of peers
				add(PresharedKeyPath(i, j), SecretWireGuardKey, p.PresharedKey, p.PresharedKeyFrom)
			}
		}
	}
	return out
}

// PrivateKeyPath is the field path of interface i's private key.
func PrivateKeyPath(i int) string {
	return finding.Path("wireguard").Index(i).Field("privateKey").String()
}

// PresharedKeyPath is the field path of peer j's preshared key on interface i.
func PresharedKeyPath(i, j int) string {
	return finding.Path("wireguard").Index(i).Field("peers").Index(j).Field("presharedKey").String()
}
