#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite: fresh cluster in a temp dir, trust auth,
# loopback only, durability off. One per checkout; its whereabouts live in a state file.
# Usage: scripts/test-postgres.sh start|stop|url
# TEST_POSTGRES_OPTIONS adds server settings at start (bench.sh: pg_stat_statements).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
state_dir="$repo/.build/test-postgres"
state="$state_dir/state"

# Newest installed server first; libpq-dev's pg_config may point at client-only binaries.
find_bindir() {
    local dir
    for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V -r) "$(pg_config --bindir 2>/dev/null || true)"; do
        [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && { echo "$dir"; return; }
    done
    echo "no PostgreSQL server found (scripts/install-deps.sh test installs it)" >&2
    exit 1
}

# PostgreSQL refuses to run as root.
as_postgres() {
    if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Loads DIR, PORT and PID; fails when there is no state file.
load_state() {
    [[ -f "$state" ]] || return 1
    # shellcheck disable=SC1090
    source "$state"
}

# The pid must still be our postmaster: not reused by another process, nor a zombie
# (whose cmdline is empty) left by a killed run.
is_running() {
    [[ -n "${PID:-}" && -r "/proc/$PID/cmdline" ]] && tr '\0' ' ' <"/proc/$PID/cmdline" | grep -qF -- "$DIR/data"
}

stop() {
    load_state || return 0
    if is_running; then
        as_postgres "$(find_bindir)/pg_ctl" -D "$DIR/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
            kill -9 "$PID" 2>/dev/null || true
    fi
    # Only ever delete what this script created.
    if [[ "$DIR" == */gatehouse-pg.* ]]; then rm -rf "$DIR"; fi
    rm -f "$state"
}

start() {
    # A state file left by a killed run: clear out whatever it points at.
    stop
    local bindir dir port
    bindir=$(find_bindir)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-pg.XXXXXX")
    chown postgres: "$dir" 2>/dev/null || true
    # The postgres user must reach the dir; a private TMPDIR (e.g. under /root) would not do.
    if ! as_postgres test -w "$dir"; then
        rm -rf "$dir"
        dir=$(mktemp -d /tmp/gatehouse-pg.XXXXXX)
        chown postgres: "$dir" 2>/dev/null || true
    fi
    as_postgres "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
        cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1
    }
    # Tests run in parallel, each on a schema of its own with pools of its own: a full run was
    # seen holding 778 connections at once, so the limit leaves room above that (an idle
    # backend costs a few MB; a refused connection fails whichever test asked).
    # The port is picked before PostgreSQL binds it, so another process may win; retry.
    for _ in 1 2 3 4 5; do
        port=$(free_port)
        if as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=2000 ${TEST_POSTGRES_OPTIONS:-}" \
            start >/dev/null; then
            mkdir -p "$state_dir"
            printf 'DIR=%q\nPORT=%q\nPID=%q\n' "$dir" "$port" "$(head -1 "$dir/data/postmaster.pid")" >"$state"
            echo "test PostgreSQL on 127.0.0.1:$port ($dir)" >&2
            return
        fi
    done
    tail -20 "$dir/postgres.log" >&2 || true
    rm -rf "$dir"
    exit 1
}

url() {
    if ! load_state || ! is_running; then
        echo "test PostgreSQL is not running (scripts/test-postgres.sh start)" >&2
        exit 1
    fi
    # shellcheck disable=SC2153  # PORT comes from the state file
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    url) url ;;
    *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
