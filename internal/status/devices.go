package status

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
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

// ReadDevices reads what each overlay device must look like. ok is false
// when there is no record (an older agent's node, or no overlay).
func ReadDevices(root rootfs.Root) (devices []plan.Device, ok bool, err error) {
	data, err := root.ReadFile(DevicesPath)
	if err != nil {
		if isNotExist(err) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("reading %s: %w", DevicesPath, err)
	}
	var f struct {
		Devices []plan.Device `json:"devices"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, false, fmt.Errorf("decoding %s: %w", DevicesPath, err)
	}
	return f.Devices, true, nil
}
