// Package applytest holds stand-ins for what apply drives, for tests:
// RecordingLive, an apply.Live that performs nothing and records each action
// as one line of text; RecordingPeers, an apply.WireGuardPeers that records
// each peer change as text, a preshared key as "set" only; and Devices and
// Links, the verifier's wgctrl and netlink answering as a plan's verify
// actions expect (LiveDevicesFor), so a test changes one thing and reads
// what the verifier says. No production code imports it.
package applytest
