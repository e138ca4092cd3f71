package scan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vishvananda/netlink"
)

// TestHolderlessSocket: a socket no process holds is the kernel's when
// every process's descriptors were read, and unread (possibly a hidden
// process's) when one could not be.
func TestHolderlessSocket(t *testing.T) {
	proc := t.TempDir()
	// Process 10 holds socket 111; process 11's descriptors are readable
	// and hold none.
	for _, pid := range []string{"10", "11"} {
		if err := os.MkdirAll(filepath.Join(proc, pid, "fd"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("socket:[111]", filepath.Join(proc, "10", "fd", "3")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proc, "10", "comm"), []byte("kube-apiserver\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func() (held, kernel bool, heldUnread, kernelUnread bool) {
		h, err := holdersOf(proc)
		if err != nil {
			t.Fatal(err)
		}
		r := Reader{}
		a := r.socket(rawSocket{proto: "tcp", s: &netlink.Socket{INode: 111}}, h)
		b := r.socket(rawSocket{proto: "udp", s: &netlink.Socket{INode: 222}}, h)
		return a.Owner != nil && a.Owner.Comm == "kube-apiserver", b.Owner == nil, a.Unread, b.Unread
	}
	if held, kernel, hu, ku := read(); !held || !kernel || hu || ku {
		t.Errorf("every process read: held %t, kernel %t, unread %t %t; want the holder found and the other the kernel's, neither unread", held, kernel, hu, ku)
	}
	// Process 12's descriptors cannot be read (here: fd is not a
	// directory, as EACCES would leave it for a user other than root).
	if err := os.MkdirAll(filepath.Join(proc, "12"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proc, "12", "fd"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if held, _, hu, ku := read(); !held || hu || !ku {
		t.Errorf("one process unread: held %t, unread %t %t; want the holder found and the holderless socket unread", held, hu, ku)
	}
	// A process that ends while it is read (its directory gone by the
	// time fd is listed) leaves nothing unread.
	if err := os.RemoveAll(filepath.Join(proc, "12")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proc, "13"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ku := read(); ku {
		t.Error("a process without its fd directory (ended) made the holderless socket unread")
	}
}
