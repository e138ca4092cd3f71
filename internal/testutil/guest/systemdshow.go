package guest

import (
	"strconv"
	"strings"
)

// ParseShow is `systemctl show -p A,B` output as a map of property to value.
func ParseShow(out string) map[string]string {
	props := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			props[k] = v
		}
	}
	return props
}

// Monotonic is a *TimestampMonotonic property in microseconds (0 = never).
func Monotonic(props map[string]string, name string) uint64 {
	v, _ := strconv.ParseUint(props[name], 10, 64)
	return v
}
