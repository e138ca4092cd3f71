package secret

import "time"

// Source is the contract's SecretSource: where a secret is fetched at boot.
// Exactly one of File, URL and Credential is set (schema validates that).
type Source struct {
	// File is an absolute path, read under the root; missing or empty means
	// "not there yet".
	File string `yaml:"file,omitempty" json:"file,omitempty"`
	// URL is an https:// address; the body (at most 64 KiB) is the secret.
	URL string `yaml:"url,omitempty" json:"url,omitempty"`
	// AuthFile is an absolute path whose trimmed content is sent as a bearer
	// token with URL.
	AuthFile string `yaml:"authFile,omitempty" json:"authFile,omitempty"`
	// Credential names a systemd credential read from $CREDENTIALS_DIRECTORY.
	Credential string `yaml:"credential,omitempty" json:"credential,omitempty"`
	// WaitFor is a Go duration (0 to 1h): how long to retry "not there yet".
	WaitFor string `yaml:"waitFor,omitempty" json:"waitFor,omitempty"`
}

// Wait is WaitFor parsed; an empty or unparsable value (schema rejects the
// latter) means one attempt.
func (s Source) Wait() time.Duration {
	if s.WaitFor == "" {
		return 0
	}
	d, err := time.ParseDuration(s.WaitFor)
	if err != nil || d < 0 {
		return 0
	}
	return d
}
