package schema

import (
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// MaxWait is the longest a SecretSource may wait for its secret.
const MaxWait = time.Hour

// secretSources checks every SecretSource in the document.
func (v *crossCheck) secretSources() {
	for _, f := range v.secrets() {
		if f.From != nil {
			v.secretSource(finding.Path(f.FromPath()), f.From)
		}
	}
}

// secretSource never quotes a URL: its query may carry a credential.
func (v *crossCheck) secretSource(path finding.Path, s *secret.Source) {
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"file", s.File != ""}, {"url", s.URL != ""}, {"credential", s.Credential != ""}} {
		if f.set {
			given = append(given, path.Field(f.name).String())
		}
	}
	switch {
	case len(given) == 0:
		v.errorf(path.String(), "needs exactly one of file, url and credential")
	case len(given) > 1:
		later := given[0]
		for _, g := range given[1:] {
			if l, _ := v.doc.Position(g); l > 0 {
				if ll, _ := v.doc.Position(later); l >= ll {
					later = g
				}
			}
		}
		v.errorf(later, "give only one of file, url and credential")
	}
	if s.File != "" && !isAbsPath(s.File) {
		v.errorf(path.Field("file").String(), "must be an absolute path")
	}
	if s.URL != "" {
		if u, err := url.Parse(s.URL); err != nil || u.Scheme != "https" || u.Host == "" {
			v.errorf(path.Field("url").String(), "must be an https:// URL (a secret must not travel in clear)")
		}
	}
	if s.AuthFile != "" {
		if s.URL == "" {
			v.errorf(path.Field("authFile").String(), "applies only with url")
		} else if !isAbsPath(s.AuthFile) {
			v.errorf(path.Field("authFile").String(), "must be an absolute path")
		}
	}
	if s.Credential != "" && !secret.CredentialName.MatchString(s.Credential) {
		v.errorf(path.Field("credential").String(), "must be a systemd credential name: letters, digits, '_', '.' or '-'")
	}
	if s.WaitFor != "" {
		d, err := time.ParseDuration(s.WaitFor)
		switch {
		case err != nil:
			v.errorf(path.Field("waitFor").String(), "must be a Go duration such as 30s, 5m or 1h")
		case d < 0 || d > MaxWait:
			v.errorf(path.Field("waitFor").String(), "must be between 0 and 1h")
		}
	}
}

func isAbsPath(p string) bool { return filepath.IsAbs(p) && !strings.ContainsRune(p, 0) }
