// Package systemdtest holds a systemd.Manager for tests: Fake records every
// call as a line of text and answers from maps, so a test reads what a live
// host would have been asked to do. No production code imports it.
package systemdtest
