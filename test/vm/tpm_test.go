package vm

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// swtpmStartTimeout bounds the wait for swtpm's control socket.
const swtpmStartTimeout = 10 * time.Second

// addTPM gives m an emulated TPM2 (swtpm) whose state lives in stateDir
// and so survives the machine's boots, as a TPM's does: swtpm is started
// before each QEMU start and stopped once QEMU is gone. The guest sees a
// TIS TPM 2.0 (tpm_tis, /dev/tpmrm0). Two machines given one stateDir
// would share one TPM's seeds; each of the test's machines has its own.
func (m *Machine) addTPM(stateDir string) {
	m.t.Helper()
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		m.t.Fatal(err)
	}
	m.startHooks = append(m.startHooks, func() ([]string, func()) {
		sock := filepath.Join(m.dir, "swtpm.sock")
		_ = os.Remove(sock)
		log := filepath.Join(m.dir, "swtpm.log")
		// --terminate: swtpm exits when QEMU closes the control channel,
		// so a QEMU that dies leaves no emulator behind even before stop.
		cmd := exec.Command("swtpm", "socket", "--tpm2",
			"--tpmstate", "dir="+stateDir,
			"--ctrl", "type=unixio,path="+sock,
			"--terminate", "--log", "file="+log+",level=1")
		out, err := os.Create(filepath.Join(m.dir, "swtpm.out"))
		if err != nil {
			m.t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			out.Close()
			m.t.Fatalf("%s: starting swtpm: %v", m.Name, err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); out.Close(); close(exited) }()
		stop := func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
			}
		}
		deadline := time.Now().Add(swtpmStartTimeout)
		for {
			if _, err := os.Stat(sock); err == nil {
				break
			} else if !errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
				stop()
				data, _ := os.ReadFile(filepath.Join(m.dir, "swtpm.out"))
				m.t.Fatalf("%s: swtpm's control socket did not appear: %v\n%s", m.Name, err, data)
			}
			select {
			case <-exited:
				data, _ := os.ReadFile(filepath.Join(m.dir, "swtpm.out"))
				m.t.Fatalf("%s: swtpm exited at its start:\n%s", m.Name, data)
			case <-time.After(50 * time.Millisecond):
			}
		}
		return []string{
			"-chardev", "socket,id=chrtpm,path=" + sock,
			"-tpmdev", "emulator,id=tpm0,chardev=chrtpm",
			"-device", "tpm-tis,tpmdev=tpm0",
		}, stop
	})
}
