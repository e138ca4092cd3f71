package sourcetest

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/source/chain"
)

// BootLoaderArgs stand before the corium parameters on a real command line,
// as a boot loader puts its own first, so a line is read among others.
const BootLoaderArgs = "BOOT_IMAGE=(hd0,gpt2)/vmlinuz root=UUID=2f1c rw quiet ip=dhcp "

// Quiet drops the chain's provenance log; the tests read the Result.
var Quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// CmdlineRoot is a root whose only source is /proc/cmdline holding line,
// with the newline the kernel appends.
func CmdlineRoot(t testing.TB, line string) rootfs.Root {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proc", "cmdline"), []byte(line+"\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	return rootfs.New(dir)
}

// FindOnCmdline runs the chain on CmdlineRoot(line).
func FindOnCmdline(t testing.TB, line string) (*chain.Result, error) {
	t.Helper()
	return chain.Find(context.Background(), chain.Options{Root: CmdlineRoot(t, line), Logger: Quiet})
}
