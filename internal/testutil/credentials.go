package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// CredentialsDir is a directory holding one file per credential, name to
// value, mode 0400: what systemd hands a unit as $CREDENTIALS_DIRECTORY
// (ImportCredential=, --set-credential=). It is removed when the test ends.
func CredentialsDir(t testing.TB, creds map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, v := range creds {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v), 0o400); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
