# Every target installs the Debian packages it needs first (a no-op when present), so a
# clean clone with only the Swift toolchain on PATH works. Environment variables reach
# the commands as they are, e.g. `GATEHOUSE_PORT=9000 make run`.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

.PHONY: build run test bench clean

build:
	scripts/install-deps.sh build
	swift build

# exec: the server gets Ctrl-C and SIGTERM itself and shuts down gracefully.
# gatehouse-cli too, so the README's `.build/release/gatehouse-cli …` works beside it.
# The operators' console listens on 8081 unless GATEHOUSE_CONSOLE_PORT says otherwise.
run:
	scripts/install-deps.sh build
	swift build -c release --product gatehouse
	swift build -c release --product gatehouse-cli
	GATEHOUSE_CONSOLE_PORT=$${GATEHOUSE_CONSOLE_PORT:-8081} exec .build/release/gatehouse serve

# Starts and always stops a throwaway PostgreSQL; exits with swift test's status.
test:
	scripts/test.sh

bench:
	scripts/install-deps.sh bench
	swift build -c release --product gatehouse
	swift build -c release --product gatehouse-bench
	scripts/bench.sh

# Stops a test PostgreSQL a killed run may have left, before its state file goes.
clean:
	scripts/test-postgres.sh stop
	rm -rf .build
