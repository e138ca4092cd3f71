package report

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/shown"
	"github.com/corium/corium-agent/internal/shown/showntest"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/listen"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/systemd"
)

// hostileUnits answers every unit's state with an error holding bad, as a
// bus could.
type hostileUnits struct{ bad string }

func (h hostileUnits) UnitState(context.Context, string) (systemd.State, error) {
	return systemd.State{}, errors.New("reading the unit: " + h.bad)
}

// Every byte value and the Unicode line and format characters, as a
// process's comm, a cgroup's unit, a socket's device, a kernel device's
// name, the default route's link and an error of the bus: the text report
// and its verdict line hold none of them raw and no line they wrote, and
// the report's JSON, as the command writes it (shown.JSON), none either.
// The values themselves are kept as they were in the report's fields.
func TestStatusShowsOutsideText(t *testing.T) {
	bad := showntest.Hostile
	n := newNode(t, "wg0")
	root := provision(t, n)
	o, _ := healthy(t, n, 10*time.Second)
	o.Root = root
	any4 := netip.IPv4Unspecified()
	k0s := &listen.Owner{PID: 42, Comm: bad, Cgroups: []string{"/system.slice/k0scontroller.service"}}
	pod := &listen.Owner{PID: 43, Comm: bad, Cgroups: []string{"/kubepods.slice/kubepods-pod" + bad + ".slice/cri-1.scope"}}
	host := &listen.Owner{PID: 44, Comm: bad, Cgroups: []string{"/system.slice/" + bad + ".service"}}
	o.Sockets = fakeSockets{
		{Proto: "tcp", Addr: any4, Port: 16443, Device: bad, Owner: k0s},
		{Proto: "tcp", Addr: any4, Port: 16444, Owner: pod},
		{Proto: "tcp", Addr: any4, Port: 2222, Owner: host},
		{Proto: "udp", Addr: any4, Port: 4789, Kernel: &listen.Kernel{Kind: listen.KernelVXLAN, Device: bad}},
	}
	links := o.Links.(fakeLinks)
	facts := *links.facts
	route := *facts.DefaultRoute
	route.Interface = bad
	facts.DefaultRoute = &route
	links.facts = &facts
	o.Links = links
	o.Units = hostileUnits{bad}

	r := Inspect(context.Background(), o)
	text := textOf(r)
	if raw := showntest.Raw(text); len(raw) > 0 {
		t.Errorf("the text holds %d characters raw, first %v:\n%s", len(raw), raw[:min(3, len(raw))], shown.Lines(text))
	}
	if showntest.ForgedLine(text) {
		t.Errorf("outside text wrote a line of its own:\n%s", shown.Lines(text))
	}
	if first := firstLine(text); first != r.Verdict.Line || !strings.HasPrefix(first, "degraded: firewall: 16443/tcp on 0.0.0.0%\"x\\x00") || !strings.Contains(first, "(\"x\\x00\\x01") {
		t.Errorf("the verdict line does not name the listener with its device and comm quoted:\n%s", first)
	}
	for _, want := range []string{"(default route: \"x\\x00", "\n  k0scontroller.service: reading the unit: x\\x00", "the kernel's VXLAN device \"x\\x00"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, shown.Lines(text))
		}
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if raw := showntest.Raw(string(shown.JSON(js))); len(raw) > 0 {
		t.Errorf("the JSON holds %d characters raw, first %v", len(raw), raw[:min(3, len(raw))])
	}
	if l := r.Listeners.Sockets; len(l) != 4 || l[2].Process != bad || l[2].Device != bad {
		t.Errorf("the report's fields are not the values read: %+v", l)
	}
}

// A failed last run whose error (several joined, the first as the verdict's
// reason) and refusals hold outside text, and a source named by it: the
// verdict line stays the first line and one line, and no line of the
// report is one the text wrote. The error is the agent's own record, one
// error a line, so a line break in it is the break between two errors
// (whoever put outside text into an error quotes it there): it is left
// out of the error's outside text here, and nothing else is.
func TestStatusShowsOutsideTextOfTheLastRun(t *testing.T) {
	bad := showntest.Hostile
	n := newNode(t, "wg0")
	root := provision(t, n)
	st, err := store.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	st.Outcome = status.Failed
	oneLine := strings.ReplaceAll(bad, "\n", "")
	st.Error = "fetching " + oneLine + ": refused\nreading " + oneLine
	st.Refusals = []string{bad}
	st.Provenance = &status.Provenance{Source: bad, Tried: []status.Attempt{{Source: bad, Outcome: "failed", Reason: bad}}}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	o, _ := healthy(t, n, 10*time.Second)
	o.Root = root
	r := Inspect(context.Background(), o)
	text := textOf(r)
	if raw := showntest.Raw(text); len(raw) > 0 {
		t.Errorf("the text holds %d characters raw, first %v:\n%s", len(raw), raw[:min(3, len(raw))], shown.Lines(text))
	}
	if showntest.ForgedLine(text) {
		t.Errorf("outside text wrote a line of its own:\n%s", shown.Lines(text))
	}
	if first := firstLine(text); first != r.Verdict.Line || !strings.HasPrefix(first, "failed: ") || !strings.Contains(first, ": fetching x\\x00") || !strings.HasSuffix(first, "(and 1 more)") {
		t.Errorf("the verdict line is not the run's first error, escaped, on one line:\n%s", first)
	}
	if !strings.Contains(text, "as the first line says, and\nreading x\\x00") {
		t.Errorf("the error's second line is not its own line:\n%s", shown.Lines(text))
	}
}
