package systemd

import (
	"strconv"
	"strings"
	"time"
)

// ServiceRun is how a service's last start went, as systemd keeps it: the
// one account there is when the service's own program never ran.
type ServiceRun struct {
	// Result is systemd's verdict on the last start: success, exit-code,
	// signal, timeout, ...
	Result string `json:"result"`
	// ExecMainCode is how the main process ended (1 exited, 2 killed,
	// 3 dumped core), 0 when none did; ExecMainStatus its exit status or
	// signal.
	ExecMainCode   int32 `json:"execMainCode"`
	ExecMainStatus int32 `json:"execMainStatus"`
	// StartedAt is when the unit last left the inactive state, zero when it
	// has not started in this boot.
	StartedAt    time.Time `json:"startedAt,omitzero"`
	InvocationID string    `json:"invocationID,omitempty"`
	// Credentials are the unit's LoadCredential= and
	// LoadCredentialEncrypted= settings; Imports its ImportCredential=
	// globs. Names and sources only: systemd has no property holding a
	// value.
	Credentials []CredentialSetting `json:"credentials,omitempty"`
	Imports     []string            `json:"imports,omitempty"`
}

// CredentialSetting is one LoadCredential= or LoadCredentialEncrypted=.
type CredentialSetting struct {
	ID        string `json:"id"`
	Source    string `json:"source"`
	Encrypted bool   `json:"encrypted,omitempty"`
}

// Exited says the main process exited (rather than was killed or never
// ended).
func (r ServiceRun) Exited() bool { return r.ExecMainCode == 1 }

// SetupFailed says systemd ended the start while setting the process up,
// before the unit's program ran: the exit statuses 200 and up are
// systemd's own (systemd.exec(5), "Process Exit Codes").
func (r ServiceRun) SetupFailed() bool {
	_, ok := setupExitNames[r.ExecMainStatus]
	return r.Exited() && ok
}

// ExitStatus is the exit status as systemctl prints it: "243/CREDENTIALS",
// or the number alone for one that systemd does not name.
func (r ServiceRun) ExitStatus() string {
	s := strconv.Itoa(int(r.ExecMainStatus))
	if name, ok := setupExitNames[r.ExecMainStatus]; ok && r.Exited() {
		s += "/" + name
	}
	return s
}

// ExitCredentials is the exit status of a start whose credentials systemd
// could not read or decrypt.
const ExitCredentials = 243

// setupExitNames are systemd 257's exit statuses for a start that failed
// before exec (src/basic/exit-status.h), by the names systemctl prints.
var setupExitNames = func() map[int32]string {
	names := strings.Fields(`CHDIR NICE FDS EXEC MEMORY LIMITS OOM_ADJUST SIGNAL_MASK STDIN STDOUT
		CHROOT IOPRIO TIMERSLACK SECUREBITS SETSCHEDULER CPUAFFINITY GROUP USER CAPABILITIES CGROUP
		SETSID CONFIRM STDERR _ PAM NETWORK NAMESPACE NO_NEW_PRIVILEGES SECCOMP SELINUX_CONTEXT
		PERSONALITY APPARMOR ADDRESS_FAMILIES RUNTIME_DIRECTORY _ CHOWN SMACK_PROCESS_LABEL KEYRING
		STATE_DIRECTORY CACHE_DIRECTORY LOGS_DIRECTORY CONFIGURATION_DIRECTORY NUMA_POLICY
		CREDENTIALS BPF KSM`)
	m := map[int32]string{}
	for i, n := range names {
		if n != "_" {
			m[int32(200+i)] = n
		}
	}
	return m
}()
