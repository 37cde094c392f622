#!/bin/sh
# store_pg.sh - the puzzle store on a real PostgreSQL: a throwaway cluster
# (pg_cluster.sh: a temporary directory, 127.0.0.1 on a free port, stopped
# by its PID however this ends) for
#
#   test_store     the store's own unit test, run against PostgreSQL
#                  (GJ_TEST_STORE_URL) rather than SQLite;
#   test_store_pg  the engine, two replicas on one database (2 x 1,000
#                  rated plays of one puzzle counted once each, store_next
#                  never serving one player a puzzle twice), the schema
#                  refusal, and the server crashed mid-storm and started
#                  again under the same open store (GJ_TEST_PG_DIR).
#
# Backups (pg_dump and pg_restore while a daemon serves) are tested with
# the backup documentation, not here.
#
# Run from anywhere; BUILD names the build folder (default build) whose
# tests/test_store and tests/test_store_pg must be built.  PostgreSQL's
# server must be installed (make test-deps).  The cluster runs with
# fsync off unless PG_CLUSTER_OPTS says otherwise: every test here kills
# or stops processes, never the machine, and the page cache outlives them.
set -u
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
# shellcheck source=tests/integration/pg_cluster.sh
. tests/integration/pg_cluster.sh
PG_CLUSTER_OPTS=${PG_CLUSTER_OPTS:--c fsync=off}
fails=0
pg_dir=""
pg_url=""
trap 'pg_cluster_destroy "$pg_dir"' EXIT
trap 'exit 1' INT TERM HUP

# fail MESSAGE: count a failed check.
fail() {
    echo "store_pg: FAIL: $1"
    fails=$((fails + 1))
}

for t in test_store test_store_pg; do
    [ -x "$build/tests/$t" ] || { echo "store_pg: $build/tests/$t is not built"; exit 1; }
done
pg_cluster_bindir >/dev/null || exit 1
pg_cluster_start || { echo "store_pg: no cluster"; exit 1; }
echo "store_pg: PostgreSQL $(cat "$pg_dir/data/PG_VERSION") at $pg_url"

bindir=$(pg_cluster_bindir)
port=$(cat "$pg_dir/port")

# test_store drops its tables before each test: a database of its own.
"$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres gj_test_store || exit 1
GJ_TEST_STORE_URL="postgresql://postgres@127.0.0.1:$port/gj_test_store?sslmode=disable" \
    "$build/tests/test_store" || fail "test_store on PostgreSQL"
GJ_TEST_STORE_URL=$pg_url GJ_TEST_PG_DIR=$pg_dir GJ_TEST_PG_CLUSTER=tests/integration/pg_cluster.sh \
    "$build/tests/test_store_pg" || fail "test_store_pg"

if [ "$fails" -ne 0 ]; then
    echo "store_pg: $fails failed; the server's log ends:"
    tail -n 20 "$pg_dir/server.log"
    exit 1
fi
echo "store_pg: ok"
