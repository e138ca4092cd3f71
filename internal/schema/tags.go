package schema

import (
	"strconv"
	"strings"
)

// The reference and the JSON Schema read the validate tags the field rules
// are written in, so neither can drift from what validator checks. This is
// a reader of the tags for documentation, not a second validator.

// tagCheck is one tag of a chain: its name and parameter, the parameter as
// a number for eq, min and max, oneof's choices, and for dive the checks on
// a map's keys.
type tagCheck struct {
	tag   string
	param string
	num   int
	oneof []string
	keys  []tagCheck
}

// parseChain reads a validate tag.
func parseChain(tag string) []tagCheck {
	if tag == "" {
		return nil
	}
	var chain []tagCheck
	parts := strings.Split(tag, ",")
	for i := 0; i < len(parts); i++ {
		name, param, _ := strings.Cut(parts[i], "=")
		c := tagCheck{tag: name, param: param}
		c.num, _ = strconv.Atoi(param)
		if name == "oneof" {
			c.oneof = strings.Fields(param)
		}
		if name == "dive" && i+1 < len(parts) && parts[i+1] == "keys" {
			end := i + 2
			for end < len(parts) && parts[end] != "endkeys" {
				end++
			}
			c.keys = parseChain(strings.Join(parts[i+2:min(end, len(parts))], ","))
			i = end
		}
		chain = append(chain, c)
	}
	return chain
}

// splitDive separates a chain's checks on the value from those on a map's
// keys and on the items, after a dive.
func splitDive(chain []tagCheck) (own, keys, items []tagCheck) {
	for i, c := range chain {
		if c.tag == "dive" {
			return chain[:i], c.keys, chain[i+1:]
		}
	}
	return chain, nil, nil
}
