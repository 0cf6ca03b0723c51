#!/usr/bin/env bash
# Measures the real server against a bare libmicrohttpd responder in the same run on the
# same machine, so the ratio says what our layers cost, whatever the machine's speed.
# Expects release builds of gatehouse and gatehouse-bench (make bench does both).
# The server's rows run twice: on SQLite, then on a throwaway PostgreSQL that this script
# starts and stops with scripts/test-postgres.sh (fsync off: it measures the server's work,
# not a disk). Env: BENCH_DURATION (10s), BENCH_CONNECTIONS (64), BENCH_POSTGRES (1; 0 skips
# the PostgreSQL rows), BENCH_SQLITE (1; 0 skips the SQLite rows), BENCH_ONLY (an extended
# regular expression: only the rows whose name matches it run, beside the baselines, for
# back-to-back comparisons while working; the full table needs every row), BENCH_PROFILE (a
# folder: each server row is recorded there by `perf record -g`, as row-N.perf.data),
# BENCH_PERF_FLAGS (what replaces `-g` there, e.g. `--call-graph dwarf -F 499`),
# BENCH_PG_STATEMENTS (a folder: what each PostgreSQL row's statements cost, from
# pg_stat_statements, with each table's and index's scans, as row-N.statements.txt).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
duration=${BENCH_DURATION:-10s}
connections=${BENCH_CONNECTIONS:-64}
bin=.build/release
results=.build/bench-results.md
# The baseline gets the server's MHD thread count: its setting, or its default.
threads=${GATEHOUSE_THREADS:-$(( $(nproc) > 2 ? $(nproc) : 2 ))}
# Other GATEHOUSE_* settings reach the server as they are; the database URL is this script's.
unset GATEHOUSE_DATABASE_URL
postgres_started=""

who=bench
# shellcheck source=lib/load.sh
source scripts/lib/load.sh
need_tools wrk curl python3
need_release gatehouse gatehouse-bench

# Anything else running (a build, say) skews every number; the load shows it.
load_at_start=$(cut -d' ' -f1 /proc/loadavg)
work=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-bench.XXXXXX")
server_pid=""
wrk_pid=""
upstream_pid=""

# Polite first (the server drains in-flight requests), then forceful.
stop_server() {
    [[ -n "$server_pid" ]] || return 0
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
cleanup() {
    if [[ -n "$wrk_pid" ]]; then kill "$wrk_pid" 2>/dev/null || true; fi
    if [[ -n "$upstream_pid" ]]; then kill "$upstream_pid" 2>/dev/null || true; fi
    stop_server
    if [[ -n "$postgres_started" ]]; then scripts/test-postgres.sh stop || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

die_with_log() {
    echo "bench: $1" >&2
    [[ -f "$2" ]] && tail -30 "$2" >&2
    exit 1
}

# Waits until `url` answers 200 (and `file`, if given, exists) while the server lives.
wait_ready() {
    local url=$1 log=$2 file=${3:-}
    for _ in $(seq 600); do
        kill -0 "$server_pid" 2>/dev/null || die_with_log "server exited during startup" "$log"
        if [[ -z "$file" || -s "$file" ]] && [[ $(curl -s -o /dev/null -w '%{http_code}' "$url") == 200 ]]; then
            return
        fi
        sleep 0.1
    done
    die_with_log "server not ready after 60s: $url" "$log"
}

start_baseline() {
    local port
    port=$(free_port)
    "$bin/gatehouse-bench" baseline --port "$port" --threads "$threads" >"$work/baseline.log" 2>&1 &
    server_pid=$!
    wait_ready "http://127.0.0.1:$port/" "$work/baseline.log"
    base_url="http://127.0.0.1:$port"
}

# start_gatehouse [DATABASE_URL]: empty for SQLite in a fresh data folder.
start_gatehouse() {
    local port data="$work/data"
    port=$(free_port)
    console_port=$(free_port)
    rm -rf "$data"
    mkdir -p "$data"
    # The verification API's per-IP and per-account limits would cap a load test from one
    # address, and the tenants' run limit (4 at a time) a load of workflow runs; lift them so
    # the numbers measure the work, not the limiter.
    GATEHOUSE_WORKFLOW_CONCURRENCY=64 GATEHOUSE_PORT=$port GATEHOUSE_CONSOLE_PORT=$console_port GATEHOUSE_DATA_DIR=$data GATEHOUSE_ACCESS_LOG=off GATEHOUSE_DATABASE_URL=${1:-} \
        GATEHOUSE_VERIFICATION_RATE_PER_IP=1000000000 GATEHOUSE_VERIFICATION_RATE_PER_ACCOUNT=1000000000 \
        GATEHOUSE_VERIFICATION_RATE_PUBLIC_PER_ACCOUNT=1000000000 GATEHOUSE_MANAGED_API_RATE_PER_MINUTE=1000000000 \
        "$bin/gatehouse" serve >"$work/gatehouse.log" 2>&1 &
    server_pid=$!
    wait_ready "http://127.0.0.1:$port/readyz" "$work/gatehouse.log" "$data/dev-credentials.json"
    base_url="http://127.0.0.1:$port"
    console_url="http://127.0.0.1:$console_port"
    admin_token=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["adminToken"])' "$data/dev-credentials.json")
    tenant_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tenantId"])' "$data/dev-credentials.json")
    verify_auth=$(python3 -c 'import base64, json, sys; v = json.load(open(sys.argv[1]))["verification"]; print("Basic " + base64.b64encode((v["appKey"] + ":" + v["secret"]).encode()).decode())' "$data/dev-credentials.json")
}

# drain_deliveries [DATABASE_URL]: waits (up to 2 minutes) until the server has sent every
# queued code, so a row of starts is not measured beside the previous row's deliveries.
drain_deliveries() {
    local count
    for _ in $(seq 1200); do
        if [[ -n "${1:-}" ]]; then
            count=$(psql "$1" -Atc "SELECT count(*) FROM verification_deliveries")
        else
            count=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM verification_deliveries").fetchone()[0])' "$work/data/gatehouse.sqlite")
        fi
        [[ $count == 0 ]] && return
        sleep 0.1
    done
    echo "bench: $count deliveries still queued after 2 minutes" >&2
}

# Prints the value of `key` in the JSON held by `file`, following dotted paths.
json_get() {
    python3 -c 'import json, sys
value = json.load(open(sys.argv[1]))
for part in sys.argv[2].split("."):
    value = value[int(part)] if part.isdigit() else value[part]
print(value)' "$1" "$2"
}

rows=()
names=()
rates=()
notes=()

# wants NAME: whether the row NAME runs (BENCH_ONLY; the baselines always do).
wants() {
    [[ -z "${BENCH_ONLY:-}" || "$1" =~ baseline || "$1" =~ $BENCH_ONLY ]]
}

# With BENCH_PG_STATEMENTS, the statements of the PostgreSQL row about to run are counted
# from zero (pg_stat_statements; `database_url` is gatehouse_rows' own) ...
pg_statements_reset() {
    [[ -n "${BENCH_PG_STATEMENTS:-}" && -n "${database_url:-}" ]] || return 0
    psql "$database_url" -qAtc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset(); SELECT pg_stat_reset()" >/dev/null
}
# ... and written out, costliest first, when it ends: pg_statements_dump ROW.
pg_statements_dump() {
    [[ -n "${BENCH_PG_STATEMENTS:-}" && -n "${database_url:-}" ]] || return 0
    mkdir -p "$BENCH_PG_STATEMENTS"
    psql "$database_url" -c "SELECT calls, round(total_exec_time::numeric, 1) AS total_ms,
        round((total_exec_time / calls * 1000)::numeric, 1) AS mean_us, rows,
        left(regexp_replace(query, '\s+', ' ', 'g'), 160) AS statement
        FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 40" \
        -c "SELECT relname AS table, seq_scan, seq_tup_read, idx_scan, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del
        FROM pg_stat_user_tables WHERE seq_scan + coalesce(idx_scan, 0) > 0 ORDER BY seq_tup_read DESC" \
        -c "SELECT relname AS table, indexrelname AS index, idx_scan, idx_tup_read, idx_tup_fetch
        FROM pg_stat_user_indexes WHERE idx_scan > 0 ORDER BY idx_tup_read DESC LIMIT 30" >"$BENCH_PG_STATEMENTS/row-$1.statements.txt"
}

# measure NAME URL [LUA_SCRIPT] [CONNECTIONS]: one wrk run, parsed into a table row.
measure() {
    local name=$1 url=$2 script=${3:-} clients=${4:-$connections} out="$work/wrk-$(( ${#rows[@]} + 1 )).txt"
    wants "$name" || return 0
    local args=(-t2 "-c$clients" "-d$duration" --latency)
    [[ -n "$script" ]] && args+=(-s "$script")
    echo "bench: $name ($url, $duration, $clients connections)" >&2
    # In the background so that an interrupted run can stop it too.
    local perf_pid=""
    if [[ -n "${BENCH_PROFILE:-}" && -n "$server_pid" && ! "$name" =~ baseline|directly ]]; then
        mkdir -p "$BENCH_PROFILE"
        perf record ${BENCH_PERF_FLAGS:--g} -o "$BENCH_PROFILE/row-$(( ${#rows[@]} + 1 )).perf.data" -p "$server_pid" >/dev/null 2>&1 &
        perf_pid=$!
    fi
    pg_statements_reset
    wrk "${args[@]}" "$url" >"$out" &
    wrk_pid=$!
    wait "$wrk_pid"
    wrk_pid=""
    pg_statements_dump $(( ${#rows[@]} + 1 ))
    if [[ -n "$perf_pid" ]]; then kill -INT "$perf_pid" 2>/dev/null || true; wait "$perf_pid" 2>/dev/null || true; fi
    local rps p50 p99 requests non2xx errors ratio
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
    p50=$(awk '$1 == "50%" {print $2}' "$out")
    p99=$(awk '$1 == "99%" {print $2}' "$out")
    requests=$(awk '/requests in/ {print $1}' "$out")
    non2xx=$(awk -F: '/Non-2xx or 3xx responses/ {gsub(/ /, "", $2); print $2}' "$out")
    errors=$(sed -n 's/^ *Socket errors: //p' "$out")
    [[ -n "$rps" && -n "$p50" && -n "$p99" ]] || { cat "$out" >&2; echo "bench: could not parse wrk output" >&2; exit 1; }
    names+=("$name")
    rates+=("$rps")
    rows+=("| $name | $rps | $p50 | $p99 | RATIO | ${non2xx:-0} |")
    [[ -n "$errors" ]] && notes+=("- $name: socket errors: $errors")
    # Errors are cheap to serve; a mostly failing scenario would flatter the numbers.
    if (( ${non2xx:-0} * 2 > ${requests:-0} )); then
        cat "$out" >&2
        die_with_log "$name: ${non2xx} of ${requests} responses were not 2xx" "$work/gatehouse.log"
    fi
    return 0
}

start_baseline
measure "baseline: bare libmicrohttpd \`/\`" "$base_url/"
stop_server

# gatehouse_rows DATABASE [URL]: every server row on one database.
gatehouse_rows() {
    local database=$1 database_url=${2:-}
start_gatehouse "$database_url"
measure "gatehouse \`GET /healthz\` ($database)" "$base_url/healthz"

# One request by hand first, so a broken endpoint fails with its answer, not a statistic.
status=$(curl -s -o "$work/tenant.json" -w '%{http_code}' -X POST "$base_url/admin/v1/tenants" \
    -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' -d '{"name":"bench"}')
[[ $status == 2?? ]] || { cat "$work/tenant.json" >&2; echo >&2; die_with_log "POST /admin/v1/tenants answered $status" "$work/gatehouse.log"; }
cat >"$work/create-tenant.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"name":"bench"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $admin_token"
LUA
measure "gatehouse \`POST /admin/v1/tenants\` ($database write)" "$base_url/admin/v1/tenants" "$work/create-tenant.lua"

# Verification: starts to distinct UK mobile numbers (no cooldown; each wrk thread counts
# in a lane of its own, so no number repeats and no per-number rule is hit), then status and report
# of one verification that the setup below verified.
curl -s -o "$work/apps.json" -H "Authorization: Bearer $admin_token" "$base_url/admin/v1/tenants/$tenant_id/otp-applications"
app_id=$(json_get "$work/apps.json" data.0.id)
curl -s -o /dev/null -X PATCH -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
    -d '{"cooldownSeconds":0}' "$base_url/admin/v1/tenants/$tenant_id/otp-applications/$app_id"
status=$(curl -s -o "$work/start.json" -w '%{http_code}' -X POST "$base_url/api/v1/verifications" \
    -H "Authorization: $verify_auth" -H 'Content-Type: application/json' \
    -d '{"data":{"destination":"+447400000001","delivery_method":"sms"}}')
[[ $status == 201 ]] || { cat "$work/start.json" >&2; die_with_log "verification start answered $status" "$work/gatehouse.log"; }
verification_id=$(json_get "$work/start.json" data.id)
sleep 0.5
curl -s -o "$work/outbox.json" -H "Authorization: Bearer $admin_token" "$base_url/admin/v1/outbox?to=447400000001"
code=$(json_get "$work/outbox.json" data.0.body | tr -cd '0-9' | tail -c 6)
report_body="{\"data\":{\"delivery_method\":\"sms\",\"code\":\"$code\"}}"
status=$(curl -s -o "$work/report.json" -w '%{http_code}' -X PUT "$base_url/api/v1/verifications/$verification_id" \
    -H "Authorization: $verify_auth" -H 'Content-Type: application/json' -d "$report_body")
[[ $status == 200 && $(json_get "$work/report.json" data.status) == verified ]] || { cat "$work/report.json" >&2; die_with_log "report answered $status" "$work/gatehouse.log"; }
# start_lua FILE FORMAT ARGUMENTS: starts to the numbers FORMAT makes of ARGUMENTS (Lua),
# from `lane` (the wrk thread) and `sent` (its count so far), so no number repeats.
start_lua() {
cat >"$1" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "$verify_auth"
local lanes = 0
function setup(thread)
    lanes = lanes + 1
    thread:set("lane", lanes)
end
function init(args)
    lane = tonumber(wrk.thread:get("lane"))
    sent = 0
end
function request()
    sent = sent + 1
    local body = string.format('{"data":{"destination":"$2","delivery_method":"sms"}}', $3)
    return wrk.format(nil, nil, nil, body)
end
LUA
}
start_lua "$work/start.lua" '+4474%08d' 'lane * 10000000 + sent'
# The same starts to one prefix, and spread over 100: the pumping guard counts per prefix,
# so its cost per start must not grow with its prefix's traffic (each row has prefixes of
# its own, so no row's codes are judged in another's).
start_lua "$work/start-one-prefix.lua" '+447700%06d' 'lane * 100000 + sent'
start_lua "$work/start-many-prefixes.lua" '+4475%02d%06d' 'sent % 100, lane * 100000 + math.floor(sent / 100)'
cat >"$work/status.lua" <<LUA
wrk.headers["Authorization"] = "$verify_auth"
LUA
cat >"$work/report.lua" <<LUA
wrk.method = "PUT"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "$verify_auth"
wrk.body = '$report_body'
LUA
# Sign-in: one phone sign-in by hand (code from the outbox), then token refresh and an
# authenticated profile read. Repeating one refresh token inside the 30 s grace window
# measures a refresh's session check; after the first rotation each call is the previous
# token's, answered without the session's lock (only a rotation takes it).
ios_key=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["apiKeys"]["IOS"])' "$work/data/dev-credentials.json")
curl -s -o /dev/null -X POST "$base_url/api/auth/v1/mobile/request-otp" -H "x-api-key: $ios_key" -H 'Content-Type: application/json' \
    -d '{"phoneNumber":"+14165550199","channel":"sms"}'
sleep 0.5
curl -s -o "$work/otp.json" -H "Authorization: Bearer $admin_token" "$base_url/admin/v1/outbox?to=14165550199"
otp=$(json_get "$work/otp.json" data.0.body | grep -o '[0-9]\{6\}' | head -1)
status=$(curl -s -o "$work/pair.json" -w '%{http_code}' -X POST "$base_url/api/auth/v1/mobile/verify-otp" -H "x-api-key: $ios_key" \
    -H 'Content-Type: application/json' -d "{\"phoneNumber\":\"+14165550199\",\"otp\":\"$otp\",\"channel\":\"sms\"}")
[[ $status == 200 ]] || { cat "$work/pair.json" >&2; die_with_log "verify-otp answered $status" "$work/gatehouse.log"; }
access_token=$(json_get "$work/pair.json" accessToken)
refresh_token=$(json_get "$work/pair.json" refreshToken)
cat >"$work/refresh.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"refreshToken":"$refresh_token"}'
LUA
cat >"$work/profile.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $access_token"
LUA
measure "sign-in refresh \`POST /api/auth/v1/refresh\` ($database)" "$base_url/api/auth/v1/refresh" "$work/refresh.lua"
measure "authenticated \`GET /api/users/v1/profile\` ($database)" "$base_url/api/users/v1/profile" "$work/profile.lua"

# Workflows: the catalogue read, and a synchronous execute of the development tenant's
# website check against the server's own /healthz (queue row, claim, executor, result, wake-up),
# with the tenant's run limit raised to 64 (the limit is policy, not cost).
measure "workflow catalogue \`GET /api/workflows/v1/1/20\` ($database)" "$base_url/api/workflows/v1/1/20" "$work/profile.lua"
cat >"$work/execute.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $access_token"
wrk.headers["X-App-Version"] = "bench"
wrk.body = '{"id":"wf-url-001","input":{"url":"$base_url/healthz"}}'
LUA
measure "sync workflow execute \`POST /api/workflows/v1/execute\` ($database)" "$base_url/api/workflows/v1/execute" "$work/execute.lua"

# Managed APIs: a proxied call (session, definition, destination check, credential, upstream
# round trip, the answer passed on) against a bare libmicrohttpd upstream, and that upstream called
# directly, on the same machine at the same time.
if wants "managed API"; then
upstream_port=$(free_port)
"$bin/gatehouse-bench" baseline --port "$upstream_port" --threads 1 >"$work/upstream.log" 2>&1 &
upstream_pid=$!
for _ in $(seq 100); do [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$upstream_port/") == 200 ]] && break; sleep 0.1; done
status=$(curl -s -o "$work/managed.json" -w '%{http_code}' -X PUT "$base_url/admin/v1/tenants/$tenant_id/managed-apis/upstream" \
    -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
    -d "{\"displayName\":\"Upstream\",\"baseUrl\":\"http://127.0.0.1:$upstream_port\",\"authType\":\"BEARER_TOKEN\",\"bearerToken\":\"bench-token\",\"mode\":\"proxied\",\"development\":true}")
[[ $status == 200 ]] || die_with_log "managed API definition: HTTP $status $(cat "$work/managed.json")" "$work/gatehouse.log"
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $access_token" "$base_url/api/managed-apis/v1/upstream/proxy/")
[[ $status == 200 ]] || die_with_log "proxied call: HTTP $status" "$work/gatehouse.log"
# One definition may hold 48 of the node's 64 upstream slots (PROXY_BUSY past that), so both
# rows run at 48 connections: the row measures the proxy's work, not its refusals.
measure "managed API upstream called directly (bare libmicrohttpd, $database run, 48 connections)" "http://127.0.0.1:$upstream_port/" "" 48
direct_rps=${rates[-1]}
measure "proxied managed API call \`GET /api/managed-apis/v1/:name/proxy/\` ($database, 48 connections)" "$base_url/api/managed-apis/v1/upstream/proxy/" "$work/profile.lua" 48
notes+=("- proxied managed API call ($database): $(awk -v a="${rates[-1]}" -v b="$direct_rps" 'BEGIN {printf "%.2f", a / b}') of the upstream called directly")
kill "$upstream_pid" 2>/dev/null || true
wait "$upstream_pid" 2>/dev/null || true
upstream_pid=""
fi

# OTP verification cannot be replayed: gatehouse-bench prepares fresh codes for distinct
# numbers, then times only the verify-otp calls at the same concurrency.
if wants "verify-otp"; then
echo "bench: sign-in verify-otp (${SIGNIN_COUNT:-10000} fresh codes, $connections at a time)" >&2
# The statements counted here include the request-otp calls that prepare the codes.
pg_statements_reset
line=$("$bin/gatehouse-bench" signin --base "$base_url" --admin-token "$admin_token" --api-key "$ios_key" \
    --count "${SIGNIN_COUNT:-10000}" --connections "$connections" | grep '^SIGNIN')
pg_statements_dump $(( ${#rows[@]} + 1 ))
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
names+=("sign-in verify-otp")
rates+=("$(field rps)")
rows+=("| sign-in \`POST /api/auth/v1/mobile/verify-otp\` ($database) | $(field rps) | $(field p50_ms)ms | $(field p99_ms)ms | RATIO | $(field non2xx) |")
(( $(field non2xx) * 2 <= $(field requests) )) || die_with_log "sign-in verify mostly failed: $line" "$work/gatehouse.log"
fi

measure "verification status \`GET /api/v1/verifications/{id}\` ($database)" "$base_url/api/v1/verifications/$verification_id" "$work/status.lua"
measure "verification report \`PUT /api/v1/verifications/{id}\` ($database)" "$base_url/api/v1/verifications/$verification_id" "$work/report.lua"
# Starts last: each leaves a delivery behind that the server works off in the background,
# which would slow the rows measured after it; each start row waits for the queue to empty.
drain_deliveries "$database_url"
measure "verification start \`POST /api/v1/verifications\` ($database)" "$base_url/api/v1/verifications" "$work/start.lua"
drain_deliveries "$database_url"
measure "verification start, one prefix ($database)" "$base_url/api/v1/verifications" "$work/start-one-prefix.lua"
drain_deliveries "$database_url"
measure "verification start, 100 prefixes ($database)" "$base_url/api/v1/verifications" "$work/start-many-prefixes.lua"

# The operators' console: the overview page (the last day's charts, facts and conversion by
# country) with a month of traffic in the database, signed in through the console's own form.
# Last: the page lists every tenant in its filter, and the tenant row above made some 200,000,
# so its pages take seconds each and are still being written after wrk gives up on them; a row
# measured after it would measure that instead.
if wants "console"; then
python3 scripts/lib/console-bench.py seed "${database_url:-$work/data/gatehouse.sqlite}"
operator=$(OPERATOR_PASSWORD="bench operator password" GATEHOUSE_DATA_DIR="$work/data" GATEHOUSE_DATABASE_URL="$database_url" \
    "$bin/gatehouse" admin operator create --email bench@ops.example --role viewer)
totp_uri=$(python3 -c 'import json, sys; print(json.loads(sys.stdin.read().split("\nshown once")[0])["totpURI"])' <<<"$operator")
console_cookie=$(python3 scripts/lib/console-bench.py sign-in "$console_url" bench@ops.example "bench operator password" "$totp_uri")
status=$(curl -s -o "$work/overview.html" -w '%{http_code}' -H "Cookie: $console_cookie" "$console_url/")
[[ $status == 200 ]] || die_with_log "console overview answered $status" "$work/gatehouse.log"
cat >"$work/console.lua" <<LUA
wrk.headers["Cookie"] = "$console_cookie"
LUA
measure "console overview \`GET /\` (a month of traffic, $database)" "$console_url/" "$work/console.lua"
fi

stop_server
}

if [[ ${BENCH_SQLITE:-1} != 0 ]]; then gatehouse_rows SQLite; fi
if [[ ${BENCH_POSTGRES:-1} != 0 ]]; then
    if [[ -n "${BENCH_PG_STATEMENTS:-}" ]]; then
        export TEST_POSTGRES_OPTIONS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
    fi
    scripts/test-postgres.sh start
    postgres_started=1
    gatehouse_rows PostgreSQL "$(scripts/test-postgres.sh url)"
    scripts/test-postgres.sh stop
    postgres_started=""
fi

# A second baseline shows how much the machine drifted during the run.
start_baseline
measure "baseline again (drift check)" "$base_url/"
stop_server

# Ratios are against the mean of the two baselines (first and last run), so a machine
# that drifts during the run does not favour the scenarios measured early or late.
baseline_rps=$(awk -v a="${rates[0]}" -v b="${rates[${#rates[@]}-1]}" 'BEGIN {print (a + b) / 2}')
for i in "${!rows[@]}"; do
    ratio=$(awk -v a="${rates[$i]}" -v b="$baseline_rps" 'BEGIN {printf "%.2f", a / b}')
    rows[$i]=${rows[$i]/RATIO/$ratio}
done

{
    echo "wrk -t2 -c$connections -d$duration --latency; $(nproc) cores, $threads server threads;" \
        "load average $load_at_start at start; $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo
    echo "| scenario | requests/s | p50 | p99 | ratio vs mean baseline | non-2xx |"
    echo "|---|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
    if [[ ${#notes[@]} -gt 0 ]]; then echo; printf '%s\n' "${notes[@]}"; fi
} | tee "$results"
