#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1 for the alama-server tests and sets
#   ALAMA_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/alama_test
# Either source it (the variable is exported into your shell) or run it and eval its output:
#   source server/ci-postgres.sh && cargo test -p alama-server
#   eval "$(bash server/ci-postgres.sh)" && cargo test -p alama-server
# Standard output is only the line `export ALAMA_TEST_POSTGRES_URL=…`; progress goes to stderr.
# On a fresh Debian machine it installs Debian's `postgresql` first (apt-get, as root).
# The cluster lives in a temporary folder, listens on loopback only, trusts local connections
# and runs with fsync off: it is for tests, never for data. Each call recreates the database.
# Stop it with `bash server/ci-postgres.sh stop`.
# Settings: ALAMA_PG_PORT (default 55432), ALAMA_PG_DIR (default /tmp/alama-pg-$PORT).

_alama_ci_postgres() {
    local port="${ALAMA_PG_PORT:-55432}"
    local dir="${ALAMA_PG_DIR:-/tmp/alama-pg-$port}"
    local db=alama_test bin url
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
        _as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >&2
        return 0
    fi

    if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
        _log "starting PostgreSQL on 127.0.0.1:$port in $dir"
        rm -rf "$dir" && mkdir -p "$dir" || return 1
        if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir" || return 1; fi
        _as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null ||
            return 1
        _as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
            start >&2 || return 1
    fi

    local psql=("$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres)
    "${psql[@]}" -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >&2 || return 1
    "${psql[@]}" -c "CREATE DATABASE $db" >&2 || return 1

    url="postgres://postgres@127.0.0.1:$port/$db"
    _log "ready: $url"
    export ALAMA_TEST_POSTGRES_URL="$url"
    echo "export ALAMA_TEST_POSTGRES_URL=$url"
}

_alama_ci_postgres "$@"
_alama_ci_postgres_status=$?
unset -f _alama_ci_postgres _log _pg_bin _as_owner
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    exit "$_alama_ci_postgres_status"
fi
return "$_alama_ci_postgres_status"
