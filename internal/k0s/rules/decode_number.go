package rules

import (
	"fmt"
	"math"

	"github.com/corium/corium-agent/internal/finding"
)

// Numbers as encoding/json decodes them into k0s's integer fields.

// integral is v as an integer if encoding/json would decode it into one:
// JSON integers, and floats with no fraction (json.Marshal writes 1400.0 as
// 1400).
func (d *decoder) integral(v *value) *value {
	switch v.kind {
	case vInt:
		return v
	case vUint:
		return v
	case vFloat:
		if v.f == math.Trunc(v.f) && math.Abs(v.f) < 1e21 {
			if v.f >= math.MinInt64 && v.f < math.MaxInt64 {
				return &value{kind: vInt, i: int64(v.f)}
			}
			if v.f >= 0 && v.f < math.MaxUint64 {
				return &value{kind: vUint, u: uint64(v.f)}
			}
		}
	}
	return nil
}

func (d *decoder) number(v *value, k kind, path finding.Path) *value {
	lo, hi := int64(math.MinInt64), uint64(math.MaxInt64)
	switch k {
	case kInt32:
		lo, hi = math.MinInt32, math.MaxInt32
	case kUint32:
		lo, hi = 0, math.MaxUint32
	}
	// encoding/json's message quotes the number; this one says what kind
	// of number it is and which ones fit.
	fits := "write an integer, without quotes"
	if k == kInt32 || k == kUint32 {
		fits = fmt.Sprintf("write an integer from %d to %d, without quotes", lo, hi)
	}
	n := d.integral(v)
	if n == nil {
		switch {
		case v.kind == vFloat && v.f != math.Trunc(v.f):
			d.fail(path, srcDecode, "cannot unmarshal a number with a fraction into a field of type "+goKind(k)+": "+fits)
		case v.kind == vFloat:
			d.fail(path, srcDecode, "cannot unmarshal a number too large for a field of type "+goKind(k)+": "+fits)
		default:
			d.typeError(path, v, goKind(k))
		}
		return nil
	}
	inRange := (n.kind == vInt && n.i >= lo && (n.i < 0 || uint64(n.i) <= hi)) || (n.kind == vUint && n.u <= hi)
	if !inRange {
		d.fail(path, srcDecode, "cannot unmarshal a number outside the range of "+goKind(k)+" into a field of type "+goKind(k)+": "+fits)
		return nil
	}
	if n.kind == vUint {
		return &value{kind: vInt, i: int64(n.u)}
	}
	return n
}
