package finding

// Severity separates problems that stop a node from advice.
type Severity int

const (
	// Error makes a document invalid.
	Error Severity = iota
	// Warning is printed and never fatal, except under --strict.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText spells the severity for JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one problem. Path is the field in the spelling of what was
// checked (wireguard[0].peers[1].allowedIPs[0] in a node document,
// spec.network.podCIDR in a ClusterConfig, --single on a command line); Line
// and Col are 1-based and zero when there is no position for it. Message is
// lowercase and never quotes a secret value. Source is the file and line of
// the program whose rule this mirrors (k0s's, at the tag the agent targets),
// "" for the agent's own rules.
type Finding struct {
	Path     string   `json:"path"`
	Line     int      `json:"line,omitempty"`
	Col      int      `json:"col,omitempty"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Source   string   `json:"source,omitempty"`
}

// String is "PATH: message", the form errors carry, or the message alone
// when the finding has no path.
func (f Finding) String() string {
	if f.Path == "" {
		return f.Message
	}
	return f.Path + ": " + f.Message
}
