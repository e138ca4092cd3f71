package source

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// InlineParams are the kernel command line parameters that carry doc
// inline, spelled as the chain reads them: the pin first, so that a line cut
// at the kernel's limit loses part of the document, which the pin then
// shows, and never the pin.
func InlineParams(doc []byte) []string {
	sum := sha256.Sum256(doc)
	return []string{
		ParamSHA256 + "=" + hex.EncodeToString(sum[:]),
		ParamConfig + "=data:;base64," + base64.StdEncoding.EncodeToString(doc),
	}
}
