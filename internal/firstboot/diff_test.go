package firstboot

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\n"
	want := "  b\n  c\n- d\n+ D\n  e\n  f\n  g\n+ h\n"
	if got := unifiedDiff(a, b); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff(a, a); got != "" {
		t.Errorf("equal texts diff to %q", got)
	}
}

func TestMaskSecretLines(t *testing.T) {
	old := "[Interface]\nPrivateKey = REALKEY=\nListenPort = 1\n"
	next := "[Interface]\nPrivateKey = PLACEHOLDER=\nListenPort = 2\n"
	o, n, ok := maskSecretLines(old, next, []string{"PLACEHOLDER="})
	if !ok || strings.Contains(o, "REALKEY") || strings.Contains(n, "PLACEHOLDER") {
		t.Fatalf("not masked: %q %q", o, n)
	}
	d := unifiedDiff(o, n)
	if strings.Contains(d, "- PrivateKey") || strings.Contains(d, "REALKEY") || !strings.Contains(d, "- ListenPort = 1") {
		t.Errorf("the masked key line shows up as a change, or the real change is missing:\n%s", d)
	}
	_, n, ok = maskSecretLines("REALTOKEN\n", "PLACEHOLDER\n", []string{"PLACEHOLDER"})
	if ok || strings.Contains(n, "PLACEHOLDER") {
		t.Errorf("a keyless secret file was not masked whole: %q", n)
	}
}
