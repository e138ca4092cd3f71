package chain

import (
	"fmt"

	"github.com/corium/corium-agent/internal/source"
)

// binding is what a pin on the kernel command line binds: the node runs the
// pinned document or nothing. Cloud-init may read user-data from plain-http
// metadata, which anyone on the path can forge, so a corium block in an
// earlier source must not outrank the pin.
//
// An earlier source whose document is the pinned one byte for byte (its
// SHA-256 is the pin) is no rival, for instance corium.config= naming
// /etc/corium/config.yaml itself: it is recorded as ignored and the pinned
// source runs. Anything else holding a corium block, however close to the
// pinned document, is a conflict: the chain stops naming both sources.
// Bytes, not meaning, are compared, because "the same configuration" would
// need the document decoded before it is trusted.
type binding struct {
	pin   string // lowercase hex
	shown string // corium.config= as it may be logged
}

// String names the pinned source for provenance and errors.
func (b *binding) String() string {
	return fmt.Sprintf("%s=%s with %s=%s", source.ParamConfig, b.shown, source.ParamSHA256, b.pin)
}

// check judges the block an earlier source yields.
func (b *binding) check(name string, a answer) (answer, error) {
	// The other document's digest is not shown: with its text guessed, a
	// digest confirms a guessed password in it.
	if source.CheckPin(a.data, b.pin) != nil {
		return answer{}, &conflictError{source: name, pinned: b}
	}
	return answer{ignored: "holds the very document the kernel command line pins (" + b.String() + "); the pinned source runs"}, nil
}

// conflictError is an earlier source holding a corium block other than the
// pinned document.
type conflictError struct {
	source string
	pinned *binding
}

func (e *conflictError) Error() string {
	where, remove := e.source, "remove the corium block from "+e.source
	if e.source == NameCloudInit {
		where = "cloud-init's user-data (" + CloudConfigPath + ")"
		remove = "remove the corium: key from the instance's user-data"
	}
	return fmt.Sprintf("%s holds a corium block that is not the document the kernel command line pins (%s); a pin binds the node to the pinned document, so no other may run: %s, or drop %s= from the kernel command line",
		where, e.pinned, remove, source.ParamSHA256)
}
