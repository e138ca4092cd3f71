package status

import "github.com/corium/corium-agent/internal/bootstrap/plan"

// Marker is the marker's content.
func Marker() []byte { return []byte(plan.Managed("#") + "provisioned\n") }
