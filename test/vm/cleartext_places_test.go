package vm

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cleartextRoots are where a guest keeps files: its configuration, its
// state and its runtime files (the credentials systemd imported among
// them), and the SMBIOS table the hypervisor handed over.
var cleartextRoots = []string{"/etc", "/var", "/run", "/sys/firmware/dmi/entries"}

// filesHolding lists the guest's files under cleartextRoots that hold
// value. The value goes to grep on its standard input, so it is on no
// command line; grep prints only the names.
func filesHolding(t testing.TB, m *Machine, value string) []string {
	t.Helper()
	args := append([]string{"grep", "-rlsF", "--devices=skip", "-f", "-"}, cleartextRoots...)
	// grep exits 1 when nothing matches and 2 when a file could not be
	// read (-s keeps the message), so its names are the answer either way.
	out, _ := m.ExecIn(10*time.Minute, []byte(value+"\n"), args...)
	var files []string
	for _, l := range strings.Split(m.Secrets.Redact(t, out), "\n") {
		if strings.HasPrefix(l, "/") {
			files = append(files, l)
		}
	}
	slices.Sort(files)
	return files
}

// hostFilesHolding lists which of the host's files hold value, raw or
// base64 (cleartextForms): a seed image read byte for byte as anyone
// holding it can, a TFTP tree.
func hostFilesHolding(t testing.TB, value string, paths ...string) []string {
	t.Helper()
	forms := cleartextForms(value)
	var found []string
	for _, root := range paths {
		err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			i, err := fileHasCleartext(p, forms)
			if err != nil {
				return err
			}
			if i >= 0 {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("searching %s: %v", root, err)
		}
	}
	return found
}

// agentKeyPlace says whether path is one of the only places the agent's design leaves a node's
// private key in cleartext: the 0600 wg-quick file and the credentials
// systemd imported (and the SMBIOS table they came in).
func agentKeyPlace(path string) bool {
	return path == "/etc/wireguard/wg0.conf" || strings.HasPrefix(path, "/run/credentials/") || strings.HasPrefix(path, "/sys/firmware/dmi/entries/")
}
