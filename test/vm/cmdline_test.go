package vm

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/source"
)

// kernelConfig is the kernel command line's corium parameters carrying doc
// inline, made the way examples/worker-pxe/README.md makes them: the
// document as a base64 data: URL and its SHA-256 pinned. It is the one
// place to switch to `corium-agent cmdline FILE` once the agent has it.
func kernelConfig(doc []byte) []string {
	sum := sha256.Sum256(doc)
	return []string{
		"corium.config=data:;base64," + base64.StdEncoding.EncodeToString(doc),
		"corium.config.sha256=" + hex.EncodeToString(sum[:]),
	}
}

// TestKernelConfigReadsBack checks the helper against the agent's own
// source chain, without a VM: the line decodes to the document, with its
// pin verified, among the parameters a real boot carries.
func TestKernelConfigReadsBack(t *testing.T) {
	doc := []byte(controllerConfig(newCluster(t)))
	line := baseCmdline + " " + strings.Join(kernelConfig(doc), " ")
	if len(line) > 2047 {
		t.Errorf("the kernel command line is %d bytes; x86 takes 2047", len(line))
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proc", "cmdline"), []byte(line+"\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	res, err := source.Find(context.Background(), source.Options{Root: rootfs.New(dir), Logger: quiet})
	if err != nil {
		t.Fatalf("the chain refuses the line: %v", err)
	}
	if res.Source != source.NameCmdline || string(res.Data) != string(doc) {
		t.Fatalf("source %q with %q, want %q with the document", res.Source, res.Data, source.NameCmdline)
	}
	if used := res.Tried[len(res.Tried)-1]; !strings.Contains(used.Reason, "sha256 verified") {
		t.Errorf("the line was used without its pin verified: %+v", used)
	}
}
