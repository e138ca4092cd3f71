package render

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
)

// The verify action carries the device it checks as data, and the record
// of the devices holds the same, so status reads what apply verified.
func TestVerifyActionCarriesItsDevice(t *testing.T) {
	step := workerStep(t)
	var verified []plan.Device
	for _, a := range step.Actions {
		if a.Kind == plan.ActionVerifyDevice {
			if a.Device == nil || a.Args != nil {
				t.Fatalf("verify action %+v: want its device as data and no arguments", a)
			}
			verified = append(verified, *a.Device)
		}
	}
	var rec []byte
	for _, f := range step.Files {
		if f.Path == status.DevicesPath {
			rec = f.Content
		}
	}
	if !strings.Contains(string(rec), verified[0].PublicKey.String()) || strings.Contains(string(rec), testPrivA) {
		t.Errorf("the devices record does not hold the verified device's public key, or holds the private key:\n%s", rec)
	}
	root := rootfs.New(t.TempDir())
	if _, err := root.WriteFile(status.DevicesPath, rec, 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	got, ok, err := store.ReadDevices(root)
	if err != nil || !ok || len(got) != len(verified) || got[0].PublicKey != verified[0].PublicKey || got[0].MTU != verified[0].MTU {
		t.Errorf("read back %+v, %v, %v; want %+v", got, ok, err, verified)
	}
}
