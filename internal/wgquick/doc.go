// Package wgquick is the codec of wg-quick files (/etc/wireguard/IF.conf):
// the typed File, Interface and Peer, whose private and preshared keys are
// secret.Value; Marshal, the one writer of the format; Parse, the one reader,
// which reads a file as both of its real readers do, wg(8) and wg-quick, and
// refuses a file they read differently; and Redacted, the form a plan shows.
// Each key is spelled once, in its field's `wg:"Key"` tag (keys.go): Marshal
// writes the fields by their tags and Parse matches lines to them, so a
// key added to the types is written and read with nothing else to change;
// a secret.Value field carries `secret:"kind"` too, and Redacted, Secrets
// and SecretKeys find it by secret's walk.
//
// It is a leaf, as wgctrl's wgtypes is: the standard library, the key type
// and secret.Value, nothing else. It reads no file and runs no program;
// choosing what a file holds is render's, and setting a device apply's.
package wgquick
