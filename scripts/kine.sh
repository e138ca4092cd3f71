#!/usr/bin/env bash
# Builds (once) and caches kine at the version k0s v1.36.3 embeds
# (embedded-bins/Makefile.variables), for the cluster lab (docs/lab.md):
# go install from the Go module proxy, without cgo (kine's PostgreSQL
# driver is pure Go; only its SQLite backend needs cgo). Prints the
# binary's path.
set -euo pipefail
version=v0.16.3
cache=${CORIUM_TEST_CACHE:-/var/cache/corium-test}
dir=$cache/kine-$version
bin=$dir/kine
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.kine.lock"
flock 9
if [ ! -x "$bin" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	(
		# Outside any module, so the project's go.mod plays no part.
		cd "$work"
		export GOFLAGS= GOWORK=off GO111MODULE=on CGO_ENABLED=0 GOBIN="$work/bin"
		go install -trimpath "github.com/k3s-io/kine@$version" >"$cache/kine-build.log" 2>&1
	) || {
		tail -n 30 "$cache/kine-build.log" >&2
		exit 1
	}
	mkdir -p "$dir"
	mv "$work/bin/kine" "$bin.partial"
	mv "$bin.partial" "$bin"
fi
echo "$bin"
