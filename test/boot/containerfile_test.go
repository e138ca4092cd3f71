package boot

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0s/rules"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// containerfile is the Containerfile's instructions: ARG defaults and RUN
// scripts with their line continuations joined, in order.
type containerfile struct {
	args map[string]string
	runs []string
}

func readContainerfile(t *testing.T) containerfile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	cf := containerfile{args: map[string]string{}}
	var cur strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cur.WriteString(trimmed)
		instr := cur.String()
		cur.Reset()
		kw, rest, _ := strings.Cut(instr, " ")
		switch strings.ToUpper(kw) {
		case "ARG":
			if k, v, ok := strings.Cut(rest, "="); ok {
				cf.args[k] = v
			}
		case "RUN":
			cf.runs = append(cf.runs, rest)
		}
	}
	return cf
}

// run is the RUN instruction containing marker.
func (cf containerfile) run(t *testing.T, marker string) string {
	t.Helper()
	for _, r := range cf.runs {
		if strings.Contains(r, marker) {
			return r
		}
	}
	t.Fatalf("Containerfile has no RUN with %q", marker)
	return ""
}

// env is the ARGs as a RUN step sees them, with overrides.
func (cf containerfile) env(over map[string]string) []string {
	env := os.Environ()
	for k, v := range cf.args {
		if _, ok := over[k]; !ok {
			env = append(env, k+"="+v)
		}
	}
	for k, v := range over {
		env = append(env, k+"="+v)
	}
	return env
}

// TestContainerfileK0sPin holds the image to the k0s release whose install
// rules the boot tests' stand-in enforces: a new pin needs the rules read
// again from that release.
func TestContainerfileK0sPin(t *testing.T) {
	cf := readContainerfile(t)
	if got := cf.args["K0S_VERSION"]; got != rules.Version {
		t.Errorf("ARG K0S_VERSION = %q, but internal/k0s/rules is written from k0s %s", got, rules.Version)
	}
}

// TestContainerfileBuildStage runs the build stage's own go build command
// from the Containerfile and checks the binary is static and stamped.
func TestContainerfileBuildStage(t *testing.T) {
	cf := readContainerfile(t)
	for i, r := range cf.runs {
		if out, err := exec.Command("sh", "-n", "-c", r).CombinedOutput(); err != nil {
			t.Errorf("RUN %d is not valid sh: %v\n%s\n%s", i, err, r, out)
		}
	}
	for _, arch := range []string{"AMD64", "ARM64"} {
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(cf.args["K0S_SHA256_"+arch]) {
			t.Errorf("ARG K0S_SHA256_%s = %q, want a SHA-256 in hex", arch, cf.args["K0S_SHA256_"+arch])
		}
	}
	host.RequireCommands(t, "go")
	script := cf.run(t, "go build")
	out := t.TempDir()
	// The stage writes to /out; point it at a temporary directory.
	script = strings.ReplaceAll(script, "/out/", out+"/")
	cmd := exec.Command("sh", "-eu", "-c", script)
	cmd.Dir = repoRoot
	cmd.Env = cf.env(map[string]string{"VERSION": "v9.8.7-test"})
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the Containerfile's build step: %v\n%s", err, got)
	}
	if !strings.Contains(string(got), "v9.8.7-test") {
		t.Errorf("the built agent does not report the stamped version: %s", got)
	}
	if file, err := exec.Command("file", filepath.Join(out, "corium-agent")).Output(); err == nil &&
		!strings.Contains(string(file), "statically linked") {
		t.Errorf("the agent is not static: %s", file)
	}
}

// TestBootContainerfileK0sDigest runs the Containerfile's k0s step inside the
// rootfs with curl replaced by a stand-in that serves a known file: with the
// file's digest it installs /usr/bin/k0s; with any other it stops before
// installing anything.
func TestBootContainerfileK0sDigest(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn")
	cf := readContainerfile(t)
	script := cf.run(t, "sha256sum -c")
	binary := "#!/bin/sh\necho \"k0s stand-in version\"\n"
	sum := sha256.Sum256([]byte(binary))
	good := hex.EncodeToString(sum[:])

	for _, tc := range []struct {
		name, digest string
		installed    bool
	}{
		{"matching digest", good, true},
		{"other digest", strings.Repeat("0", 64), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := NewNode(t, "k0sdigest", nil)
			n.WriteFile("/srv/k0s-release", []byte(binary), 0o644)
			// curl stand-in: copies the served file to the -o path.
			n.WriteFile("/usr/local/sbin/curl", []byte("#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && { cp /srv/k0s-release \"$2\"; exit 0; }; shift; done; exit 22\n"), 0o755)
			args := []string{"env"}
			for _, kv := range cf.env(map[string]string{"TARGETARCH": "amd64", "K0S_SHA256_AMD64": tc.digest}) {
				if strings.HasPrefix(kv, "K0S_") || strings.HasPrefix(kv, "TARGETARCH=") {
					args = append(args, kv)
				}
			}
			// The step's output goes to stdout, apart from nspawn's own.
			out, _, err := n.RunOffline(append(args, "sh", "-c", script+" 2>&1")...)
			installed := n.Exists("/usr/bin/k0s")
			if installed != tc.installed || (err == nil) != tc.installed {
				t.Errorf("k0s step with %s: err=%v installed=%v, want installed=%v\n%s", tc.name, err, installed, tc.installed, out)
			}
			if tc.installed && !strings.Contains(out, "k0s stand-in version") {
				t.Errorf("the step did not run the installed k0s: %s", out)
			}
			if !tc.installed && !strings.Contains(out, "FAILED") {
				t.Errorf("the step did not fail at the digest check: %s", out)
			}
		})
	}
}
