package finding

import "testing"

func TestPath(t *testing.T) {
	for _, c := range []struct {
		got  Path
		want string
	}{
		{Path("").Field("wireguard").Index(0).Field("peers").Index(3).Field("publicKey"), "wireguard[0].peers[3].publicKey"},
		{Path("node").Field("labels").Key("app"), `node.labels["app"]`},
		{Path("k0s.patch").Key("spec").Key(`a"b`), `k0s.patch["spec"]["a\"b"]`},
		{Path("").Fields("spec.network.podCIDR"), "spec.network.podCIDR"},
		{Path("").Index(2), "[2]"},
	} {
		if c.got.String() != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestString(t *testing.T) {
	if s := (Finding{Path: "a.b", Message: "is bad"}).String(); s != "a.b: is bad" {
		t.Errorf("%q", s)
	}
	if s := (Finding{Message: "no block"}).String(); s != "no block" {
		t.Errorf("%q", s)
	}
}
