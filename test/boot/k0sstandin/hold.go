package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// The points of `k0s install` the VM test's power cut can ask the stand-in
// to stop at, for one boot, with vmtest.hold=POINT on the kernel command
// line (test/vm: TestVMPowerCut reads the line holdAt prints on the
// console, then kills QEMU). The kernel command line, not a file on the
// disk, because a cut boot leaves its disk as it was: the next boot,
// asked nothing, runs through.
const (
	// holdInstalling is mid-install: the unit written, not yet enabled,
	// systemd not reloaded.
	holdInstalling = "installing"
	// holdInstalled is the install complete and on disk, before the
	// agent gets to its records and its marker.
	holdInstalled = "installed"
)

// holdAt blocks for good when this boot's kernel command line asks for
// point, after syncing the paths given and saying so on the console;
// otherwise it returns at once.
func holdAt(point string, sync ...string) {
	cmdline, err := os.ReadFile("/proc/cmdline")
	if err != nil || !slices.Contains(strings.Fields(string(cmdline)), "vmtest.hold="+point) {
		return
	}
	if err := syncPaths(sync...); err != nil {
		fmt.Fprintln(os.Stderr, "k0s stand-in: syncing before the hold: "+err.Error())
	}
	// The agent runs `k0s install` with its output captured: the console
	// is where the test (which watches QEMU's serial file) sees the line.
	if console, err := os.OpenFile("/dev/console", os.O_WRONLY, 0); err == nil {
		fmt.Fprintf(console, "\ncorium-vmtest HOLD %s: k0s install held until the power is cut\n", point)
		console.Close()
	}
	for {
		time.Sleep(time.Hour)
	}
}

// syncPaths makes what was written to each path survive a power cut: the
// file (or the directory's entries) synced.
func syncPaths(paths ...string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
