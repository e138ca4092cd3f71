package hostile

import (
	"crypto/rand"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// Corpus is the attacker-side corpus's placeholders filled, for a test
// elsewhere that runs its documents (test/agree): Expand fills a document
// with values drawn once, url standing for the secret server.
type Corpus struct {
	secrets map[string]secret
	url     string
}

// NewCorpus draws the corpus's secrets.
func NewCorpus(t testing.TB, url string) *Corpus {
	return &Corpus{secrets: newSecrets(t), url: url}
}

// Expand fills doc's placeholders.
func (c *Corpus) Expand(doc string) string { return expand(doc, c.secrets, c.url) }

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
func newSecrets(t testing.TB) map[string]secret {
	t.Helper()
	key := func() string { return fixture.GenKey(t).String() }
	// A well-formed fake k0s token, a fresh bearer in it, so the agent
	// takes it as far as it takes a real one.
	token := func() string { return fixture.JoinToken("fake00." + strings.ToLower(rand.Text()[:16])) }
	// A joining controller's is of the other kind: k0s refuses a worker's.
	controllerToken := func() string {
		return fixture.ControllerJoinToken("fake00." + strings.ToLower(rand.Text()[:16]))
	}
	// Eight characters, keepalived's limit, of every class, so the password
	// is valid in no field but its own.
	pass := "P" + strings.ToLower(rand.Text()[:3]) + "%" + rand.Text()[:2] + "7"
	s := map[string]secret{
		"WGKEY":  {key(), wireGuardHolder},
		"PSK":    {key(), wireGuardHolder},
		"TOKEN":  {token(), tokenHolder},
		"CTOKEN": {controllerToken(), tokenHolder},
		"PASS":   {pass, k0sHolder},
		"SIG":    {"SIG" + rand.Text(), ""},
		"BEARER": {"BEARER" + rand.Text(), ""},
		// What the root, the credentials and the server hand over.
		"FILE_PASS": {"F" + strings.ToLower(rand.Text()[:3]) + "%" + rand.Text()[:2] + "9", k0sHolder},
		"FILE_PSK":  {key(), wireGuardHolder},
		"CRED_KEY":  {key(), wireGuardHolder},
		"URL_PSK":   {key(), wireGuardHolder},
		// Eight bytes over two lines, with a tab and an escape: refused
		// wherever it is given, so it may rest in no file.
		// kine's datasource URL, the database's password in it. Past its
		// scheme every part is drawn, so no 12 characters of it are text
		// the agent prints of its own.
		"URL_DSN":  {"postgres://" + rand.Text()[:6] + ":" + rand.Text()[:12] + "@" + strings.ToLower(rand.Text()[:8]) + ".db:5432/" + strings.ToLower(rand.Text()[:6]) + "?sslmode=require", k0sHolder},
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
