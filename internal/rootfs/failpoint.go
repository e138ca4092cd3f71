package rootfs

import (
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// FailpointEnv names the variable that makes the process kill itself with
// SIGKILL at the Nth write point (1-based) — the moments around each rename
// that a power cut could split. The crash-consistency test walks N upwards
// to cut apply short at every one of them; nothing else sets it.
const FailpointEnv = "CORIUM_FAILPOINT"

var (
	failAt, _  = strconv.ParseInt(os.Getenv(FailpointEnv), 10, 64)
	failPoints atomic.Int64
)

// failpoint marks one write point. Unset, it is a single comparison.
func failpoint() {
	if failAt <= 0 || failPoints.Add(1) != failAt {
		return
	}
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	time.Sleep(time.Hour) // the signal lands before this returns
}
