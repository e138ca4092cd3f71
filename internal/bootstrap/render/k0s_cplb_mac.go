package render

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/hostfacts"
)

// vrrpInterfaceByMAC is the interface holding mac, which ha.interface gives
// for it: k0s resolves a MAC address to the first of the host's links whose
// address prints as it and fails at install when none does (k0s
// v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/cplb.go:152-154, cplb_linux.go:35-57).
// The k0s configuration keeps the MAC, so k0s resolves it itself; the agent
// resolves it only to find the unicast source and to refuse before the
// first write what k0s would refuse, or would resolve to a link the
// operator did not mean. why says what is missing, "" when name is found.
func vrrpInterfaceByMAC(mac string, facts *hostfacts.Facts) (name, why string) {
	if !facts.HasMACs() {
		return "", "the host facts hold no MAC addresses (a facts file written without them); give each interface its mac, or name the interface in ha.interface"
	}
	links := facts.InterfacesWithMAC(mac)
	switch len(links) {
	case 0:
		return "", "no interface that is up holds it (k0s would fail at install: interface with MAC address not found); check the address with ip link, or name the interface"
	case 1:
		return links[0].Name, ""
	}
	names := make([]string, len(links))
	for i, l := range links {
		names[i] = l.Name
	}
	return "", fmt.Sprintf("%d interfaces hold it (%s: a bond shares its address with its ports and VLANs), and k0s takes the first in the kernel's order; name the interface instead",
		len(links), strings.Join(names, ", "))
}
