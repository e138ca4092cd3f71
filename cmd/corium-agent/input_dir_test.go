package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An entry of a directory with a document's name that validate does not
// read (a named pipe, a socket, a link to nothing, a directory) is named
// with why, and the run fails as for a file that cannot be read: an
// operator is never left to think it was checked. A name no document has is
// passed over, as before.
func TestValidateDirNamesWhatItDidNotRead(t *testing.T) {
	dir := t.TempDir()
	writeFile := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeFile("node.yaml", "role: single\n")
	writeFile("notes.txt", "not a document\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone.yaml"), filepath.Join(dir, "dangling.yml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock.ipxe"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	code, out, errOut := promptly(t, filepath.Join(dir, "fifo.yaml"), "validate", dir)
	if code != exitUsage || !strings.Contains(out, "node.yaml: valid") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"dangling.yml: not read: it is a symbolic link to nothing",
		"fifo.yaml: not read: it is a named pipe (FIFO)",
		"sock.ipxe: not read: it is a socket",
		"sub.yaml: not read: it is a directory",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut+out, "notes.txt") {
		t.Errorf("a name no document has is named:\n%s%s", out, errOut)
	}

	code, out, _ = runCLI(t, "validate", "--format", "json", dir)
	var got struct {
		Files []struct{ File, Error string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitUsage || len(got.Files) != 5 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if f := got.Files[1]; f.File != filepath.Join(dir, "dangling.yml") || !strings.Contains(f.Error, "not read") {
		t.Errorf("json: %+v", got.Files)
	}

	// A directory holding nothing but such an entry is not "no document".
	only := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(only, "w1.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := promptly(t, filepath.Join(only, "w1.yaml"), "validate", only); code != exitUsage || !strings.Contains(errOut, "w1.yaml: not read: it is a named pipe") {
		t.Errorf("only a FIFO: exit %d\n%s", code, errOut)
	}
}
