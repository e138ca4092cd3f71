package vm

import (
	"strings"
)

// standInDir is where the k0s stand-in records what it was asked to do
// (test/boot/k0sstandin).
const standInDir = "/var/lib/k0s-standin"

// read is a guest file's content, "" when it is missing.
func (m *Machine) read(path string) string {
	out, err := m.Exec("cat", path)
	if err != nil {
		return ""
	}
	return out
}

// standInInstallArgs is the argv of the last `k0s install`, or nil.
func (m *Machine) standInInstallArgs() []string {
	s := strings.TrimRight(m.read(standInDir+"/install.argv"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// standInInstalls counts `k0s install` calls over the machine's life.
func (m *Machine) standInInstalls() int {
	return strings.Count(m.read(standInDir+"/install.count"), "install\n")
}

// standInStartedIn says whether the stand-in's k0s unit ran in this boot.
func (m *Machine) standInStartedThisBoot() bool {
	for _, line := range strings.Split(m.read(standInDir+"/started"), "\n") {
		if strings.ReplaceAll(strings.TrimPrefix(line, "boot "), "-", "") == m.BootID {
			return true
		}
	}
	return false
}
