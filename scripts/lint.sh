#!/usr/bin/env bash
# The static checks, one definition for `make lint` and scripts/test.sh:
# gofmt, go mod tidy, go vet and staticcheck. staticcheck runs at a pinned
# version through `go run`, so a clean machine needs only the module proxy
# and go.mod carries none of its dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.8.2

unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
if ! tidy=$(go mod tidy -diff); then
	printf 'go.mod and go.sum are not tidy; run go mod tidy:\n%s\n' "$tidy" >&2
	exit 1
fi
go vet ./...
go run "$STATICCHECK" ./...
