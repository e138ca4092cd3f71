package schema

import (
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// SecretKind says what a secret is, for what may check or stand in for it:
// the value of the field's `secret:"kind"` tag in types.go.
type SecretKind string

const (
	// SecretToken is a k0s join token.
	SecretToken SecretKind = "token"
	// SecretPassword is keepalived's VRRP password.
	SecretPassword SecretKind = "password"
	// SecretWireGuardKey is a WireGuard private or preshared key.
	SecretWireGuardKey SecretKind = "wireguard-key"
	// SecretDataSource is kine's datasource URL, the database's password
	// in it.
	SecretDataSource SecretKind = "datasource"
)

// SecretKinds are the kinds a secret tag may name; a test fails on a tag
// naming another.
var SecretKinds = []SecretKind{SecretToken, SecretPassword, SecretWireGuardKey, SecretDataSource}

// AuthPassPath is the path of the VRRP password as a SecretField.
const AuthPassPath = "ha.authPass"

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

// fromSuffix ends the name of a secret's SecretSource field: privateKeyFrom
// is privateKey's source.
const fromSuffix = "From"

// SecretFields lists every secret the document sets, in document order. It is
// the one list of the contract's secret fields: validation, resolution,
// render, plan masking and the leak tests all walk it. It is found by the
// `secret:"kind"` tags of the types (secret.Fields), so a secret field added
// to types.go with its tag is in it; a field of a secret type without the
// tag fails TestEverySecretFieldIsTagged. A `*secret.Value` field and the
// `*secret.Source` field named as it with "From" after are one secret.
func SecretFields(cfg *Config) []SecretField {
	var out []SecretField
	at := map[string]int{}
	secret.Fields(cfg, "yaml", func(f secret.Field) {
		path := f.Path
		var inline *secret.Value
		var from *secret.Source
		switch v := f.Value.Interface().(type) {
		case *secret.Value:
			inline = v
		case *secret.Source:
			from = v
			path = strings.TrimSuffix(path, fromSuffix)
		default:
			return // Untagged reports a tag on a field of another type
		}
		i, ok := at[path]
		if !ok {
			i = len(out)
			at[path] = i
			out = append(out, SecretField{Path: path, Kind: SecretKind(f.Kind)})
		}
		if inline != nil {
			out[i].Inline = inline
		}
		if from != nil {
			out[i].From = from
		}
	})
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
