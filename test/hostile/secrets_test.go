package hostile

import (
	"crypto/rand"
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

	"github.com/corium/corium-agent/internal/testutil"
)

// secret is one value the corpus must never see leak, and the one kind of
// file it may rest in.
type secret struct {
	value  string
	holder string // node path prefix of the only files that may hold it; "" for none
}

const (
	wireGuardHolder = "/etc/wireguard/"
	k0sHolder       = "/etc/k0s/k0s.yaml"
	tokenHolder     = "/etc/k0s/join-token"
)

// newSecrets draws fresh values for every placeholder the corpus uses, so no
// value can pass by coinciding with a fixed one in the code.
func newSecrets(t *testing.T) map[string]secret {
	t.Helper()
	key := func() string { return testutil.GenKey(t).String() }
	token := func() string {
		b := make([]byte, 150)
		_, _ = rand.Read(b)
		return "K10" + base64.StdEncoding.EncodeToString(b)
	}
	// Eight characters, keepalived's limit, of every class, so the password
	// is valid in no field but its own.
	pass := "P" + strings.ToLower(rand.Text()[:3]) + "%" + rand.Text()[:2] + "7"
	s := map[string]secret{
		"WGKEY":  {key(), wireGuardHolder},
		"PSK":    {key(), wireGuardHolder},
		"TOKEN":  {token(), tokenHolder},
		"PASS":   {pass, k0sHolder},
		"SIG":    {"SIG" + rand.Text(), ""},
		"BEARER": {"BEARER" + rand.Text(), ""},
		// What the root, the credentials and the server hand over.
		"FILE_PASS": {"F" + strings.ToLower(rand.Text()[:3]) + "%" + rand.Text()[:2] + "9", k0sHolder},
		"FILE_PSK":  {key(), wireGuardHolder},
		"CRED_KEY":  {key(), wireGuardHolder},
		"URL_PSK":   {key(), wireGuardHolder},
		// kine's datasource URL, the database's password in it. Past its
		// scheme every part is drawn, so no 12 characters of it are text
		// the agent prints of its own.
		"URL_DSN": {"postgres://" + rand.Text()[:6] + ":" + rand.Text()[:12] + "@" + strings.ToLower(rand.Text()[:8]) + ".db:5432/" + strings.ToLower(rand.Text()[:6]) + "?sslmode=require", k0sHolder},
		// Eight bytes over two lines, with a tab and an escape: refused
		// wherever it is given, so it may rest in no file.
		"CTL_PASS": {"C" + strings.ToLower(rand.Text()[:2]) + "%\n" + rand.Text()[:1] + "\t\x1b", ""},
	}
	return s
}

// expand fills a corpus document's placeholders: @NAME@ for each secret,
// @URL@ for the secret server and @HOST@ for its host and port (to put
// userinfo before it), and the cut and padded forms of keys.
func expand(doc string, s map[string]secret, url string) string {
	r := []string{
		"@WGKEY_TRUNC@", s["WGKEY"].value[:42],
		// Go's escapes are YAML's in a double-quoted scalar.
		"@CTL_PASS_QUOTED@", strconv.Quote(s["CTL_PASS"].value),
		"@PSK_PAD@", s["PSK"].value + "AA",
		"@URL@", url,
		"@HOST@", strings.TrimPrefix(url, "https://"),
	}
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, n := range names {
		r = append(r, "@"+n+"@", s[n].value)
	}
	return strings.NewReplacer(r...).Replace(doc)
}

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
	return testutil.NewTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
