package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// keepalived's configuration is line-based: an inline VRRP password holding
// a line break or any other control character is refused at ha.authPass,
// without quoting it in any spelling, while one of printable characters,
// outside ASCII too, passes.
func TestAuthPassRefusesControlCharacters(t *testing.T) {
	doc := func(pass string) string {
		// Go's escapes are YAML's in a double-quoted scalar; YAML refuses
		// the characters raw.
		return "role: controller\ncluster: {endpoint: 192.0.2.100}\nha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  authPass: " + strconv.Quote(pass) + "\n"
	}
	for _, pass := range []string{"Qz7\nXw9", "Qz7\rXw9", "Qz7\tXw9", "Qz7\x00Xw", "Qz7\x1bXw", "Qz7\x7fXw", "Qz7\u0085X"} {
		d, err := Parse([]byte(doc(pass)))
		if err != nil {
			t.Fatalf("%q: %v", pass, err)
		}
		fs := Validate(d)
		js, _ := json.Marshal(fs)
		var refused bool
		for _, f := range fs {
			refused = refused || (f.Path == "ha.authPass" && strings.Contains(f.Message, "without a control character"))
		}
		if !refused {
			t.Errorf("%q: not refused at ha.authPass: %v", pass, fs)
		}
		shown := fmt.Sprint(fs) + string(js)
		for _, part := range append(strings.FieldsFunc(pass, func(r rune) bool { return r < ' ' || r >= 0x7f }), strings.Trim(strconv.Quote(pass), `"`)) {
			if strings.Contains(shown, part) {
				t.Errorf("%q: the findings quote %q of the password: %s", pass, part, js)
			}
		}
	}
	for _, pass := range []string{"Qz7 Xw9!", "pässwd"} {
		d, err := Parse([]byte(doc(pass)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range Validate(d) {
			if f.Path == "ha.authPass" {
				t.Errorf("%q: refused: %v", pass, f)
			}
		}
	}
}
