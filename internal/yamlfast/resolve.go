package yamlfast

// plainTag classifies a plain scalar the way yaml.v3's resolver does, for
// the cases that can be decided from its rules without parsing numbers:
// a first byte outside yaml.v3's hint table is always a string; words
// starting like a bool or null are one only when they are exactly one of
// its spellings; short decimal integers are ints; and a value starting
// like a number but holding a byte that no integer, float or timestamp
// syntax accepts (an address with '/' or ':', a base64 key with '=') is a
// string. ok=false leaves the decision to yaml.v3 itself.
func plainTag(v string) (tag string, ok bool) {
	switch c := v[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return numberish(v)
	case c == '.':
		return "", false
	case c == '~':
		if v == "~" {
			return "!!null", true
		}
		return "!!str", true
	case c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' ||
		c == 'f' || c == 'F' || c == 'o' || c == 'O':
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool", true
		case "null", "Null", "NULL":
			return "!!null", true
		}
		return "!!str", true
	}
	return "!!str", true
}

func numberish(v string) (string, bool) {
	digits := v
	if v[0] == '-' {
		digits = v[1:]
	}
	if n := len(digits); n > 0 && n <= 18 && (n == 1 || digits[0] != '0') {
		all := true
		for i := 0; i < n; i++ {
			if digits[i] < '0' || digits[i] > '9' {
				all = false
				break
			}
		}
		if all {
			return "!!int", true
		}
	}
	// A timestamp starts with four digits and '-', and may hold ' ' and ':'.
	if len(v) > 4 && v[4] == '-' && isDigits(v[:4]) {
		return "", false
	}
	// Scanned from the end: keys end in '=', prefixes in "/32", endpoints
	// in ":port", so the deciding byte is found early.
	for i := len(v) - 1; i >= 0; i-- {
		c := v[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '+' || c == '-' || c == '.' || c == '_') {
			return "!!str", true
		}
	}
	return "", false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
