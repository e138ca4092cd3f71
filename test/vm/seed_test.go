package vm

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// newSeed makes a NoCloud seed disk: a FAT volume labelled CIDATA holding
// the given files (user-data, meta-data, network-config), which cloud-init's
// own datasource finds by its label and reads at boot. mkfs.vfat and mcopy
// write the image file directly; nothing is mounted.
func newSeed(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	img := filepath.Join(dir, "cidata.img")
	if out, err := exec.Command("mkfs.vfat", "-n", "CIDATA", "-C", img, "2048").CombinedOutput(); err != nil {
		t.Fatalf("making the seed volume: %v\n%s", err, out)
	}
	for name, text := range files {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("mcopy", "-i", img, src, "::"+name)
		cmd.Env = append(os.Environ(), "MTOOLS_SKIP_CHECK=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("copying %s onto the seed volume: %v\n%s", name, err, out)
		}
	}
	return img
}
