package status

import (
	"bytes"
	"encoding/json"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// EncodeDevices is the devices record's content, one entry per interface
// in the configuration's order.
func EncodeDevices(devices []plan.Device) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Devices []plan.Device `json:"devices"`
	}{devices}); err != nil {
		panic(err) // keys, prefixes and numbers always encode
	}
	return buf.Bytes()
}
