package firewall

import "errors"

// ErrNotRendered means no guard was rendered under the root: the node has not
// been provisioned, which is not the same as a guard that is off.
var ErrNotRendered = errors.New("no rendered guard")

// ErrBadFile means the rendered guard is there but cannot be used as
// written: torn, edited, or from an agent this one does not know.
var ErrBadFile = errors.New("the rendered guard cannot be used")
