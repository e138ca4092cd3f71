package rules

// The ClusterConfig's shape as k0s's decoder sees it: for each v1beta1 type,
// its JSON field names (the json tags) and what each holds. The tables are
// written from the type definitions in pkg/apis/k0s/v1beta1 at
// v1.36.3+k0s.0; each names the file and line of its struct.

// kind is what a field holds, as encoding/json decodes it.
type kind int

const (
	kString kind = iota
	kBool
	kInt    // Go int (64 bits)
	kInt32  // int32
	kInt64  // int64
	kUint32 // uint32
	// kDuration is metav1.Duration: a string time.ParseDuration accepts;
	// null is refused (its UnmarshalJSON parses "" then).
	kDuration
	// kCompatDuration is v1beta1.BackwardCompatibleDuration: a duration
	// string or an integer of nanoseconds (extensions.go:127).
	kCompatDuration
	kTime      // metav1.Time: an RFC 3339 string
	kRaw       // anything (runtime.RawExtension, metav1.FieldsV1)
	kStrings   // []string
	kStringMap // map[string]string
	kObject    // a struct: of
	kList      // a slice of structs: of
)

type field struct {
	name string
	kind kind
	of   *typ
}

// typ is a struct type. lenient marks a type with its own UnmarshalJSON that
// decodes with a plain json.Unmarshal: k0s's strict decoder stops at it, so
// unknown keys anywhere below are dropped, not refused.
type typ struct {
	name    string
	source  string
	lenient bool
	fields  []field
}

func (t *typ) field(key string) (field, bool) {
	// encoding/json prefers an exact match, then takes a case-insensitive
	// one: `podcidr` sets podCIDR.
	for _, f := range t.fields {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range t.fields {
		if FoldEqual(f.name, key) {
			return f, true
		}
	}
	return field{}, false
}

func str(name string) field             { return field{name: name, kind: kString} }
func boolean(name string) field         { return field{name: name, kind: kBool} }
func number(name string, k kind) field  { return field{name: name, kind: k} }
func strs(name string) field            { return field{name: name, kind: kStrings} }
func strMap(name string) field          { return field{name: name, kind: kStringMap} }
func duration(name string) field        { return field{name: name, kind: kDuration} }
func object(name string, t *typ) field  { return field{name: name, kind: kObject, of: t} }
func listOf(name string, t *typ) field  { return field{name: name, kind: kList, of: t} }
func anything(name string) field        { return field{name: name, kind: kRaw} }
func fieldOf(name string, k kind) field { return field{name: name, kind: k} }
