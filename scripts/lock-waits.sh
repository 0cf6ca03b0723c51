#!/usr/bin/env bash
# How long verification starts of one application wait on locks, with one node and with two
# nodes on one PostgreSQL. Two cores cannot show what a second node adds in throughput, so
# this shows it on paper: while wrk drives starts, pg_stat_activity is sampled every 0.1 s,
# and the mean number of backends waiting on a lock, divided by the starts per second, is the
# lock wait each start pays (Little's law). Each run has a fresh database on a throwaway
# PostgreSQL (scripts/test-postgres.sh: the checkout's one, started and stopped here, so not
# beside make test or make bench). Expects the release build of gatehouse (make bench).
# Env: LOCK_DURATION (10s), LOCK_CONNECTIONS (32 in all, split between the nodes).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
duration=${LOCK_DURATION:-10s}
connections=${LOCK_CONNECTIONS:-32}
bin=.build/release
who=lock-waits
# shellcheck source=lib/load.sh
source scripts/lib/load.sh
need_tools wrk curl psql python3
need_release gatehouse

work=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-lock-waits.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    scripts/test-postgres.sh stop || true
    rm -rf "$work"
}
trap cleanup EXIT
scripts/test-postgres.sh start
server=$(scripts/test-postgres.sh url)

# start_node NAME DATABASE_URL [FIRST]: a development node with a data folder of its own; its
# port goes to `node_port`. The first node on a database writes the development credentials.
start_node() {
    local name=$1 url=$2 first=${3:-} port data="$work/$1"
    port=$(free_port)
    mkdir -p "$data"
    GATEHOUSE_PORT=$port GATEHOUSE_DATA_DIR=$data GATEHOUSE_ACCESS_LOG=off GATEHOUSE_DATABASE_URL=$url \
        GATEHOUSE_RATE_LIMIT_SHARING=cluster \
        GATEHOUSE_VERIFICATION_RATE_PER_IP=1000000000 GATEHOUSE_VERIFICATION_RATE_PER_ACCOUNT=1000000000 \
        "$bin/gatehouse" serve >"$work/$name.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 600); do
        if [[ ( -z "$first" || -s "$data/dev-credentials.json" ) && $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz") == 200 ]]; then
            node_port=$port
            return
        fi
        sleep 0.1
    done
    tail -20 "$work/$name.log" >&2
    exit 1
}

# run NODES: starts of the first node's application through NODES nodes; prints a table row.
run() {
    local nodes=$1 database="lock_waits_$1" ports=() port
    psql "$server" -qc "CREATE DATABASE $database" >/dev/null
    local url=${server%/postgres}/$database
    for index in $(seq "$nodes"); do
        start_node "node$nodes-$index" "$url" "$([[ $index == 1 ]] && echo first)"
        ports+=("$node_port")
    done
    local credentials="$work/node$nodes-1/dev-credentials.json" base="http://127.0.0.1:${ports[0]}"
    local admin tenant auth app
    admin=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["adminToken"])' "$credentials")
    tenant=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tenantId"])' "$credentials")
    auth=$(python3 -c 'import base64, json, sys; v = json.load(open(sys.argv[1]))["verification"]; print("Basic " + base64.b64encode((v["appKey"] + ":" + v["secret"]).encode()).decode())' "$credentials")
    app=$(curl -s -H "Authorization: Bearer $admin" "$base/admin/v1/tenants/$tenant/otp-applications" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["id"])')
    curl -s -o /dev/null -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
        -d '{"cooldownSeconds":0}' "$base/admin/v1/tenants/$tenant/otp-applications/$app"
    # Each wrk thread of each node counts in a lane of its own: no number repeats.
    local index=0 loads=()
    for port in "${ports[@]}"; do
        index=$((index + 1))
        cat >"$work/start-$nodes-$index.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "$auth"
local lanes = 0
function setup(thread)
    lanes = lanes + 1
    thread:set("lane", lanes + $index * 10)
end
function init(args)
    lane = tonumber(wrk.thread:get("lane"))
    sent = 0
end
function request()
    sent = sent + 1
    local body = string.format('{"data":{"destination":"+4474%08d","delivery_method":"sms"}}', lane * 1000000 + sent)
    return wrk.format(nil, nil, nil, body)
end
LUA
        wrk -t2 "-c$((connections / nodes))" "-d$duration" -s "$work/start-$nodes-$index.lua" "http://127.0.0.1:$port/api/v1/verifications" \
            >"$work/wrk-$nodes-$index.txt" &
        loads+=($!)
    done
    local samples="$work/samples-$nodes.txt"
    : >"$samples"
    sleep 1  # past the first connections
    while kill -0 "${loads[0]}" 2>/dev/null; do
        psql "$url" -Atc "SELECT count(*) FILTER (WHERE state = 'active'), count(*) FILTER (WHERE wait_event_type = 'Lock'),
            string_agg(CASE WHEN wait_event_type = 'Lock' THEN left(regexp_replace(query, '\s+', ' ', 'g'), 60) END, '|')
            FROM pg_stat_activity WHERE datname = '$database' AND backend_type = 'client backend' AND pid <> pg_backend_pid()" \
            >>"$samples" 2>/dev/null || true
        sleep 0.1
    done
    for load in "${loads[@]}"; do wait "$load" || true; done
    python3 - "$nodes" "$samples" "$work"/wrk-"$nodes"-*.txt <<'PY'
import collections, re, sys
nodes, samples, outputs = sys.argv[1], sys.argv[2], sys.argv[3:]
rate = 0.0
for path in outputs:
    match = re.search(r"Requests/sec:\s+([\d.]+)", open(path).read())
    rate += float(match.group(1)) if match else 0
active, waiting, queries, count = 0, 0, collections.Counter(), 0
for line in open(samples):
    parts = line.rstrip("\n").split("|")
    if len(parts) < 2 or not parts[0].isdigit():
        continue
    count += 1
    active += int(parts[0])
    waiting += int(parts[1])
    for query in parts[2:]:
        if query:
            queries[query] += 1
count = max(count, 1)
mean_active, mean_waiting = active / count, waiting / count
per_start = mean_waiting / rate * 1000 if rate else 0
top = "; ".join(f"{n}× {q}" for q, n in queries.most_common(2)) or "none"
print(f"| {nodes} | {rate:.0f} | {mean_active:.1f} | {mean_waiting:.2f} | {per_start:.3f} ms | {top} |")
PY
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pids=()
}

echo "| nodes | starts/s | active backends | waiting on a lock | lock wait per start | queries waiting (samples) |"
echo "|---:|---:|---:|---:|---:|---|"
run 1
run 2
