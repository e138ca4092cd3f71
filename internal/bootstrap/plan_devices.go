package bootstrap

import (
	"bytes"
	"strconv"

	"github.com/corium/corium-agent/internal/schema"
)

// derivedAtApply stands for an interface's public key in a plan when the
// document states none: its private key comes from a SecretSource, which a
// plan does not resolve.
const derivedAtApply = "(derived at apply)"

// planDevices is record.DevicesPath as a plan shows it. Rendered from
// placeholder secrets, each interface whose private key comes from a
// SecretSource would carry the public key of the placeholder: the same
// wrong key on every node, contradicting the publicKey the document
// states. The plan shows the stated key (apply holds the resolved key to
// it), or says it is derived at apply; an inline key's public key is real
// and stays. It edits the text record.EncodeDevices writes: a device's own
// fields are at six spaces, its peers' deeper.
func planDevices(cfg *schema.Config, content []byte) []byte {
	const own = `      "`
	lines := bytes.SplitAfter(content, []byte("\n"))
	device := -1
	for i, l := range lines {
		switch {
		case bytes.HasPrefix(l, []byte(own+`name": `)):
			device++
		case bytes.HasPrefix(l, []byte(own+`publicKey": `)) && device >= 0 && device < len(cfg.WireGuard):
			wg := cfg.WireGuard[device]
			if wg.PrivateKeyFrom == nil {
				continue
			}
			key := derivedAtApply
			if wg.PublicKey != "" {
				key = wg.PublicKey
			}
			lines[i] = []byte(own + `publicKey": ` + strconv.Quote(key) + ",\n")
		}
	}
	return bytes.Join(lines, nil)
}
