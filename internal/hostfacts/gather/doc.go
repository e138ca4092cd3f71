// Package gather reads a host's facts (package hostfacts) from netlink: the
// links that are up, their addresses and MTUs, the route to the internet and
// to each peer endpoint. It is the one driver behind the facts; render gets
// the facts as data and never links it.
//
// It reads and changes nothing else: no link is configured, no packet sent.
package gather
