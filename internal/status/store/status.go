package store

import (
	"encoding/json"
	"fmt"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// Write stores s at Path under the root, readable by root only. It holds no
// secret, but it holds what went wrong with a node's configuration, and a
// message that somehow quoted one should be read by no one else.
func Write(root rootfs.Root, s *status.Status) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding status: %w", err)
	}
	if _, err := root.WriteFile(status.Path, append(b, '\n'), 0o600, 0o755); err != nil {
		return fmt.Errorf("writing status: %w", err)
	}
	return nil
}

// Read loads the status file under the root.
func Read(root rootfs.Root) (*status.Status, error) {
	b, err := root.ReadFile(status.Path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", status.Path, err)
	}
	var s status.Status
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", status.Path, err)
	}
	return &s, nil
}
