package hostile

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// forms are the spellings of a value a leak would take: itself, base64 and
// hex of it, hex of a key's bytes, every 12 characters of it, and for a
// value with control characters its escaped spellings and each of its
// lines of 4 characters or more (one line of it is all a printed file
// would show).
func forms(v string) []string {
	out := []string{v, base64.StdEncoding.EncodeToString([]byte(v)), base64.RawURLEncoding.EncodeToString([]byte(v)), hex.EncodeToString([]byte(v))}
	if strings.ContainsFunc(v, unicode.IsControl) {
		js, _ := json.Marshal(v)
		out = append(out, strings.Trim(string(js), `"`), strings.Trim(strconv.Quote(v), `"`))
		for _, l := range strings.Split(v, "\n") {
			if l = strings.TrimSpace(l); len(l) >= 4 {
				out = append(out, l)
			}
		}
	}
	if b, err := base64.StdEncoding.DecodeString(v); err == nil && len(b) == 32 {
		out = append(out, hex.EncodeToString(b))
	}
	for i := 0; i+12 <= len(v); i++ {
		out = append(out, v[i:i+12])
	}
	return out
}

// leaks names the secrets text shows in any form.
func leaks(text string, s map[string]secret) []string {
	var found []string
	for name, sec := range s {
		for _, f := range forms(sec.value) {
			if strings.Contains(text, f) {
				found = append(found, name)
				break
			}
		}
	}
	sort.Strings(found)
	return found
}

// mayHold says whether the file at node path p may hold the secret.
func mayHold(p string, sec secret) bool {
	switch {
	case sec.holder == "":
		return false
	case strings.HasSuffix(sec.holder, "/"):
		return path.Dir(p)+"/" == sec.holder
	}
	return p == sec.holder
}

// secretServer serves URL_PSK at /psk and URL_DSN at /dsn to the bearer
// token only; its error
// pages echo the request's Authorization header and query, as careless
// servers do.
func secretServer(t *testing.T, s map[string]secret) *httptest.Server {
	return tlsserver.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echo := "you sent " + r.Header.Get("Authorization") + " with " + r.URL.RawQuery
		switch {
		case r.Header.Get("Authorization") != "Bearer "+s["BEARER"].value:
			http.Error(w, echo, http.StatusForbidden)
		case r.URL.Path == "/psk":
			_, _ = w.Write([]byte(s["URL_PSK"].value + "\n"))
		case r.URL.Path == "/dsn":
			_, _ = w.Write([]byte(s["URL_DSN"].value + "\n"))
		default:
			http.Error(w, echo, http.StatusNotFound)
		}
	}))
}
