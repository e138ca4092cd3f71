package report

import "testing"

// A peer is named by the address its allowedIPs route to it on the
// interface's network; a hub by the route; else by its first host route.
func TestOverlayAddress(t *testing.T) {
	for _, tc := range []struct {
		own, allowed []string
		want         string
	}{
		{[]string{"10.30.0.1/24"}, []string{"10.30.0.2/32"}, "10.30.0.2"},
		{[]string{"10.30.0.1/24"}, []string{"10.244.1.0/24", "10.30.0.2/32"}, "10.30.0.2"},
		{[]string{"10.30.0.1/24", "fd00::1/64"}, []string{"fd00::2/128", "10.30.0.2/32"}, "fd00::2"},
		{[]string{"10.30.0.1/24"}, []string{"10.30.0.0/25"}, "10.30.0.0/25"},
		{[]string{"10.30.0.1/32"}, []string{"10.30.0.2/32"}, "10.30.0.2"},
		{[]string{"10.30.0.1/24"}, []string{"10.40.0.0/16"}, ""},
	} {
		if got := overlayAddress(tc.own, tc.allowed); got != tc.want {
			t.Errorf("%v %v: %q, want %q", tc.own, tc.allowed, got, tc.want)
		}
	}
	if got := (Peer{PublicKey: "U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o=", Address: "10.30.0.2"}).Name(); got != "10.30.0.2 (U4KrOLxW...)" {
		t.Errorf("name %q", got)
	}
}
