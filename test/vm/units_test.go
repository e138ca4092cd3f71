package vm

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// Show reads unit properties from the running guest's systemd.
func (m *Machine) Show(unit string, props ...string) map[string]string {
	m.t.Helper()
	return guest.ParseShow(m.MustExec("systemctl", "show", unit, "-p", strings.Join(props, ",")))
}

// seconds is a monotonic timestamp as seconds since the kernel started.
func seconds(us uint64) string {
	if us == 0 {
		return "never"
	}
	return strconv.FormatFloat(float64(us)/1e6, 'f', 1, 64) + "s"
}

// entry is one journal record, with the fields the assertions use.
type entry struct {
	Message   string `json:"MESSAGE"`
	Unit      string `json:"UNIT"`
	JobType   string `json:"JOB_TYPE"`
	JobResult string `json:"JOB_RESULT"`
}

// journal is this boot's records about unit (systemd's own, UNIT=) or from
// it (_SYSTEMD_UNIT=), in order.
func (m *Machine) journal(match string) []entry {
	m.t.Helper()
	out := m.MustExec("journalctl", "-b", "0", "-o", "json", "--no-pager", "--output-fields=MESSAGE,UNIT,JOB_TYPE,JOB_RESULT", match)
	var entries []entry
	for _, line := range strings.Split(out, "\n") {
		var e entry
		// A field that is not valid UTF-8 is an array of bytes; such
		// records are not the ones asserted on.
		if json.Unmarshal([]byte(line), &e) == nil {
			entries = append(entries, e)
		}
	}
	return entries
}

// jobResult is the result of this boot's job of the given type on unit
// (done, failed, dependency, skipped, ...), "" when none finished.
func (m *Machine) jobResult(unit, jobType string) string {
	m.t.Helper()
	for _, e := range m.journal("UNIT=" + unit) {
		if e.JobType == jobType && e.JobResult != "" {
			return e.JobResult
		}
	}
	return ""
}

// afterList is the unit's After= as systemd resolved it.
func (m *Machine) afterList(unit string) []string {
	m.t.Helper()
	return strings.Fields(m.Show(unit, "After")["After"])
}
