package source

import (
	"crypto/sha256"
	"encoding/hex"
)

// Documents in each of the shapes a file hands over.
const (
	docFile      = "role: controller\ncluster:\n  name: from-file\n"
	docCloudInit = "#cloud-config\nssh_authorized_keys: [ssh-ed25519 AAAA]\ncorium:\n  role: single\n  cluster:\n    name: from-cloud-init\n"
	docCmdline   = "role: worker\ncluster:\n  name: from-cmdline\n"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
