// Package hostfacts is the host's network as render needs it: the links and
// their addresses, the default route, and the route (link, source and MTU)
// to each peer endpoint and unicast VRRP peer. Gather reads them once over netlink, before the run
// changes anything; Parse reads the same facts from a file (--facts), so a
// render under another root is the one a node would make.
//
// It decides nothing (render does) and changes nothing.
package hostfacts
