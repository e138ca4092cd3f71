package source

import "testing"

// grubQuote against the rules of GRUB's script language: words without a
// special character stay as they are, others are single-quoted, a single
// quote inside closes, escapes and reopens.
func TestGrubQuote(t *testing.T) {
	for in, want := range map[string]string{
		"corium.config.sha256=ab12":       "corium.config.sha256=ab12",
		"corium.config=data:;base64,A+/=": "'corium.config=data:;base64,A+/='",
		"a$b":                             "'a$b'",
		"it's":                            `'it'\''s'`,
		"#x":                              "'#x'",
		"":                                "''",
	} {
		if got := grubQuote(in); got != want {
			t.Errorf("grubQuote(%q) = %q, want %q", in, got, want)
		}
	}
}
