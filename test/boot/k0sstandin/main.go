// Command k0sstandin is a STAND-IN for the k0s binary in the boot tests, not
// k0s: k0s cannot run here. A test node carries it as /usr/local/bin/k0s and
// it answers what the agent and the unit it installs run:
//
//	k0s install controller|worker ...  refuses what k0s v1.36.3+k0s.0
//	    refuses at install (internal/k0s/rules: the flags, and for a
//	    controller the config file and the feature gates), and an existing
//	    unit without --force; otherwise writes and enables the unit
//	    k0scontroller.service or k0sworker.service, as k0s does. Every call
//	    is recorded first, and synced, so a power cut keeps the record: its
//	    arguments in install.argv, one a line, a line in install.count, and
//	    in install.calls the boot, whether the unit was there and whether
//	    --force was given. On a boot whose kernel command line says
//	    vmtest.hold=installing or =installed it stops mid-install or at its
//	    end (hold.go).
//	k0s stand-in-record ROLE ARGS...   the unit's ExecStartPre: records the
//	    start (boot id, uptime, arguments) in started, so a unit systemd
//	    counts as started has its record.
//	k0s controller|worker ...          the unit's ExecStart: refuses what k0s
//	    refuses when the unit starts, else sleeps like a server until
//	    stopped.
//
// Anything else is echoed. It runs no Kubernetes: a refusal is k0s's, an
// acceptance only means k0s would have gone on to start.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/corium/corium-agent/internal/k0s/rules"
)

// recordDir is where the stand-in records what it was asked to do; the
// tests read it through guest.StandInRecord (guest.StandInDir, kept
// out of this binary, which links no test code).
const recordDir = "/var/lib/k0s-standin"

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		fmt.Println("k0s stand-in (not k0s)")
		return
	}
	var err error
	switch args[0] {
	case "install":
		err = install(args)
	case "stand-in-record":
		err = recordStart(args[1:])
	case "controller", "server", "worker":
		err = serve(args)
	default:
		fmt.Println("k0s stand-in: " + strings.Join(args, " "))
	}
	if err != nil {
		// cobra's wording: k0s prints "Error: " and its error, exit 1.
		fmt.Fprintln(os.Stderr, "Error: "+err.Error())
		fmt.Fprintln(os.Stderr, "k0s stand-in: refused as k0s "+rules.Version+" would; this is a stand-in, not k0s")
		os.Exit(1)
	}
}

func install(args []string) error {
	if err := record(args); err != nil {
		return err
	}
	inv, err := rules.ParseInstallArgs(args)
	if err != nil {
		return err
	}
	if err := recordCall(inv); err != nil {
		return err
	}
	config, err := readConfig(inv)
	if err != nil {
		return fmt.Errorf("failed to load node config: %w", err)
	}
	// The arguments passed above, so what remains is the config's.
	if err := rules.CheckInstall(args, config); err != nil {
		if inv.ConfigPath() == "-" {
			return err
		}
		return fmt.Errorf("invalid node config: %w", err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	unit, err := writeUnit(inv, cwd)
	if err != nil {
		return fmt.Errorf("failed to install %s service: %w", inv.Role, err)
	}
	// As kardianos/service does after writing the unit; without a running
	// systemd (an image build) there is nothing to reload.
	_ = exec.Command("systemctl", "daemon-reload").Run()
	fmt.Println("k0s stand-in: installed " + unit)
	// Synced before the hold: the hold stands for the install complete and
	// on disk, as the agent's syncfs right after it makes it (apply's
	// k0s-install action); a cut before that sync is the installing hold's.
	holdAt(holdInstalled, filepath.Join(unitDir, unit), unitDir, filepath.Join(unitDir, "multi-user.target.wants"))
	return nil
}

// record appends this call to install.argv and install.count.
func record(args []string) error {
	if err := os.MkdirAll(recordDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(recordDir+"/install.argv", []byte(strings.Join(args, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	if err := syncPaths(recordDir+"/install.argv", recordDir); err != nil {
		return err
	}
	return appendFile(recordDir+"/install.count", "install\n")
}

// recordCall appends to install.calls what this call found: its boot,
// whether the unit it writes was there (an earlier, cut run's) and whether
// it was given --force, which k0s asks for then.
func recordCall(inv *rules.Invocation) error {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return err
	}
	unit := "absent"
	if _, err := os.Lstat(filepath.Join(unitDir, "k0s"+inv.Role+".service")); err == nil {
		unit = "present"
	}
	return appendFile(recordDir+"/install.calls", fmt.Sprintf("boot %s unit %s force %t\n", strings.TrimSpace(string(boot)), unit, inv.Bool("force")))
}

// readConfig is the controller's config as k0s reads it: nil for no file at
// the default path (k0s's defaults), an error for no file elsewhere.
func readConfig(inv *rules.Invocation) ([]byte, error) {
	path := inv.ConfigPath()
	if path == "" || path == "-" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && path == rules.DefaultConfigPath {
		return nil, nil
	}
	return data, err
}

func recordStart(args []string) error {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return err
	}
	uptime, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "boot %s\nuptime %s\n", strings.TrimSpace(string(boot)), strings.Fields(string(uptime))[0])
	for _, a := range args {
		fmt.Fprintf(&b, "arg %s\n", a)
	}
	if err := os.MkdirAll(recordDir, 0o755); err != nil {
		return err
	}
	return appendFile(recordDir+"/started", b.String())
}

// serve is the unit's `k0s controller|worker`: what k0s refuses at start
// ends it, else it runs until systemd stops it.
func serve(args []string) error {
	inv, err := rules.ParseRunArgs(args)
	if err != nil {
		return err
	}
	config, err := readConfig(inv)
	if err != nil {
		return fmt.Errorf("failed to load node config: %w", err)
	}
	if err := rules.CheckStart(args, config); err != nil {
		return err
	}
	fmt.Println("k0s stand-in: " + inv.Role + " started")
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	return nil
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	// Synced: a power cut of the VM test keeps the record.
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
