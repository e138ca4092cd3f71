package schema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// keepalived reads the password as one word of its line-based
// configuration (VRRPPassword): an inline VRRP password holding a line
// break or any other control character, whitespace, or a character
// keepalived's parser gives a meaning (a comment, a quote, a block, a
// variable, a continuation) is refused at ha.authPass, without quoting it
// in any spelling, while one of other printable characters, outside ASCII
// too, passes.
func TestAuthPassIsOneKeepalivedWord(t *testing.T) {
	doc := func(pass string) string {
		// Go's escapes are YAML's in a double-quoted scalar; YAML refuses
		// the characters raw.
		return "role: controller\ncluster: {endpoint: 192.0.2.100}\nha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  authPass: " + strconv.Quote(pass) + "\n"
	}
	for _, pass := range []string{"Qz7\nXw9", "Qz7\rXw9", "Qz7\tXw9", "Qz7\x00Xw", "Qz7\x1bXw", "Qz7\x7fXw", "Qz7\u0085X",
		"Qz7 Xw9!", "Qz7\u00a0Xw", "Qz7#Xw9", "Qz7!Xw9", `Qz7"Xw9`, "Qz7{Xw9", "Qz7}Xw9", "$_RANDOM", "${_PWD}", `Qz7\Xw9`} {
		d, err := Parse([]byte(doc(pass)))
		if err != nil {
			t.Fatalf("%q: %v", pass, err)
		}
		fs := Validate(d)
		js, _ := json.Marshal(fs)
		var refused bool
		for _, f := range fs {
			refused = refused || (f.Path == "ha.authPass" && strings.Contains(f.Message, "must be one word of printable characters"))
		}
		if !refused {
			t.Errorf("%q: not refused at ha.authPass: %v", pass, fs)
		}
		shown := fmt.Sprint(fs) + string(js)
		for _, part := range append(strings.FieldsFunc(pass, func(r rune) bool { return !VRRPPassword(string(r)) }), strings.Trim(strconv.Quote(pass), `"`)) {
			if strings.Contains(shown, part) {
				t.Errorf("%q: the findings quote %q of the password: %s", pass, part, js)
			}
		}
	}
	for _, pass := range []string{"pässwd", "Qz7;Xw'~", "a%b@c=d,", "Qz7-_.:/"} {
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
