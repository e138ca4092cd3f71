package secret

import "net/url"

// ShownURL is rawURL fit for a log line or an error: scheme, host and path
// only. The query string and userinfo often carry tokens (presigned URLs,
// basic auth), and the fragment is dropped with them.
func ShownURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		// url.Parse quotes its input in its error, so neither is shown.
		return "(an unparsable URL)"
	}
	u.User = nil
	u.RawQuery = ""
	u.ForceQuery = false
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}
