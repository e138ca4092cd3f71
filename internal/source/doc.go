// Package source finds the node's configuration document: the chain of
// /etc/corium/config.yaml, cloud-init's merged cloud-config, the kernel
// command line (corium.config=) and the image default
// /usr/share/corium/config.yaml, tried in that order under a root. The first
// source that holds a corium block wins.
//
// A source is absent (the chain moves on) only in the cases the contract
// lists: a missing file, an empty one, no corium.config= on the command line,
// or a cloud-config without a corium: key. Anything else fails and stops the
// chain, because falling through to a later source when the intended one is
// broken is how a node silently joins the wrong cluster. Every source tried is
// recorded with its outcome (the provenance), logged and returned.
//
// It does not parse or validate the block (schema does): it only looks at the
// document's top-level keys to tell whether a corium block is there. It does
// not fetch by itself either: URLs go through internal/fetch.
package source
