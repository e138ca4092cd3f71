package store

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// ReadDevices reads what each overlay device must look like. ok is false
// when there is no record (an older agent's node, or no overlay).
func ReadDevices(root rootfs.Root) (devices []plan.Device, ok bool, err error) {
	data, err := root.ReadFile(status.DevicesPath)
	if err != nil {
		if isNotExist(err) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("reading %s: %w", status.DevicesPath, err)
	}
	var f struct {
		Devices []plan.Device `json:"devices"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, false, fmt.Errorf("decoding %s: %w", status.DevicesPath, err)
	}
	return f.Devices, true, nil
}
