package secret

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
)

// sourceFields is Source without its printing methods.
type sourceFields Source

// shown is the Source as it may be printed: its URL without what can grant
// access (RedactURL).
func (s Source) shown() sourceFields {
	f := sourceFields(s)
	if f.URL != "" {
		f.URL = RedactURL(f.URL)
	}
	return f
}

// MarshalYAML and MarshalJSON print the source with its URL redacted, so a
// configuration written back out (status, the applied record, plans) never
// carries a presigned URL's signature or a password in the URL. Decoding is
// untouched: the source in memory keeps its full URL.
func (s Source) MarshalYAML() (any, error)    { return s.shown(), nil }
func (s Source) MarshalJSON() ([]byte, error) { return json.Marshal(s.shown()) }

// String, GoString and LogValue show the source the way marshalling does, so
// a source passed to a log line or a %v is as safe as one written to a file.
func (s Source) String() string       { return fmt.Sprintf("%+v", s.shown()) }
func (s Source) GoString() string     { return "secret.Source" + s.String() }
func (s Source) LogValue() slog.Value { return slog.StringValue(s.String()) }

// RedactURL keeps a URL's scheme, host and path and marks what was taken out
// (userinfo, query, fragment): https://h/p?[redacted]. A URL with none of
// these is returned as is.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Redacted
	}
	if len(credentialParts(u)) == 0 {
		return raw
	}
	return ShownURL(raw) + "?" + Redacted
}

// URLCredentials names the parts of raw that RedactURL takes out because
// they can grant access ("userinfo", "query string", "fragment"), for a
// message that must say what a URL carries without showing it. None for a
// URL without them, or one that does not parse (which the schema refuses
// on its own).
func URLCredentials(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	return credentialParts(u)
}

func credentialParts(u *url.URL) []string {
	var parts []string
	if u.User != nil {
		parts = append(parts, "userinfo")
	}
	if u.RawQuery != "" || u.ForceQuery {
		parts = append(parts, "query string")
	}
	if u.Fragment != "" {
		parts = append(parts, "fragment")
	}
	return parts
}

// Where names the source for a message: its file, its URL as RedactURL shows
// it, or its credential.
func (s Source) Where() string {
	switch {
	case s.File != "":
		return s.File
	case s.URL != "":
		return RedactURL(s.URL)
	case s.Credential != "":
		return "credential " + s.Credential
	}
	return "an empty source"
}
