package provision

import "testing"

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
