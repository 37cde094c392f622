#!/bin/sh
# store_http_pg.sh - the store's routes over HTTP on a real PostgreSQL: a
# throwaway cluster (pg_cluster.sh: a temporary directory, 127.0.0.1 on a
# free port, destroyed however this ends) for itest_store_http's case "pg":
# two daemons sharing one database (2 x 1,000 rated plays of one puzzle
# through both, each counted once; the next puzzle asked of both at once
# never twice for one player), and the server stopped and started again
# under a serving daemon (503s, /readyz naming the store, solving going on,
# then plays recorded again without a restart).
#
# Run from anywhere; BUILD names the build folder (default build) whose
# gamejudge and tests/itest_store_http must be built.  PostgreSQL's server
# must be installed (make test-deps).
set -u
cd "$(dirname "$0")/../.." || exit 1
build=${BUILD:-build}
# shellcheck source=tests/integration/pg_cluster.sh
. tests/integration/pg_cluster.sh
PG_CLUSTER_OPTS=${PG_CLUSTER_OPTS:--c fsync=off}
pg_dir=""
pg_url=""
trap 'pg_cluster_destroy "$pg_dir"' EXIT
trap 'exit 1' INT TERM HUP

[ -x "$build/tests/itest_store_http" ] || { echo "store_http_pg: $build/tests/itest_store_http is not built"; exit 1; }
pg_cluster_bindir >/dev/null || exit 1
pg_cluster_start || { echo "store_http_pg: no cluster"; exit 1; }
echo "store_http_pg: PostgreSQL $(cat "$pg_dir/data/PG_VERSION") at $pg_url"
GJ_BIN=${GJ_BIN:-$build/gamejudge} GJ_TEST_STORE_URL=$pg_url GJ_TEST_PG_DIR=$pg_dir \
    GJ_TEST_PG_CLUSTER=tests/integration/pg_cluster.sh CK_RUN_CASE=pg \
    "$build/tests/itest_store_http" || {
    echo "store_http_pg: failed; the server's log ends:"
    tail -n 20 "$pg_dir/server.log"
    exit 1
}
echo "store_http_pg: ok"
