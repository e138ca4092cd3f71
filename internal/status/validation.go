package status

import (
	"encoding/json"

	"github.com/corium/corium-agent/internal/finding"
)

// Validation is the result of validating the document: its findings
// (package finding's one type) by severity.
type Validation struct {
	Valid    bool
	Errors   []finding.Finding
	Warnings []finding.Finding
}

// validationRecord is how the status file spells a Validation. A finding
// is recorded with its path, position and message: the list it is in says
// its severity, and the file's shape predates the source a finding may
// carry, which no rule of the contract has.
type validationRecord struct {
	Valid    bool            `json:"valid"`
	Errors   []findingRecord `json:"errors,omitempty"`
	Warnings []findingRecord `json:"warnings,omitempty"`
}

type findingRecord struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// MarshalJSON writes the status file's form of v.
func (v Validation) MarshalJSON() ([]byte, error) {
	return json.Marshal(validationRecord{Valid: v.Valid, Errors: records(v.Errors), Warnings: records(v.Warnings)})
}

// UnmarshalJSON reads the status file's form of a Validation.
func (v *Validation) UnmarshalJSON(b []byte) error {
	var r validationRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	*v = Validation{Valid: r.Valid, Errors: findings(r.Errors, finding.Error), Warnings: findings(r.Warnings, finding.Warning)}
	return nil
}

func records(fs []finding.Finding) []findingRecord {
	var out []findingRecord
	for _, f := range fs {
		out = append(out, findingRecord{Path: f.Path, Line: f.Line, Col: f.Col, Message: f.Message})
	}
	return out
}

func findings(rs []findingRecord, sev finding.Severity) []finding.Finding {
	var out []finding.Finding
	for _, r := range rs {
		out = append(out, finding.Finding{Path: r.Path, Line: r.Line, Col: r.Col, Severity: sev, Message: r.Message})
	}
	return out
}
