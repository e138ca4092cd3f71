package status

import (
	"errors"
	"io/fs"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// Marker is the marker's content.
func Marker() []byte { return []byte(plan.Managed("#") + "provisioned\n") }

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
