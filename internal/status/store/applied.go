package store

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status"
)

// ReadApplied reads the configuration the last run applied. It is a record,
// not a configuration to run: its inline secrets read as "[redacted]".
func ReadApplied(root rootfs.Root) (*schema.Config, error) {
	data, err := root.ReadFile(status.AppliedPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", status.AppliedPath, err)
	}
	var cfg schema.Config
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", status.AppliedPath, err)
	}
	return &cfg, nil
}
