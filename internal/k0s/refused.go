package k0s

import (
	"encoding/json"
	"errors"

	"github.com/corium/corium-agent/internal/k0s/rules"
)

// Refused is what k0s would refuse of Config at install
// (rules.CheckClusterConfig). Without the node's addresses and password
// Config is not the whole file, so a caller judges which problems are the
// document's. Nil when k0s refuses nothing.
func (e Effective) Refused() rules.Problems { return refused(e.Config) }

// BaseRefused is Refused for Base, the configuration without k0s.patch: what
// the patch did not bring about.
func (e Effective) BaseRefused() rules.Problems { return refused(e.Base) }

func refused(doc map[string]any) rules.Problems {
	data, err := json.Marshal(doc) // JSON is YAML, and encodes in linear time
	if err != nil {
		return nil
	}
	var ps rules.Problems
	if !errors.As(rules.CheckClusterConfig(data), &ps) {
		return nil
	}
	return ps
}
