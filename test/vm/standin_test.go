package vm

import (
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// read is a guest file's content, "" when it is missing.
func (m *Machine) read(path string) string {
	out, err := m.Exec("cat", path)
	if err != nil {
		return ""
	}
	return out
}

// standIn is the stand-in's record on the running machine.
func (m *Machine) standIn() guest.StandInRecord { return guest.StandInRecord{Read: m.read} }

// standInStartedThisBoot says whether the stand-in's k0s unit ran in this boot.
func (m *Machine) standInStartedThisBoot() bool { return m.standIn().StartedIn(m.BootID) }
