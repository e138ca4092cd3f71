#!/usr/bin/env bash
# Builds (once) and caches etcd at the version k0s v1.36.3 embeds
# (embedded-bins/Makefile.variables), for the cluster lab (docs/lab.md): a
# throwaway module outside the project's go.mod whose main is etcd's own
# (test/lab/testdata/etcd/main.go), resolved from the Go module proxy.
# Prints the binary's path.
set -euo pipefail
cd "$(dirname "$0")/.."
version=v3.6.14
cache=${CORIUM_TEST_CACHE:-/var/cache/corium-test}
bin=$cache/etcd-$version/etcd
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.etcd.lock"
flock 9
if [ ! -x "$bin" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	cp test/lab/testdata/etcd/main.go "$work/main.go"
	(
		cd "$work"
		export GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0
		go mod init corium.test/etcd >/dev/null 2>&1
		go get "go.etcd.io/etcd/server/v3@$version" >"$cache/etcd-build.log" 2>&1
		mkdir -p "$cache/etcd-$version"
		go build -trimpath -o "$bin.partial" . >>"$cache/etcd-build.log" 2>&1
	) || {
		tail -n 30 "$cache/etcd-build.log" >&2
		exit 1
	}
	mv "$bin.partial" "$bin"
fi
echo "$bin"
