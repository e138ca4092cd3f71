#!/bin/sh
# The floor of a first boot: the least any provisioning agent must do for the
# node the boot benchmark provisions, in fixed steps with no decisions and no
# sleeps, so that `go test -bench BootFirstBoot ./test/boot/` can say how far
# the agent is from it (agent time / floor time).
#
# Run inside a booted node, as the oneshot unit that stands where
# corium-agent.service does, with what the agent would write laid out under
# $FLOOR/tree (its files, modes and links, as a run of the agent into a
# scratch root wrote them) and the k0s install line in $FLOOR/install.args
# (one argument a line). Each step's duration goes to $FLOOR/steps, in
# microseconds, one "STEP US" a line.
set -eu
FLOOR=${FLOOR:-/var/lib/corium-floor}
tree=$FLOOR/tree
steps=$FLOOR/steps
: >"$steps"

now() { date +%s%N; }
done_step() { echo "$1 $((($(now) - $2) / 1000))" >>"$steps"; }

# 1. The files, written as the agent writes them: each into a temporary file
# in its own directory, flushed, renamed over the target, its directory
# flushed. coreutils' sync with names is fsync(2) of each; the flushes are
# batched into one process each so that the floor is not the shell's forks.
start=$(now)
list=$FLOOR/files
(cd "$tree" && find . -mindepth 1 \( -type f -o -type l \) -printf '/%P\n') >"$list"
tmps= dirs=
while IFS= read -r path; do
	dir=${path%/*}
	[ -d "$dir" ] || mkdir -p "$dir"
	cp -P -p "$tree$path" "$path.floor-tmp"
	tmps="$tmps $path.floor-tmp" dirs="$dirs $dir"
done <"$list"
# shellcheck disable=SC2086 # word splitting is the point
sync $tmps
while IFS= read -r path; do mv -fT "$path.floor-tmp" "$path"; done <"$list"
# shellcheck disable=SC2086
sync $dirs
done_step files "$start"

# 2. One reload, for the unit files.
start=$(now)
systemctl daemon-reload
done_step reload "$start"

# 3. The overlay, started and waited for.
start=$(now)
systemctl start wg-quick@wg0.service
done_step overlay "$start"

# 4. The guard, from the rendered file, in one netlink batch.
start=$(now)
corium-agent firewall apply --if-rendered >/dev/null
done_step guard "$start"

# 5. k0s's install (the stand-in's, which reloads as k0s does).
start=$(now)
set --
while IFS= read -r arg; do set -- "$@" "$arg"; done <"$FLOOR/install.args"
"$@" >/dev/null
done_step install "$start"

# 6. k0s's start, queued, not waited for.
start=$(now)
systemctl start --no-block k0scontroller.service
done_step start "$start"
