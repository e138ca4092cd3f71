// Package record is what the agent keeps on the node about what it did, under
// /var/lib/corium: the marker (every file and action of the first boot is in
// place), the configuration as applied, the node address the node joined
// with, and what each overlay device must look like. Each is written as
// typed data by the run that decided it and read back by one reader here,
// so nothing has to scrape a flag or a wg-quick line to recover a fact the
// agent itself decided.
//
// It holds no secret: the applied configuration has its inline secrets as
// [redacted] and its URLs without their queries, and a device's record has
// a public key and of a preshared key only whether one is set.
//
// It decides nothing and performs no I/O of its own beyond reading under a
// root; the run writes what render puts in its plan.
package record
