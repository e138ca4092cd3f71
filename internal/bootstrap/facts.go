package bootstrap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
)

// Facts is what the host's network looks like, as node-address selection
// needs it. On a live host GatherFacts reads it over netlink; under another
// root it comes from --facts FILE, so the same selection runs in tests.
//
// The JSON form:
//
//	{
//	  "interfaces": [
//	    {"name": "eth0", "addresses": ["192.0.2.10/24", "2001:db8::10/64"]},
//	    {"name": "wg0", "addresses": ["10.10.0.1/24"]}
//	  ],
//	  "defaultRoute": {"interface": "eth0", "source": "192.0.2.10"}
//	}
//
// defaultRoute is omitted (or null) when the host has no default route.
type Facts struct {
	Interfaces   []InterfaceFacts `json:"interfaces"`
	DefaultRoute *RouteFacts      `json:"defaultRoute,omitempty"`
}

// InterfaceFacts is one link that is up, with its addresses in kernel order.
type InterfaceFacts struct {
	Name      string         `json:"name"`
	Addresses []netip.Prefix `json:"addresses"`
}

// RouteFacts is the route the host uses to reach the internet.
type RouteFacts struct {
	Interface string     `json:"interface"`
	Source    netip.Addr `json:"source"`
}

// ParseFacts reads the JSON form of Facts; unknown keys are errors, as in the
// configuration, so a misspelled key is not silently ignored.
func ParseFacts(data []byte) (*Facts, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f Facts
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("parsing facts: %w", err)
	}
	for i, iface := range f.Interfaces {
		if iface.Name == "" {
			return nil, fmt.Errorf("parsing facts: interfaces[%d].name: required", i)
		}
	}
	return &f, nil
}

// Interface returns the facts of the named link, or nil.
func (f *Facts) Interface(name string) *InterfaceFacts {
	for i := range f.Interfaces {
		if f.Interfaces[i].Name == name {
			return &f.Interfaces[i]
		}
	}
	return nil
}
