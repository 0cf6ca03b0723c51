#!/usr/bin/env bash
# The whole suite: every storage test runs on SQLite and on a throwaway PostgreSQL,
# which is stopped however the tests end. Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh test
# Every public SDK symbol carries a one-line doc comment.
python3 scripts/undocumented-public.py
swift build --build-tests
scripts/test-postgres.sh start
trap 'scripts/test-postgres.sh stop' EXIT
# set -e makes the script exit with swift test's status; the trap keeps that status.
export GATEHOUSE_TEST_POSTGRES_URL
GATEHOUSE_TEST_POSTGRES_URL=$(scripts/test-postgres.sh url)
# The transport's and SMTP client's tests measure wall-clock behaviour (slow clients,
# deadlines, streamed events, timeouts): they run on their own afterwards, so that the
# other suites running in parallel on two cores cannot stretch their clocks.
timing="GatehouseHTTPTests|SMTPDeliveryTests"
# The console's browser test runs Chromium, which takes most of two cores while it lasts:
# alone afterwards, it neither starves the suites beside it (a synchronous workflow run
# outlasted its 25 s wait under that load) nor is starved by them.
browser="ConsoleBrowserTests"
# Sixteen test cases at a time, not all of them at once: Swift Testing starts every case
# together otherwise, and the waits of hundreds of starting cases (a schema made, a server
# migrated, a child process) queue ahead of the requests of the running ones on Linux's
# concurrency pool, which GCD grows by about one thread a second. Unbounded, requests of
# running tests waited past their 15-30 s deadlines; bounded, the suite is also faster.
width=${GATEHOUSE_TEST_WIDTH:-16}
# Swift Testing captures a backtrace at every `throw` in the process, in case the error ends a
# test; the servers under test throw in their ordinary paths (a refused request, a decode that
# fails, the standard library's own repair of invalid UTF-8, once per bad byte), and each
# capture walks the unwind tables of the whole test binary. A 3 MB binary answer read as text
# took 15 s with it, under a second without. An error that fails a test still says where it was caught.
export SWT_SWIFT_ERROR_BACKTRACING_ENABLED=0
if [[ $# -gt 0 ]]; then
    swift test --skip-build "$@"
else
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width swift test --skip-build --skip "$timing|$browser"
    swift test --skip-build --filter "$timing"
    swift test --skip-build --filter "$browser"
fi
# The verification API's responses against the vendor's OpenAPI schemas.
scripts/conformance.sh
