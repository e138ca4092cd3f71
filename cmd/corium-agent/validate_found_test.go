package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/cluster/clustergen"
)

// promptly is runCLI failing the test when the command has not returned
// in 20s; a FIFO it is left blocked on is then given a writer that goes
// away at once, so the test binary does not hang behind it.
func promptly(t *testing.T, fifo string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCLI(t, args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.errOut
	case <-time.After(20 * time.Second):
		if fd, err := syscall.Open(fifo, syscall.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			syscall.Close(fd)
		}
		t.Fatalf("%s did not return", strings.Join(args, " "))
		return 0, "", ""
	}
}

// The facts files validate --cluster --facts DIR finds are read only when
// they are regular files: a FIFO there (nobody writes to it) and a link to
// /dev/zero (it never ends) are named, not read, and their nodes checked
// without facts; validate returns at once, where it hung on the FIFO and
// ran out of memory on /dev/zero.
func TestValidateFactsDirReadsRegularFilesOnly(t *testing.T) {
	for _, c := range []struct {
		name, what string
		plant      func(p string) error
	}{
		{"fifo", "a named pipe (FIFO)", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"dev-zero", "a character device", func(p string) error { return os.Symlink("/dev/zero", p) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, docs := writeSet(t, clustergen.Generate(5))
			factsDir := filepath.Join(dir, "facts")
			p := filepath.Join(factsDir, "c2.json")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := c.plant(p); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := promptly(t, p, append([]string{"validate", "--cluster", "--facts", factsDir}, docs...)...)
			out += errOut
			for _, want := range []string{
				p + ": not read: it is " + c.what + ", and validate reads a directory's regular files only",
				docs[1] + ": warning: --facts holds no facts for this node (c2.json)",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the output lacks %q", want)
				}
			}
			if code != exitUsage {
				t.Errorf("exit %d, want %d (an entry not read is named as a file that cannot be read is)", code, exitUsage)
			}
			if t.Failed() {
				t.Log(out)
			}
		})
	}
}

// A file a person names may be a pipe: validate <(cat node.yaml) names
// /dev/fd/63, and --facts <(ssh node corium-agent facts) another. Only
// what the agent finds itself in a directory must be a regular file.
func TestValidateReadsANamedPipe(t *testing.T) {
	pipe := func(content string) string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		go func() {
			_, _ = w.WriteString(content)
			w.Close()
		}()
		return fmt.Sprintf("/dev/fd/%d", r.Fd())
	}
	doc := pipe("role: single\n")
	code, out, _ := promptly(t, "", "validate", doc)
	if code != exitOK || !strings.Contains(out, doc+": valid") {
		t.Errorf("validate of a pipe: exit %d\n%s", code, out)
	}

	facts := pipe(`{"interfaces": [{"name": "eth0", "addresses": ["192.0.2.10/24"]}], "defaultRoute": {"interface": "eth0", "source": "192.0.2.10"}}`)
	code, out, _ = promptly(t, "", "validate", "--facts", facts, writeConfig(t, "node.yaml", "role: single\n"))
	if code != exitOK || !strings.Contains(out, "node.yaml: valid") {
		t.Errorf("--facts of a pipe: exit %d\n%s", code, out)
	}
}

// Every read is bounded, what a person names too: a document or a facts
// file that never ends (/dev/zero) is refused at the bound, with it named.
func TestValidateBoundsWhatItReads(t *testing.T) {
	code, _, out := promptly(t, "", "validate", "/dev/zero")
	if code != exitUsage || !strings.Contains(out, "reading /dev/zero: holds more than 64 MiB") {
		t.Errorf("validate /dev/zero: exit %d\n%s", code, out)
	}
	code, _, out = promptly(t, "", "validate", "--facts", "/dev/zero", writeConfig(t, "node.yaml", "role: single\n"))
	if code != exitUsage || !strings.Contains(out, "read /dev/zero: holds more than 16 MiB") {
		t.Errorf("validate --facts /dev/zero: exit %d\n%s", code, out)
	}
}
