#!/usr/bin/env bash
# Tests server/ci-postgres.sh: two clusters at once get their own port, folder and database,
# both sourced and eval'd forms stop the cluster and delete its folder when their shell exits,
# and an EXIT trap the caller had set still runs. Run from anywhere: bash server/ci-postgres-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "ci-postgres-test: FAIL: $*" >&2; exit 1; }
psql_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql"

# One user of the script: starts a cluster, records URL and folder, proves the database answers,
# and waits for the go signal (so that both runs overlap) before its shell exits.
user() { # $1: name, $2: "source" or "eval"
    local how="$2" out="$work/$1"
    bash -c '
        set -euo pipefail
        trap "echo prior-trap-ran > $0.prior" EXIT
        if [ "$1" = source ]; then source server/ci-postgres.sh; else eval "$(bash server/ci-postgres.sh)"; fi
        echo "$ALAMA_TEST_POSTGRES_URL $ALAMA_TEST_POSTGRES_DIR" > "$0.env"
        "$2" -X -q -t -A "$ALAMA_TEST_POSTGRES_URL" -c "SELECT 40 + 2" > "$0.answer"
        touch "$0.ready"
        while [ ! -f "$0.go" ]; do sleep 0.2; done
    ' "$out" "$how" "$psql_bin" 2>"$out.log"
}

user a source &
pid_a=$!
user b eval &
pid_b=$!
for n in a b; do
    for _ in $(seq 300); do [ -f "$work/$n.ready" ] && break; sleep 0.2; done
    [ -f "$work/$n.ready" ] || { cat "$work/$n.log" >&2; fail "run $n did not start"; }
done
read -r url_a dir_a < "$work/a.env"
read -r url_b dir_b < "$work/b.env"
[ "$url_a" != "$url_b" ] || fail "both runs got $url_a"
[ "$dir_a" != "$dir_b" ] || fail "both runs got $dir_a"
[ "$(cat "$work/a.answer")" = 42 ] && [ "$(cat "$work/b.answer")" = 42 ] || fail "a database did not answer"
[ -d "$dir_a" ] && [ -d "$dir_b" ] || fail "cluster folders missing while running"

touch "$work/a.go" "$work/b.go"
wait "$pid_a" || { cat "$work/a.log" >&2; fail "run a failed"; }
wait "$pid_b" || { cat "$work/b.log" >&2; fail "run b failed"; }

for n in a b; do
    [ "$(cat "$work/$n.prior" 2>/dev/null)" = prior-trap-ran ] || fail "run $n lost the caller's EXIT trap"
done
[ ! -e "$dir_a" ] && [ ! -e "$dir_b" ] || fail "a cluster folder is left behind"
for url in "$url_a" "$url_b"; do
    port="${url##*:}"; port="${port%%/*}"
    if "$(dirname "$psql_bin")/pg_isready" -q -h 127.0.0.1 -p "$port"; then fail "PostgreSQL still answers on $port"; fi
done
echo "ci-postgres-test: ok (two clusters at once, both stopped and removed at exit)"
