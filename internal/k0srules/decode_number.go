package k0srules

import (
	"math"
	"strconv"
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
				return &value{kind: vInt, i: int64(v.f), line: v.line}
			}
			if v.f >= 0 && v.f < math.MaxUint64 {
				return &value{kind: vUint, u: uint64(v.f), line: v.line}
			}
		}
	}
	return nil
}

func (d *decoder) number(v *value, k kind, path string) *value {
	n := d.integral(v)
	if n == nil {
		if v.kind == vFloat {
			d.fail(path, srcDecode, "cannot unmarshal number %s into a field of type %s", strconv.FormatFloat(v.f, 'g', -1, 64), goKind(k))
		} else {
			d.typeError(path, v, goKind(k))
		}
		return nil
	}
	lo, hi := int64(math.MinInt64), uint64(math.MaxInt64)
	switch k {
	case kInt32:
		lo, hi = math.MinInt32, math.MaxInt32
	case kUint32:
		lo, hi = 0, math.MaxUint32
	}
	inRange := (n.kind == vInt && n.i >= lo && (n.i < 0 || uint64(n.i) <= hi)) || (n.kind == vUint && n.u <= hi)
	if !inRange {
		d.fail(path, srcDecode, "cannot unmarshal number %s into a field of type %s", n.text(), goKind(k))
		return nil
	}
	if n.kind == vUint {
		return &value{kind: vInt, i: int64(n.u), line: n.line}
	}
	return n
}

func (v *value) text() string {
	switch v.kind {
	case vInt:
		return strconv.FormatInt(v.i, 10)
	case vUint:
		return strconv.FormatUint(v.u, 10)
	case vFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case vBool:
		return strconv.FormatBool(v.b)
	case vString:
		return v.s
	}
	return v.jsonKind()
}
