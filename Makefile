.PHONY: build test lint test-boot test-lab test-vm bench demo generate

build:
	CGO_ENABLED=0 go build -trimpath -o bin/corium-agent ./cmd/corium-agent

# The whole suite; installs what it needs (see scripts/test.sh).
test:
	bash scripts/test.sh

# gofmt, go mod tidy -diff, go vet and staticcheck (pinned); make test runs it too.
lint:
	bash scripts/lint.sh

# The main job end to end: provision a node into a directory root from an
# example config, touching nothing on the host.
demo:
	bash scripts/demo.sh

test-boot:
	bash scripts/deps.sh && bash scripts/rootfs.sh && CORIUM_REQUIRE_PRIVILEGED=1 go test -count=1 -timeout 30m -run Boot -v ./test/boot/

# The cluster lab (docs/lab.md); RUN=TestFullMesh runs one scenario.
test-lab:
	bash scripts/deps.sh && CORIUM_REQUIRE_PRIVILEGED=1 go test -count=1 -timeout 10m -parallel 4 -run '$(or $(RUN),.)' -v ./test/lab/

test-vm:
	bash scripts/deps.sh && bash scripts/vm-image.sh && CORIUM_REQUIRE_PRIVILEGED=1 go test -count=1 -timeout 75m -v ./test/vm/

bench:
	bash bench/run.sh

generate:
	go generate ./...
