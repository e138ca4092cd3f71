package bootstrap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/rootfs"
)

// A facts file is read up to its bound, named or found in a directory: the
// facts padded to the bound parse, one byte more is refused with the bound
// named, before the facts in it are taken.
func TestFactsFileOverTheBoundIsRefused(t *testing.T) {
	const facts = `{"interfaces": [{"name": "eth0", "addresses": ["192.0.2.10/24"]}]}`
	write := func(name string, size int) string {
		p := filepath.Join(t.TempDir(), name)
		data := append([]byte(facts), bytes.Repeat([]byte(" "), size-len(facts))...)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	at, over := write("at.json", maxFactsFile), write("over.json", maxFactsFile+1)
	for name, read := range map[string]func(string) (*hostfacts.Facts, error){"ReadFacts": ReadFacts, "ReadFoundFacts": ReadFoundFacts} {
		if f, err := read(at); err != nil || len(f.Interfaces) != 1 {
			t.Errorf("%s of facts at the bound: %v", name, err)
		}
		_, err := read(over)
		if !errors.Is(err, rootfs.ErrTooLarge) || !strings.Contains(err.Error(), "holds more than 16 MiB") {
			t.Errorf("%s of facts a byte over the bound = %v", name, err)
		}
	}
}
