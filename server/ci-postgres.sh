#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1 for the alama-server tests and sets
#   ALAMA_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/alama_test
#   ALAMA_TEST_POSTGRES_DIR=/tmp/alama-pg.XXXXXX   (the cluster's folder)
# Either source it (the variables are exported into your shell) or run it and eval its output:
#   source server/ci-postgres.sh && cargo test -p alama-server
#   eval "$(bash server/ci-postgres.sh)" && cargo test -p alama-server
# Both ways the cluster is stopped and its folder deleted when that shell exits (an EXIT trap,
# added before any EXIT trap already set), so nothing stays running after the tests.
# Every call starts its own cluster on a free port in its own folder: two runs at once never
# share (or drop) each other's database. Stop one earlier with
#   bash server/ci-postgres.sh stop [DIR]        (default: $ALAMA_TEST_POSTGRES_DIR)
# Standard output is only the `export …`/`trap …` lines; progress goes to stderr.
# On a fresh Debian machine it installs Debian's `postgresql` first (apt-get, as root).
# The cluster listens on loopback only, trusts local connections and runs with fsync off: it
# is for tests, never for data. Settings: ALAMA_PG_PORT (a fixed port instead of a free one).

_alama_ci_postgres() {
    local script db=alama_test bin url dir port attempt
    script="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
    _log() { echo "ci-postgres: $*" >&2; }
    _pg_bin() {
        local d
        d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
        if [ -n "$d" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; else return 1; fi
    }
    # initdb and the server refuse to run as root: use the postgres user then.
    _as_owner() {
        if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
    }
    # A TCP port nobody listens on now (the kernel's choice), else one tried at random.
    _free_port() {
        local p
        if command -v python3 >/dev/null; then
            python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' &&
                return 0
        fi
        for _ in $(seq 50); do
            p=$((20000 + RANDOM % 40000))
            if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
        done
        return 1
    }
    # The EXIT trap of the calling shell: `$1` first, then whatever the trap already ran.
    _trap_line() {
        printf '_alama_pg_chain() { eval "set -- $(trap -p EXIT)"; trap -- "%s${3:+; $3}" EXIT; }; _alama_pg_chain; unset -f _alama_pg_chain\n' \
            "$1"
    }

    if ! bin="$(_pg_bin)"; then
        if [ "$(id -u)" -ne 0 ]; then
            _log "PostgreSQL is missing and this is not root: apt-get install postgresql first"
            return 1
        fi
        _log "installing postgresql with apt-get"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || return 1
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || return 1
        bin="$(_pg_bin)" || return 1
    fi

    if [ "${1:-}" = "stop" ]; then
        dir="${2:-${ALAMA_TEST_POSTGRES_DIR:-}}"
        # Only a folder this script made (it holds the marker file) is stopped and deleted.
        if [ -z "$dir" ] || [ ! -f "$dir/.alama-ci-postgres" ]; then
            _log "no cluster of ci-postgres.sh in '${dir}'"
            return 1
        fi
        if [ -f "$dir/data/postmaster.pid" ]; then
            _as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
        fi
        rm -rf "$dir"
        _log "stopped and removed $dir"
        return 0
    fi

    dir="$(mktemp -d "${TMPDIR:-/tmp}/alama-pg.XXXXXX")" || return 1
    touch "$dir/.alama-ci-postgres"
    chmod 755 "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir" || return 1; fi
    _as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null || {
        rm -rf "$dir"
        return 1
    }
    # The port is free when chosen; another program may take it before the server binds it,
    # so try a few.
    for attempt in 1 2 3 4 5; do
        port="${ALAMA_PG_PORT:-$(_free_port)}" || break
        _log "starting PostgreSQL on 127.0.0.1:$port in $dir"
        if _as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
            start >/dev/null; then
            break
        fi
        port=""
        [ -n "${ALAMA_PG_PORT:-}" ] && break
        _log "attempt $attempt failed (see $dir/server.log); trying another port"
    done
    if [ -z "${port:-}" ]; then
        _log "PostgreSQL did not start; log: $dir/server.log"
        return 1
    fi

    local psql=("$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres)
    "${psql[@]}" -c "CREATE DATABASE $db" >&2 || {
        bash "$script" stop "$dir"
        return 1
    }

    url="postgres://postgres@127.0.0.1:$port/$db"
    _log "ready: $url (stopped when the shell exits)"
    export ALAMA_TEST_POSTGRES_URL="$url"
    export ALAMA_TEST_POSTGRES_DIR="$dir"
    local stop="bash '$script' stop '$dir'"
    if [ "${BASH_SOURCE[0]}" = "$0" ]; then
        # Run, not sourced: the caller evals these lines.
        echo "export ALAMA_TEST_POSTGRES_URL=$url"
        echo "export ALAMA_TEST_POSTGRES_DIR=$dir"
        _trap_line "$stop"
    else
        eval "$(_trap_line "$stop")"
    fi
}

_alama_ci_postgres "$@"
_alama_ci_postgres_status=$?
unset -f _alama_ci_postgres _log _pg_bin _as_owner _free_port _trap_line
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    exit "$_alama_ci_postgres_status"
fi
return "$_alama_ci_postgres_status"
