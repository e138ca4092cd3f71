#!/usr/bin/env bash
# Runs the fuzz targets one after another, each for FUZZTIME (default 10m) on
# one worker, and prints each target's last progress line. Not part of the
# test suite (the seed corpora run there); run it by hand or in a soak job.
#
# usage: bench/fuzz.sh [PKG:TARGET ...]   (default: every target listed below)
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME=${FUZZTIME:-10m}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	targets=(
		./internal/schema:FuzzValidate
		./internal/schema:FuzzParseValidate
		./internal/schema:FuzzSecretSource
		./internal/schema:FuzzInlineSecret
		./internal/schema:FuzzPeerPublicKey
		./internal/rootfs:FuzzRootStaysInside
		./internal/source:FuzzCmdline
		./internal/source:FuzzInspect
		./internal/source:FuzzCmdlineRoundTrip
		./internal/source:FuzzDataURL
		./internal/source:FuzzDataURLRoundTrip
		./internal/bootstrap/render:FuzzWireGuardKey
		./internal/bootstrap/render:FuzzRender
	)
fi

status=0
for t in "${targets[@]}"; do
	pkg=${t%%:*}
	name=${t##*:}
	log=$(mktemp)
	start=$(date +%s)
	if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -parallel 1 "$pkg" >"$log" 2>&1; then
		result=ok
	else
		result=FAILED
		status=1
	fi
	last=$(grep -E '^fuzz: elapsed' "$log" | tail -1)
	echo "$result $pkg $name wall=$(($(date +%s) - start))s ${last#fuzz: }"
	if [ $result = FAILED ]; then
		grep -vE '^fuzz: elapsed' "$log" | tail -30
	fi
	rm -f "$log"
done
exit $status
