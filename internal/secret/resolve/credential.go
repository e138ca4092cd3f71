package resolve

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/rootfs"
)

// ErrNoCredentials is returned for a credential source when the agent runs
// without $CREDENTIALS_DIRECTORY.
var ErrNoCredentials = errors.New("$CREDENTIALS_DIRECTORY is not set: the agent is not running from its unit, which imports corium.* credentials (ImportCredential=corium.*)")

func (r *Resolver) credentialKind(name string) (kind, error) {
	if err := checkCredentialName(name); err != nil {
		return kind{}, err
	}
	// Credentials are handed over by systemd before the unit starts and never
	// appear later; a missing directory will not change by waiting.
	if r.credentialsDir == "" {
		return kind{}, fmt.Errorf("reading credential %s: %w", name, ErrNoCredentials)
	}
	if !filepath.IsAbs(r.credentialsDir) {
		return kind{}, fmt.Errorf("reading credential %s: $CREDENTIALS_DIRECTORY %q is not an absolute path", name, r.credentialsDir)
	}
	shown := "credential " + name
	return kind{
		what: shown, notThere: "is not there", neverCame: "did not appear",
		attempt: func(context.Context) (secret.Value, error) {
			// Not under the node's root: systemd hands over an absolute
			// path. The directory is a root of its own, so the name (one
			// component, checked above) is opened the same careful way: a
			// FIFO or a device there fails at once instead of blocking.
			return readSecretFile(rootfs.New(r.credentialsDir), name, shown)
		},
	}, nil
}

func checkCredentialName(name string) error {
	switch {
	case strings.ContainsRune(name, '/'):
		return fmt.Errorf("credential name %q has a path separator: name a credential (corium.wg0), not a path", name)
	case name == "." || name == "..":
		return fmt.Errorf("credential name %q is not a name", name)
	case !secret.CredentialName.MatchString(name):
		return fmt.Errorf("credential name %q may hold only letters, digits, '_', '.' and '-'", name)
	}
	return nil
}
