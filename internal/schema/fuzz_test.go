package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzValidate: no document makes parsing or validation panic, every
// finding has a message, and no finding quotes an inline private key.
func FuzzValidate(f *testing.F) {
	for _, kind := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join(testdata, kind, "*.yaml"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		if err != nil {
			return
		}
		var secrets []string
		if doc.Config != nil {
			for _, wg := range doc.Config.WireGuard {
				if wg.PrivateKey != nil && len(wg.PrivateKey.Reveal()) >= 8 {
					secrets = append(secrets, wg.PrivateKey.Reveal())
				}
			}
		}
		for _, fi := range Validate(doc) {
			if fi.Message == "" {
				t.Errorf("finding without a message at %q", fi.Path)
			}
			for _, s := range secrets {
				if strings.Contains(fi.Message, s) {
					t.Errorf("finding %q quotes a private key", fi)
				}
			}
		}
	})
}
