package schema

import (
	"fmt"
	"strings"
	"testing"
)

// wantErrorAt loads doc and wants it refused with an error at path whose
// message holds words.
func wantErrorAt(t *testing.T, doc, path, words string) {
	t.Helper()
	_, findings, err := Load([]byte(doc))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, f := range findings.Errors() {
		if f.Path == path && strings.Contains(f.Message, words) {
			return
		}
	}
	t.Errorf("want an error at %s saying %q, got %v", path, words, fmt.Sprint(findings))
}
