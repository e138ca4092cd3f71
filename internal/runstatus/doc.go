// Package runstatus holds the record of one agent run — provenance, validation
// result, each step with its outcome and duration, the node-address and
// hostname decisions, the error — and writes it to /run/corium/status.json
// under the root, atomically, at the end of every run.
//
// It holds no secret values: only paths, names and outcomes. It does not
// decide anything and does not read live state; the status command reads the
// file back.
package runstatus
