#!/usr/bin/env bash
# The main job end to end, touching nothing on the host: build the agent,
# provision the demo node (examples/demo) into a temporary root whose secret
# files the script places there, then show the tree it wrote, the status file,
# and that a second run does nothing. KEEP=1 keeps the root for a look.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/corium-demo.XXXXXX")
if [ "${KEEP:-}" != 1 ]; then
	trap 'rm -rf "$work"' EXIT
fi
root="$work/root"
agent="$work/corium-agent"

echo "==> building the agent"
CGO_ENABLED=0 go build -trimpath -o "$agent" ./cmd/corium-agent

echo "==> placing the demo's secret files under $root"
mkdir -p "$root"
cp -R examples/demo/root/. "$root/"
chmod 0700 "$root/run/corium/secrets"
chmod 0600 "$root"/run/corium/secrets/*

run() {
	echo "\$ corium-agent $*"
	"$agent" "$@"
}

echo "==> plan (changes nothing, resolves no secret)"
run plan --root "$root" --config examples/demo/config.yaml --facts examples/demo/facts.json | grep -E '^(source|node address|hostname|note|step)|created|action    k0s-install' || true

echo
echo "==> apply"
run apply --root "$root" --config examples/demo/config.yaml --facts examples/demo/facts.json 2>"$work/apply.log"
echo "(log: $(wc -l <"$work/apply.log") lines, e.g.)"
grep -m3 -E 'resolved|node address' "$work/apply.log" || true

echo
echo "==> the tree it wrote (mode, path; a link with its target)"
(cd "$root" && find . -path ./run/corium/secrets -prune -o -type f -printf '%m %p\n' -o -type l -printf '%m %p -> %l\n' | sed 's|\./|/|' | sort -k2)

echo
echo "==> /etc/k0s/k0s.yaml (the VRRP password line masked here)"
sed -E 's/(authPass: ).*/\1.../' "$root/etc/k0s/k0s.yaml"

echo
echo "==> /run/corium/status.json (abridged)"
grep -E '^  "(command|root|outcome|error)"|^    "(source|address|how|name)"|^      "(name|outcome|durationMs)"' "$root/run/corium/status.json"

echo
echo "==> a second apply does nothing"
run apply --root "$root" --config examples/demo/config.yaml --facts examples/demo/facts.json 2>/dev/null

if [ "${KEEP:-}" = 1 ]; then
	echo "kept: $root"
fi
