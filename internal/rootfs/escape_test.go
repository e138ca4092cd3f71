package rootfs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A link planted where the agent makes a directory (etc/wireguard) used to be
// followed on the host by MkdirAll, which then chmodded its target to 0700
// and wrote the WireGuard keys into it.
func TestPlantedLinkAtALeafStaysInside(t *testing.T) {
	for _, tc := range []struct {
		name   string
		link   string
		target func(o *outside) string
		// mirror makes the link's target exist inside the root too, as /etc
		// does on a node when etc/k0s -> /etc: the chroot answer is the
		// root's own directory, never the host's.
		mirror bool
	}{
		{"absolute", "etc/wireguard", func(o *outside) string { return o.dir }, false},
		{"relative", "etc/wireguard", func(*outside) string { return "../../sentinel" }, false},
		{"relative past the host root", "etc/wireguard", func(o *outside) string { return strings.Repeat("../", 20) + o.dir[1:] }, false},
		{"into a subdirectory", "etc/wireguard", func(o *outside) string { return o.dir + "/sub" }, false},
		{"like etc/k0s -> /etc", "etc/k0s", func(o *outside) string { return o.dir }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, o := newOutside(t)
			mustT(t, os.MkdirAll(filepath.Join(r.Dir(), "etc"), 0o755))
			mustT(t, os.Symlink(tc.target(o), filepath.Join(r.Dir(), tc.link)))
			if tc.mirror {
				mustT(t, os.MkdirAll(filepath.Join(r.Dir(), o.dir), 0o755))
			}
			o.events()

			leaf := "/" + tc.link
			errMk := r.MkdirAll(leaf, 0o700)
			o.untouched(t, "MkdirAll "+leaf)
			_, errW := r.WriteFile(leaf+"/wg0.conf", []byte("PrivateKey = secret\n"), 0o600, 0o700)
			o.untouched(t, "WriteFile "+leaf+"/wg0.conf")
			_, errL := r.Symlink(leaf+"/link", "/usr/lib/x")
			o.untouched(t, "Symlink "+leaf+"/link")

			if !tc.mirror {
				// Dangling inside the root: mkdir -p in a chroot fails too.
				for _, err := range []error{errMk, errW, errL} {
					if err == nil || !strings.Contains(err.Error(), leaf) || strings.Contains(err.Error(), r.Dir()) {
						t.Errorf("err = %v; want a failure naming %s and not the host path", err, leaf)
					}
				}
				return
			}
			for _, err := range []error{errMk, errW, errL} {
				if err != nil {
					t.Fatal(err)
				}
			}
			inside := filepath.Join(r.Dir(), o.dir)
			if info, err := os.Stat(inside); err != nil || info.Mode().Perm() != 0o700 {
				t.Errorf("the root's own %s: %v, %v; want it 0700 as in a chroot", o.dir, info.Mode(), err)
			}
			if b, err := os.ReadFile(filepath.Join(inside, "wg0.conf")); err != nil || string(b) != "PrivateKey = secret\n" {
				t.Errorf("wg0.conf inside the root: %q, %v", b, err)
			}
		})
	}
}

// chain plants n links in the root at the sentinel's own absolute path, each
// pointing at the next by that absolute path. Inside the root they stay
// inside; on the host, past the 40th, the next name is the sentinel's real
// l41 directory, which the old resolver handed to the kernel.
func chain(t *testing.T, r Root, o *outside, n int) string {
	t.Helper()
	dir := filepath.Join(r.Dir(), o.dir)
	mustT(t, os.MkdirAll(dir, 0o755))
	for i := range n {
		mustT(t, os.Symlink(o.dir+"/l"+strconv.Itoa(i+1), filepath.Join(dir, "l"+strconv.Itoa(i))))
	}
	return o.dir + "/l0"
}

// relativeChain is n relative links in /c, the last one absolute to the
// sentinel on the host: one link more than the old resolver followed.
func relativeChain(t *testing.T, r Root, o *outside, n int) string {
	t.Helper()
	dir := filepath.Join(r.Dir(), "c")
	mustT(t, os.MkdirAll(dir, 0o755))
	for i := range n - 1 {
		mustT(t, os.Symlink("l"+strconv.Itoa(i+1), filepath.Join(dir, "l"+strconv.Itoa(i))))
	}
	mustT(t, os.Symlink(o.dir+"/l41", filepath.Join(dir, "l"+strconv.Itoa(n-1))))
	return "/c/l0"
}

func TestLongLinkChainsFailInside(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		plant func(*testing.T, Root, *outside, int) string
	}{
		{"41 absolute", 41, chain},
		{"100 absolute", 100, chain},
		{"41 relative", 41, relativeChain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, o := newOutside(t)
			start := tc.plant(t, r, o, tc.n)
			o.events()
			for _, op := range []struct {
				name string
				do   func() error
			}{
				{"WriteFile", func() error {
					_, err := r.WriteFile(start+"/wg0.conf", []byte("PrivateKey = secret\n"), 0o600, 0o700)
					return err
				}},
				{"WriteFile in a new directory", func() error {
					_, err := r.WriteFile(start+"/wireguard/wg0.conf", []byte("PrivateKey = secret\n"), 0o600, 0o700)
					return err
				}},
				{"ReadFile", func() error { _, err := r.ReadFile(start + "/key"); return err }},
				{"ReadFile of the chain", func() error { _, err := r.ReadFile(start); return err }},
				{"Compare", func() error { _, err := r.Compare(start+"/key", []byte("HOST l41/key\n"), 0o644); return err }},
				{"MkdirAll", func() error { return r.MkdirAll(start+"/d", 0o700) }},
				{"MkdirAll of the chain", func() error { return r.MkdirAll(start, 0o700) }},
				{"Symlink", func() error { _, err := r.Symlink(start+"/link", "/x"); return err }},
				{"Remove", func() error { _, err := r.Remove(start + "/key"); return err }},
			} {
				err := op.do()
				o.untouched(t, op.name)
				if err == nil || !isLoop(err) || !strings.Contains(err.Error(), start) || strings.Contains(err.Error(), r.Dir()) {
					t.Errorf("%s through %d links = %v; want ELOOP naming %s, not the host path", op.name, tc.n, err, start)
				}
			}
			if r.Exists(start + "/key") {
				t.Errorf("Exists through %d links is true", tc.n)
			}
			o.untouched(t, "Exists")
		})
	}
}
