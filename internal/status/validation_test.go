package status

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
)

// The status file records a finding as it always has: path, position and
// message, the severity said by the list it is in; and reads it back so.
func TestValidationRecord(t *testing.T) {
	v := Validation{
		Errors:   []finding.Finding{{Path: "role", Line: 1, Col: 7, Severity: finding.Error, Message: "is bad"}, {Severity: finding.Error, Message: "and 3 more findings"}},
		Warnings: []finding.Finding{{Path: "ha", Severity: finding.Warning, Message: "is odd"}},
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"valid":false,"errors":[{"path":"role","line":1,"col":7,"message":"is bad"},{"path":"","message":"and 3 more findings"}],"warnings":[{"path":"ha","message":"is odd"}]}`
	if string(b) != want {
		t.Errorf("recorded\n%s\nwant\n%s", b, want)
	}
	var back Validation
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("read back %+v, want %+v", back, v)
	}
	if b, _ := json.Marshal(Validation{Valid: true}); string(b) != `{"valid":true}` {
		t.Errorf("a valid document records %s", b)
	}
}
