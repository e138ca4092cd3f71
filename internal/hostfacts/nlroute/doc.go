// Package nlroute opens the netlink handles the agent reads links,
// addresses and routes through (host facts, the overlay check, status), on
// the route family alone. It imports nothing of the agent's, so test
// equipment that sets namespaces up opens its handles the same way.
package nlroute
