// Package status is what the agent keeps on the node about what it did. It
// owns these files of the node, each written as typed data by the run that
// decided it and read back by one reader (package store), so nothing has to
// scrape a flag or a wg-quick line to recover a fact the agent itself
// decided:
//
//   - /run/corium/status.json (Path): the record of one agent run —
//     provenance, validation result, each step with its outcome and
//     duration, the node-address and hostname decisions, the error —
//     written atomically at the end of every run;
//   - /var/lib/corium/provisioned (MarkerPath): the marker, written last:
//     every file and action of the first boot is in place;
//   - /var/lib/corium/applied.yaml (AppliedPath): the configuration as
//     applied;
//   - /var/lib/corium/node-address (NodeAddressPath): the node address the
//     node joined with;
//   - /var/lib/corium/wireguard.json (DevicesPath): what each overlay device
//     must look like once up;
//   - /var/lib/corium/run-started (RunPath): the record of a run that has
//     begun to change the node, removed when it ends, so that the next run
//     can say the one before was cut off (a power cut, a kill).
//
// It holds no secret: the status file has only paths, names and outcomes, the
// applied configuration has its inline secrets as [redacted] and its URLs
// without their queries, and a device's record has a public key and of a
// preshared key only whether one is set.
//
// This package is the records as data: their types, their paths and their
// encodings. It decides nothing and performs no I/O: package store reads and
// writes them under a root, the run writes what render puts in its plan, and
// the status command (package report) reads the files back.
package status
