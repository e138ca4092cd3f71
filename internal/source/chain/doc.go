// Package chain finds the node's configuration document: the chain of
// /etc/corium/config.yaml, cloud-init's merged cloud-config
// (/var/lib/cloud/instance/cloud-config.txt), the kernel command line
// (corium.config= in /proc/cmdline) and the image default
// /usr/share/corium/config.yaml, tried in that order, every path under a
// root. The first source that holds a corium block wins, unless the kernel
// command line pins a document (corium.config.sha256=): a pin binds the node,
// which runs the pinned document or nothing. The pin is read before any
// source, and a malformed or cut one, or one without corium.config= beside
// it, fails there. An earlier source holding a corium block is then a
// failure naming both sources, unless its bytes are the pinned document's
// (it is recorded as ignored, and the pinned source runs); see binding.
//
// A source is absent (the chain moves on) only in the cases the contract
// lists: a missing file, an empty or whitespace-only one, no corium.config=
// on the command line, or a cloud-config without a corium: key. Anything
// else fails and stops the chain, because falling through to a later source
// when the intended one is broken is how a node silently joins the wrong
// cluster. Where the contract is silent, the same rule decides:
//   - a standalone file holding only comments, a list, a scalar, or a mapping
//     with none of the block's keys fails (it was meant to say something);
//   - corium.config= with an empty value fails, as does a relative path or
//     any scheme but https, http (pinned) and data;
//   - a pinned path form whose file is missing or empty fails (the pin
//     names the one document the node must run, so the chain must not fall
//     through to another); an empty fetched or inline document fails, and
//     so does a pinned one without a corium block;
//   - an unreadable /proc/cmdline fails; a missing one (a bare directory
//     root) is absent;
//   - a command line the kernel cut at its limit (source.MaxCmdline, 2,047 bytes on
//     x86-64) inside one of the chain's parameters fails, saying it was cut:
//     what is left of it would read as a document with fields missing, a
//     pin that is not hex, or a path that does not exist. Only a pinned
//     data: document can show that it filled the line to the byte whole.
//
// Each document is judged as package source reads it (source.Inspect, and
// for the command line source.Params.Accept), and goes on in the Result
// with its schema.Tree, so the schema decodes it without parsing it again.
//
// Every source tried is recorded with its outcome (the provenance), logged
// through log/slog and returned, also on failure. Reasons never hold a
// secret: an inline data: document shows only its size, and URLs lose their
// query string and user info.
//
// Options.ConfigFile (--config) replaces the chain; it is a host path, as a
// workstation tool hands it over, read as validate reads it (source.Unpack),
// and with nothing to fall back to, missing or blank is a failure there.
//
// It is the only part of the source stage that links net/http: URLs go
// through internal/fetch, the agent's one HTTPS client.
package chain
