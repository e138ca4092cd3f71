package crash

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// applyConfig is a controller+worker with an overlay, a private key read
// from a file under the root, the guard on, and a labelled node: every step
// of the first boot writes something.
const applyConfig = `role: controller+worker
cluster:
  name: crash
node:
  name: crash-node
  labels:
    corium.dev/test: crash
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom:
      file: /etc/corium/secrets/wg0.key
    peers:
      - publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=
        endpoint: 198.51.100.2:51820
        allowedIPs: [10.10.0.2/32]
      - publicKey: TrMvSoP4jYQlY6RIzBgbssQqY3vxI2Pi+y71lOWWXX0=
        endpoint: 198.51.100.3:51820
        allowedIPs: [10.10.0.3/32]
firewall:
  clusterPorts: overlay
  publicPorts: [6443]
`

const applyKey = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="

// TestApplySurvivesSIGKILLAtEveryWritePoint cuts `apply --root` at every
// write point. Each cut tree holds only finished files (or hidden temp
// files), no marker before everything else is final, and a re-run converges
// to the uninterrupted run's tree byte for byte. /run is left out: it does
// not survive the power cut this stands for, and the status file there
// records durations.
func TestApplySurvivesSIGKILLAtEveryWritePoint(t *testing.T) {
	agent := agentbin.Path(t)
	config := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, []byte(applyConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	const marker = "/var/lib/corium/provisioned"
	points := walk(t, scenario{
		command: func(root string) *exec.Cmd {
			key := filepath.Join(root, "etc/corium/secrets/wg0.key")
			if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(key, []byte(applyKey+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return exec.Command(agent, "apply", "--root", root, "--config", config)
		},
		skip: func(p string) bool { return p == "/run" || strings.HasPrefix(p, "/run/") },
		check: func(t *testing.T, cut, final tree) {
			if _, ok := cut[marker]; !ok {
				return
			}
			// The run's record may outlive the marker by one removal: the
			// marker, its last write, is what says the run finished.
			rest := tree{}
			for p, e := range cut {
				if p != status.RunPath {
					rest[p] = e
				}
			}
			if d := diff(final, rest); len(d) > 0 {
				t.Errorf("the marker exists before everything else is final:\n%s", strings.Join(d, "\n"))
			}
		},
		inProgress: func(p string, content []byte) bool {
			var run struct {
				Command string `json:"command"`
			}
			return p == status.RunPath && json.Unmarshal(content, &run) == nil && run.Command == "apply"
		},
		rerun: func(t *testing.T, root string, cut tree) {
			// The re-run says the cut run did not finish exactly when the
			// cut run had begun to change the node and not yet written its
			// marker (its last write: that run is done).
			_, begun := cut[status.RunPath]
			_, marked := cut[marker]
			b, err := os.ReadFile(filepath.Join(root, status.Path))
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Unfinished *struct {
					Command string `json:"command"`
				} `json:"unfinished"`
			}
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			if want := begun && !marked; (st.Unfinished != nil) != want || (want && st.Unfinished.Command != "apply") {
				t.Errorf("cut with the run record %v and the marker %v: the re-run's status says unfinished = %+v, want one (apply) only when begun and unmarked", begun, marked, st.Unfinished)
			}
		},
	})
	if _, ok := snapshotFinal(t, agent, config)[marker]; !ok {
		t.Fatal("the uninterrupted run left no marker")
	}
	t.Logf("cut apply at %d write points", points)
	if points < 2*9 {
		t.Errorf("cut only %d write points; apply writes at least 9 files and links", points)
	}
}

// snapshotFinal runs apply once more into a fresh root and returns its tree,
// to check what the uninterrupted run must contain.
func snapshotFinal(t *testing.T, agent, config string) tree {
	t.Helper()
	root := t.TempDir()
	key := filepath.Join(root, "etc/corium/secrets/wg0.key")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte(applyKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustRun(t, exec.Command(agent, "apply", "--root", root, "--config", config))
	return snapshot(t, root, nil)
}
