// Package fetch is the agent's one HTTPS client, for config URLs (the kernel
// command line) and secret URLs alike.
//
// It trusts the system store as Go loads it, so SSL_CERT_FILE and SSL_CERT_DIR
// work; Go reads that store once per process, so code that needs another
// trust store inside one process (tests) passes WithRootCAs instead of
// changing the environment. Verification is never disabled. Redirects must
// stay on https (a plain-http hop fails at once) unless the request allows
// http, which is only for a document pinned by a digest.
//
// "Not there yet" answers (connection errors, HTTP 404, 408, 425, 429, 502,
// 503, 504) are retried through package retry until the request's wait runs
// out, honouring Retry-After; anything else fails at once. An attempt still in
// flight at the deadline may finish, within its own bounds (10s to connect,
// 10s for TLS, 30s for the response headers, 2 minutes in all). Bodies are
// capped.
// URLs appear in errors and reports without their query string and
// credentials (secret.ShownURL), and the request's headers never appear at all.
// Nor does anything the other side sent: an error is a class in fixed words
// (ErrUntrustedCA, ErrBadAnswer, ...) or a StatusError (the code as a
// number), and wraps none of the transport's, proxy's or TLS errors, which
// quote status lines, headers, reason phrases, certificate names and
// redirect targets.
//
// It does not know what it fetches: checking digests, parsing documents and
// reading bearer tokens from files are the callers' business.
package fetch
