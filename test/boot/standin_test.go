package boot

import (
	"strings"
)

// standInDir is where the k0s stand-in records what it was asked to do.
const standInDir = "/var/lib/k0s-standin"

// k0sStandIn is a STAND-IN for the k0s binary, not k0s: k0s cannot run here.
// `k0s install controller|worker ...` records its argv (install.argv, one
// argument a line; install.count, a line per call) and, like k0s, writes and
// enables the unit k0scontroller.service or k0sworker.service. That unit
// records its start (boot id, uptime and args, in started) before systemd
// counts it as started, then runs `k0s controller|worker ...`, which sleeps
// like a server. Anything else is logged.
const k0sStandIn = `#!/bin/sh
# k0s STAND-IN for the boot test: records how it is called; it is not k0s.
set -eu
rec=` + standInDir + `
mkdir -p "$rec"
quote() { printf ' "%s"' "$(printf '%s' "$1" | sed -e 's/[\\"]/\\&/g' -e 's/%/%%/g' -e 's/\$/$$/g')"; }
case "${1:-}" in
install)
	role=$2
	printf '%s\n' "$@" >"$rec/install.argv"
	echo install >>"$rec/install.count"
	shift 2
	args=
	for a in "$@"; do args="$args$(quote "$a")"; done
	unit=k0s$role.service
	cat >/etc/systemd/system/$unit <<UNIT
# k0s STAND-IN unit for the boot test (written by the stand-in's install).
[Unit]
Description=k0s stand-in ($role)
Wants=network-online.target
After=network-online.target

[Service]
# Recorded before the unit counts as started, so a test that sees it active
# also sees the record.
ExecStartPre=/usr/local/bin/k0s stand-in-record $role$args
ExecStart=/usr/local/bin/k0s $role$args

[Install]
WantedBy=multi-user.target
UNIT
	mkdir -p /etc/systemd/system/multi-user.target.wants
	ln -sf ../$unit /etc/systemd/system/multi-user.target.wants/$unit
	systemctl daemon-reload || true
	echo "k0s stand-in: installed $unit"
	;;
stand-in-record)
	shift
	{
		echo "boot $(cat /proc/sys/kernel/random/boot_id)"
		echo "uptime $(cut -d' ' -f1 /proc/uptime)"
		printf 'arg %s\n' "$@"
	} >>"$rec/started"
	;;
controller | worker)
	echo "k0s stand-in: $1 started"
	exec sleep infinity
	;;
*)
	echo "k0s stand-in: $*"
	;;
esac
`

func installK0sStandIn(n *Node) {
	n.WriteFile("/usr/local/bin/k0s", []byte(k0sStandIn), 0o755)
}

// standInInstallArgs is the argv of the last `k0s install`, or nil.
func (n *Node) standInInstallArgs() []string {
	s := strings.TrimRight(n.ReadFile(standInDir+"/install.argv"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// standInInstalls counts `k0s install` calls over the node's life.
func (n *Node) standInInstalls() int {
	return strings.Count(n.ReadFile(standInDir+"/install.count"), "install\n")
}

// standInStartedIn says whether the stand-in's k0s unit ran in the given boot.
func (n *Node) standInStartedIn(bootID string) bool {
	for _, line := range strings.Split(n.ReadFile(standInDir+"/started"), "\n") {
		if strings.ReplaceAll(strings.TrimPrefix(line, "boot "), "-", "") == bootID {
			return true
		}
	}
	return false
}
