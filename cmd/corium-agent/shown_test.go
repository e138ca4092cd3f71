package main

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster/clustergen"
	"github.com/corium/corium-agent/internal/shown"
	"github.com/corium/corium-agent/internal/shown/showntest"
	"github.com/corium/corium-agent/internal/status/listen"
	"github.com/corium/corium-agent/internal/status/report"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// hostileSockets is a node's sockets whose holders and devices are named
// with every byte value and the Unicode line and format characters.
type hostileSockets struct{}

func (hostileSockets) Listening() ([]listen.Socket, error) {
	bad, any4 := showntest.Hostile, netip.IPv4Unspecified()
	return []listen.Socket{
		{Proto: "tcp", Addr: any4, Port: 16443, Device: bad, Owner: &listen.Owner{PID: 42, Comm: bad, Cgroups: []string{"/system.slice/k0scontroller.service"}}},
		{Proto: "tcp", Addr: any4, Port: 16444, Owner: &listen.Owner{PID: 43, Comm: bad, Cgroups: []string{"/kubepods.slice/kubepods-pod" + bad + ".slice/cri-1.scope"}}},
		{Proto: "tcp", Addr: any4, Port: 2222, Owner: &listen.Owner{PID: 44, Comm: bad, Cgroups: []string{"/system.slice/" + bad + ".service"}}},
		{Proto: "udp", Addr: any4, Port: 4789, Kernel: &listen.Kernel{Kind: listen.KernelVXLAN, Device: bad}},
	}, nil
}

// noRaw fails t when out holds a control or format character raw (other
// than its own line breaks) or a line the hostile text wrote.
func noRaw(t *testing.T, what, out string) {
	t.Helper()
	if raw := showntest.Raw(out); len(raw) > 0 {
		t.Errorf("%s holds %d characters raw, the first %v", what, len(raw), raw[:min(3, len(raw))])
	}
	if showntest.ForgedLine(out) {
		t.Errorf("%s has a line the outside text wrote", what)
	}
}

// status, text and JSON, on a node whose listeners' processes, cgroups and
// devices are named with every byte value and the line and format
// characters: nothing of them reaches the output raw, the verdict is the
// first line, and the JSON reads back the values as they were.
func TestStatusCLIShowsOutsideText(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	if code, out, errOut := runCLI(t, demoArgs("apply", root)...); code != exitOK {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errOut)
	}
	withLive(t, func(o *report.Options) { o.Sockets = hostileSockets{} })

	_, text, errText := runCLI(t, "status", "--root", root)
	noRaw(t, "status's text", text+errText)
	if first := statusFirstLine(text); !strings.Contains(text, `"x\x00\x01`) || strings.Contains(first, "\x00") {
		t.Errorf("the text does not show the holders quoted:\n%s", shown.Lines(text))
	}

	_, js, errJS := runCLI(t, "status", "--root", root, "--format", "json")
	noRaw(t, "status's JSON", js+errJS)
	var r report.Report
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	// encoding/json writes U+FFFD for a byte that is no UTF-8, and
	// nothing else changes.
	var want string
	if b, err := json.Marshal(showntest.Hostile); err != nil || json.Unmarshal(b, &want) != nil {
		t.Fatal(err)
	}
	if r.Listeners == nil || len(r.Listeners.Sockets) != 4 || r.Listeners.Sockets[2].Process != want || r.Listeners.Sockets[2].Device != want {
		t.Errorf("the JSON does not hold the values read: %+v", r.Listeners)
	}
}

// hostileFileName is what of showntest.Hostile a file's name can hold (no
// NUL, no slash, at most 255 bytes): C0, DEL, C1 as bytes and as runes,
// format characters, and a line break before a line of its own.
func hostileFileName() string {
	var b strings.Builder
	for c := 1; c < 0x20; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString("\x7f\x80\x85\x9b\xff\u0085\u009b\u00ad\u200e\u202e\u2066\u2028\u2029\ufeff\n" + showntest.Forged + ".yaml")
	return b.String()
}

// validate --cluster with facts files whose interface names (each link's,
// the default route's, each peer route's) hold every byte value and the
// line and format characters, over a set whose findings name them (an mtu
// over a route, a VRRP interface the host lacks), and one document in a
// file whose name holds what a name can: nothing of them reaches the text
// or the JSON raw.
func TestValidateClusterShowsOutsideText(t *testing.T) {
	s := clustergen.Generate(5)
	s.Nodes[3].MTU = 1480
	dir, docs := writeSet(t, s)
	// The renamed file has a finding of its own (printed under its name,
	// as every file's are) besides the set's.
	data, err := os.ReadFile(docs[3])
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(dir, hostileFileName())
	if err := os.WriteFile(renamed, append(data, "nodee: {}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(docs[3]); err != nil {
		t.Fatal(err)
	}
	docs[3] = renamed
	factsDir := filepath.Join(dir, "facts")
	name, err := json.Marshal(showntest.Hostile)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(factsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(factsDir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"eth0"`) {
			t.Fatalf("%s names no eth0: the test changes nothing", p)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(data), `"eth0"`, string(name))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := append([]string{"validate", "--cluster", "--facts", factsDir}, docs...)
	code, out, errOut := runCLI(t, args...)
	noRaw(t, "validate --cluster's text", out+errOut)
	if code != exitFailed || !strings.Contains(out, `"x\x00\x01`) || !strings.Contains(out, "is 1480, but the route") || !strings.Contains(out, `\x01\x02\x03`) || !strings.Contains(out, `nodee: unknown key`) {
		t.Errorf("exit %d; the findings do not name the facts' interfaces, quoted:\n%s", code, shown.Lines(out+errOut))
	}
	_, js, errJS := runCLI(t, append(args, "--format", "json")...)
	noRaw(t, "validate --cluster's JSON", js+errJS)
	if !json.Valid([]byte(js)) {
		t.Errorf("not JSON:\n%s", shown.Lines(js))
	}
}
