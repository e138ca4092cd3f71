#!/usr/bin/env bash
# The whole test suite, from a clean checkout: installs what the tests need,
# then lints (scripts/lint.sh) and runs every test. Under CI=true a
# privileged test that cannot run fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh

export CGO_ENABLED=0
if [ "${CI:-}" = "true" ] || [ "$(id -u)" = 0 ]; then
	export CORIUM_REQUIRE_PRIVILEGED=1
fi
if [ "$(id -u)" = 0 ]; then
	bash scripts/rootfs.sh   # the cached Debian trixie rootfs for the boot tests
	bash scripts/vm-image.sh # the VM test's cached guest, built on that rootfs
	bash scripts/etcd.sh >/dev/null # the lab's etcd, built once into the test cache
	bash scripts/kine.sh >/dev/null # the lab's kine, likewise
fi

bash scripts/lint.sh
go test -count=1 -timeout 60m "$@" $(go list ./... | grep -v -e '/test/vm$' -e '/test/lab$')
# The cluster lab (docs/lab.md) builds many namespaces and waits on
# handshakes and probe timeouts: it runs as its own phase, not beside the
# parallel packages, four scenarios at a time since they wait more than
# they compute.
go test -count=1 -timeout 10m -parallel 4 "$@" ./test/lab/
# The VM test's two emulated machines take both cores: it runs on its own,
# after every other package.
go test -count=1 -timeout 75m "$@" ./test/vm/
