package guest

import "strings"

// StandInDir is where the k0s STAND-IN (test/boot/k0sstandin) records what
// it was asked to do, in the guest: install.argv (the last `k0s install`'s
// arguments, one a line), install.count (a line per call), install.calls
// (a line per call: its boot, whether the unit was there, whether --force
// was given) and started (a record per start of its unit, with the boot id).
const StandInDir = "/var/lib/k0s-standin"

// StandInRecord reads the stand-in's record through read, which gives a
// guest file's content ("" when it is missing).
type StandInRecord struct{ Read func(path string) string }

// InstallArgs is the argv of the last `k0s install`, or nil.
func (r StandInRecord) InstallArgs() []string {
	s := strings.TrimRight(r.Read(StandInDir+"/install.argv"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Installs counts `k0s install` calls over the guest's life.
func (r StandInRecord) Installs() int {
	return strings.Count(r.Read(StandInDir+"/install.count"), "install\n")
}

// StartedIn says whether the stand-in's k0s unit ran in the boot with the
// given id (as the journal writes it, without dashes).
func (r StandInRecord) StartedIn(bootID string) bool {
	for _, line := range strings.Split(r.Read(StandInDir+"/started"), "\n") {
		if strings.ReplaceAll(strings.TrimPrefix(line, "boot "), "-", "") == bootID {
			return true
		}
	}
	return false
}

// InstallCall is one `k0s install` as install.calls records it.
type InstallCall struct {
	Boot        string // the boot's id, without dashes
	UnitPresent bool   // the unit it writes was there already
	Force       bool   // it was given --force
}

// InstallCalls is every `k0s install` over the guest's life, in order.
func (r StandInRecord) InstallCalls() []InstallCall {
	var out []InstallCall
	for _, line := range strings.Split(r.Read(StandInDir+"/install.calls"), "\n") {
		f := strings.Fields(line)
		if len(f) != 6 || f[0] != "boot" || f[2] != "unit" || f[4] != "force" {
			continue
		}
		out = append(out, InstallCall{Boot: strings.ReplaceAll(f[1], "-", ""), UnitPresent: f[3] == "present", Force: f[5] == "true"})
	}
	return out
}

// StartBoots is the boot of every start of the stand-in's k0s unit, in
// order, as the journal writes boot ids (without dashes).
func (r StandInRecord) StartBoots() []string {
	var out []string
	for _, line := range strings.Split(r.Read(StandInDir+"/started"), "\n") {
		if id, ok := strings.CutPrefix(line, "boot "); ok {
			out = append(out, strings.ReplaceAll(id, "-", ""))
		}
	}
	return out
}
