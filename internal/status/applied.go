package status

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

// EncodeApplied is the configuration as applied: secret references as
// written (URLs without what grants access), inline secrets as [redacted].
// An again run compares a new document with it and status reports from it.
func EncodeApplied(cfg *schema.Config) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(rootfs.Managed("#"))
	buf.WriteString("# the configuration as applied; inline secrets are redacted\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(cfg); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", AppliedPath, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", AppliedPath, err)
	}
	return buf.Bytes(), nil
}

// ReadApplied reads the configuration the last run applied. It is a record,
// not a configuration to run: its inline secrets read as "[redacted]".
func ReadApplied(root rootfs.Root) (*schema.Config, error) {
	data, err := root.ReadFile(AppliedPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", AppliedPath, err)
	}
	var cfg schema.Config
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", AppliedPath, err)
	}
	return &cfg, nil
}
