// Package tlsserver starts local HTTPS servers for tests of what fetches:
// plain ones around a handler, and a ScriptedServer answering the n-th
// request from a script and recording what the client sent (over plain HTTP
// too, for what must be refused without TLS), and Liars, servers that put
// a canary wherever a client might quote them (status lines, headers, a
// proxy's reason phrase, certificate names, redirect targets, bodies too
// large, cut short or never ending). Their certificates are in no
// system store, so a test trusts them explicitly, through CertPool in
// process or CAFile (SSL_CERT_FILE) for a child process.
package tlsserver
