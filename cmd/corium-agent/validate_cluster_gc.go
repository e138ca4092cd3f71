package main

import (
	"os"
	"runtime/debug"
)

// clusterGCPercent is validate --cluster's: it holds every document of the
// set until the check across them runs, so its heap grows with the set
// instead of staying small (gcPercent), and collecting at five times the
// live heap would hold four sets' worth of garbage. At twice (Go's
// default), a 500-node full mesh stays within 256 MB (bench/README.md).
// GOGC still overrides it.
const clusterGCPercent = 100

func collectForSet() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(clusterGCPercent)
	}
}
