package bootstrap

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The planned record of the devices shows the publicKey the document
// states, or that the key is derived at apply: never the public key of the
// plan's placeholder private key, which would be the same on every node.
func TestPlanDevicesShowNoPlaceholderKey(t *testing.T) {
	placeholder, err := wgtypes.ParseKey(dummyKey)
	if err != nil {
		t.Fatal(err)
	}
	bogus := placeholder.PublicKey().String()
	stated := fixture.GenKey(t).PublicKey().String()
	for _, tc := range []struct {
		name, config, want string
	}{
		{"stated", demoStating(t, stated), `"publicKey": "` + stated + `"`},
		{"unstated", filepath.Join(demoDir, "config.yaml"), `"publicKey": "(derived at apply)"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := demoOptions(newDemoRoot(t), nil)
			o.ConfigFile, o.Resolver = tc.config, nil
			rep, err := Plan(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			var diff string
			for _, s := range rep.Steps {
				for _, f := range s.Files {
					if f.Path == status.DevicesPath {
						diff = f.Diff
					}
				}
			}
			if diff == "" || strings.Contains(diff, bogus) || !strings.Contains(diff, tc.want) {
				t.Errorf("%s in the plan, want %s and not the placeholder's key %s:\n%s", status.DevicesPath, tc.want, bogus, diff)
			}
		})
	}
}
