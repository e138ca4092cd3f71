// Package store reads and writes the node's records under a root: the status
// file of a run (Write, Read), the configuration as applied (ReadApplied),
// the devices record (ReadDevices), the node address (ReadNodeAddress) and
// the record of a run under way (BeginRun, EndRun, ReadUnfinished). What the
// records hold, where they live and how they are encoded is package status's;
// this package is the I/O beside it.
//
// It reads and writes through package rootfs only and decides nothing: the
// run writes what render puts in its plan, and the status command (package
// report) reads the files back.
package store
