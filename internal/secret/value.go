package secret

import (
	"encoding/json"
	"fmt"
	"log/slog"
)

// Redacted is what every printed form of a Value shows.
const Redacted = "[redacted]"

// Value holds secret bytes. Every way Go has of printing or marshalling it
// yields Redacted; the only way out is Reveal, so a leak needs an explicit call
// that a reviewer can find with grep.
type Value struct {
	b []byte
}

// NewValue wraps secret text.
func NewValue(s string) Value { return Value{b: []byte(s)} }

// Reveal returns the secret itself. Call it only where the value is written to
// its one destination (a 0600 file, a k0s config).
func (v Value) Reveal() string { return string(v.b) }

// IsZero reports whether no secret is held.
func (v Value) IsZero() bool { return len(v.b) == 0 }

func (v Value) String() string               { return Redacted }
func (v Value) GoString() string             { return Redacted }
func (v Value) Format(f fmt.State, _ rune)   { _, _ = f.Write([]byte(Redacted)) }
func (v Value) LogValue() slog.Value         { return slog.StringValue(Redacted) }
func (v Value) MarshalJSON() ([]byte, error) { return json.Marshal(Redacted) }
func (v Value) MarshalText() ([]byte, error) { return []byte(Redacted), nil }
func (v Value) MarshalYAML() (any, error)    { return Redacted, nil }

// UnmarshalYAML takes the secret from a scalar in the document.
func (v *Value) UnmarshalYAML(unmarshal func(any) error) error {
	var s string
	if err := unmarshal(&s); err != nil {
		return err
	}
	v.b = []byte(s)
	return nil
}
