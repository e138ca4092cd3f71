package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// hostDir is a directory outside the root, 0755, with real directories
// l0..l41 in it: wherever a resolver hands a path back to the host, there is
// something for it to chmod or write into.
func hostDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for i := range 42 {
		if err := os.Mkdir(filepath.Join(dir, "l"+strconv.Itoa(i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hostTree is every path under dir with its mode.
func hostTree(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	out := map[string]fs.FileMode{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = info.Mode()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A link planted at /etc/wireguard made apply --root chmod its host target
// to 0700 and write wg0.conf, private keys included, into it; a chain of 41
// links did the same past the 40th hop.
func TestApplyKeepsPlantedLinksInsideTheRoot(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, root, host string) string // the link's target
	}{
		{"absolute", func(_ *testing.T, _, host string) string { return host }},
		{"relative", func(_ *testing.T, root, host string) string {
			rel, err := filepath.Rel(filepath.Join(root, "etc"), host)
			if err != nil {
				t.Fatal(err)
			}
			return rel
		}},
		{"41-link chain", func(t *testing.T, root, host string) string {
			inside := filepath.Join(root, host)
			if err := os.MkdirAll(inside, 0o755); err != nil {
				t.Fatal(err)
			}
			for i := range 41 {
				if err := os.Symlink(host+"/l"+strconv.Itoa(i+1), filepath.Join(inside, "l"+strconv.Itoa(i))); err != nil {
					t.Fatal(err)
				}
			}
			return host + "/l0"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, host := fixture.DemoRoot(t, demo), hostDir(t)
			if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tc.plant(t, root, host), filepath.Join(root, "etc/wireguard")); err != nil {
				t.Fatal(err)
			}
			before := hostTree(t, host)
			code, out, errOut := runCLI(t, demoArgs("apply", root)...)
			if after := hostTree(t, host); len(after) != len(before) {
				t.Errorf("apply created %d paths outside the root", len(after)-len(before))
			} else {
				for p, m := range before {
					if after[p] != m {
						t.Errorf("apply changed %s outside the root: %v -> %v", p, m, after[p])
					}
				}
			}
			if code != exitFailed || !strings.Contains(errOut, "/etc/wireguard") {
				t.Errorf("apply through a link leading out of the root: exit %d\n%s\n%s", code, out, errOut)
			}
			if _, err := os.Stat(filepath.Join(root, "var/lib/corium/provisioned")); err == nil {
				t.Error("a failed apply wrote the marker")
			}
		})
	}
}

// A FIFO as a secret file blocked apply in the open, past every waitFor.
func TestApplyRefusesAFIFOSecretAtOnce(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	secret := filepath.Join(root, "run/corium/secrets/join-token")
	if err := os.Remove(secret); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(secret, 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code   int
		errOut string
	}
	done := make(chan result, 1)
	go func() {
		code, _, errOut := runCLI(t, demoArgs("apply", root)...)
		done <- result{code, errOut}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case r := <-done:
		want := "join.tokenFrom: reading /run/corium/secrets/join-token: is a named pipe (FIFO), not a regular file"
		if r.code != exitFailed || !strings.Contains(r.errOut, want) {
			t.Errorf("apply with a FIFO secret: exit %d\n%s\nwant %q", r.code, r.errOut, want)
		}
	case <-ctx.Done():
		t.Fatal("apply blocked on a FIFO secret")
	}
}
