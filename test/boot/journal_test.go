package boot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// Entry is one journal record, with the fields the assertions use.
type Entry struct {
	Message   string
	Unit      string // UNIT=: the unit systemd's own message is about
	Source    string // _SYSTEMD_UNIT=: the unit of the process that logged
	JobType   string
	JobResult string
	BootID    string
	Seq       uint64 // the journal's own order of records
}

// Journal reads the node's persistent journal from the host, all boots or
// one (bootID non-empty), in the journal's order.
func (n *Node) Journal(bootID string) []Entry {
	n.t.Helper()
	if n.cmd != nil {
		// A running node's journald may hold entries it has not written
		// yet; a loaded machine showed a boot whose agent start was not
		// in the file read right after.
		_, _ = n.Exec("journalctl", "--sync")
	}
	args := []string{"-D", n.Path("/var/log/journal"), "-o", "json", "--no-pager"}
	if bootID != "" {
		args = append(args, "_BOOT_ID="+bootID)
	}
	out, err := exec.Command("journalctl", args...).Output()
	if err != nil && len(out) == 0 {
		n.t.Fatalf("reading %s's journal: %v", n.Name, err)
	}
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var raw map[string]json.RawMessage
		if json.Unmarshal(sc.Bytes(), &raw) != nil {
			continue
		}
		e := Entry{
			Message: field(raw, "MESSAGE"), Unit: field(raw, "UNIT"), Source: field(raw, "_SYSTEMD_UNIT"),
			JobType: field(raw, "JOB_TYPE"), JobResult: field(raw, "JOB_RESULT"), BootID: field(raw, "_BOOT_ID"),
		}
		e.Seq, _ = strconv.ParseUint(field(raw, "__SEQNUM"), 10, 64)
		entries = append(entries, e)
	}
	return entries
}

// field decodes a journal JSON field: a string, or an array of bytes for
// values that are not valid UTF-8.
func field(raw map[string]json.RawMessage, name string) string {
	v, ok := raw[name]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var b []byte
	var ints []int
	if json.Unmarshal(v, &ints) == nil {
		for _, i := range ints {
			b = append(b, byte(i))
		}
		return string(b)
	}
	return string(v)
}

// JournalText is the journal as text for failure messages (the last lines).
func (n *Node) JournalText(bootID string) string {
	return n.journalText(bootID, "300")
}

// JournalAll is the whole journal as text, every field of every record.
func (n *Node) JournalAll() string {
	out, _ := exec.Command("journalctl", "-D", n.Path("/var/log/journal"), "-o", "verbose", "--no-pager").CombinedOutput()
	return string(out)
}

func (n *Node) journalText(bootID, lines string) string {
	args := []string{"-D", n.Path("/var/log/journal"), "-o", "short-monotonic", "--no-pager", "-n", lines}
	if bootID != "" {
		args = append(args, "_BOOT_ID="+bootID)
	}
	out, _ := exec.Command("journalctl", args...).CombinedOutput()
	return string(out)
}

// jobDone is the first record of systemd finishing a job of the given type
// on unit (JOB_RESULT is done, failed, dependency, skipped, ...), or nil.
func jobDone(entries []Entry, unit, jobType string) *Entry {
	for i := range entries {
		e := &entries[i]
		if e.Unit == unit && e.JobType == jobType && e.JobResult != "" {
			return e
		}
	}
	return nil
}

// messages are the records whose message contains s.
func messages(entries []Entry, s string) []Entry {
	var out []Entry
	for _, e := range entries {
		if strings.Contains(e.Message, s) {
			out = append(out, e)
		}
	}
	return out
}

// Show reads unit properties from the running node's systemd.
func (n *Node) Show(unit string, props ...string) map[string]string {
	n.t.Helper()
	return guest.ParseShow(n.MustExec("systemctl", "show", unit, "-p", strings.Join(props, ",")))
}
