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
if [[ $# -gt 0 ]]; then
    swift test --skip-build "$@"
else
    swift test --skip-build --skip "$timing"
    swift test --skip-build --filter "$timing"
fi
# The verification API's responses against the vendor's OpenAPI schemas.
scripts/conformance.sh
