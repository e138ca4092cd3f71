package schema

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/vishvananda/netlink"

	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

func TestHostLink(t *testing.T) {
	for s, want := range map[string]bool{
		// Names the kernel takes, VLANs and bonds among them.
		"eth0": true, "bond0.100": true, "enp3s0f1": true, "br-lan": true, "eth0.100@x": true,
		"Team_1": true, "vlan.4094": true, strings.Repeat("a", 15): true, "...": true,
		// dev_valid_name's refusals, and a control character.
		"": false, ".": false, "..": false, "eth0:1": false, "a/b": false, "a b": false,
		"a\tb": false, "a\nb": false, strings.Repeat("a", 16): false, "x\u00a0y": false, "a\x01": false,
		// Names the kernel takes and keepalived reads otherwise where k0s
		// writes them (test/lab's TestKeepalivedReadsAuthPass shows how).
		"e#0": false, "e!0": false, `e"0`: false, "e{0": false, "e}0": false, "$_PWD": false, `e\0`: false,
		// A MAC address as ip link prints it, of each length net.ParseMAC reads.
		"52:54:00:ab:cd:ef": true, "02:00:00:00:00:00:00:01": true,
		"80:00:02:08:fe:80:00:00:00:00:00:00:02:00:5e:10:00:00:00:01": true,
		// What k0s would read as a MAC and never find (cplb_linux.go:52
		// compares with HardwareAddr.String()).
		"52:54:00:AB:CD:EF": false, "52-54-00-ab-cd-ef": false, "5254.00ab.cdef": false,
	} {
		if got := isHostLink(s); got != want {
			t.Errorf("isHostLink(%q) = %v, want %v", s, got, want)
		}
	}
}

// The name rule is the kernel's: a link of every name it accepts can
// be made, of every name it refuses cannot, control characters aside (the
// kernel takes them; keepalived's line-based configuration would not).
func TestKernelLinkNameIsTheKernels(t *testing.T) {
	host.RequireRoot(t, "ip")
	nl := netns.New(t, "ifname").Netlink(t)
	names := []string{
		"eth0", "bond0.100", "a", strings.Repeat("b", 15), strings.Repeat("c", 16), ".", "..", "...",
		"eth0:1", "a/b", "a b", "x\u00a0y", "\u00e9t\u00e9", "5254.00ab.cdef", "UP-per_1", "-x", "v@1", "a\u00e0",
	}
	for i, name := range names {
		err := nl.LinkAdd(&netlink.Veth{LinkAttrs: netlink.LinkAttrs{Name: name}, PeerName: fmt.Sprintf("peer%d", i)})
		if kernel := err == nil; kernel != isKernelLinkName(name) {
			t.Errorf("%q: the kernel takes it: %v (%v); isKernelLinkName: %v", name, kernel, err, !kernel)
		}
	}
	for _, name := range []string{"a\x01", "a\tb", "a\x7f"} {
		if isKernelLinkName(name) || !strings.ContainsFunc(name, unicode.IsControl) {
			t.Errorf("%q: a control character is refused", name)
		}
	}
}

func TestDNSSubdomain(t *testing.T) {
	long := strings.Repeat("a", 63)
	for s, want := range map[string]bool{
		"worker-3": true, "rack3-u12.dc1.example.com": true, "0.a": true,
		long + "." + long + "." + long + "." + strings.Repeat("b", 61): true,  // 253
		long + "." + long + "." + long + "." + strings.Repeat("b", 62): false, // 254
		strings.Repeat("a", 64): false, "": false, "a..b": false, ".a": false, "a.": false,
		"A.b": false, "a_b.c": false, "-a.b": false, "a-.b": false,
	} {
		if got := isDNSSubdomain(s); got != want {
			t.Errorf("isDNSSubdomain(%q) = %v, want %v", s, got, want)
		}
	}
}
