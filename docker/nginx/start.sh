#!/bin/sh
# gamejudge-edge: run nginx with docker/nginx.conf (mounted at
# /etc/gamejudge/nginx.conf), its lines marked "substituted by the test"
# filled in the way tests/integration/nginx_edge.sh fills them:
#
#   GJ_EDGE       the address nginx listens on (default 127.0.0.1:8080)
#   GJ_UPSTREAMS  the replicas, space-separated host:port (required)
#
# Each upstream keeps the options of the file's `server gamejudge:8080` line.
set -eu
conf=${GJ_EDGE_CONF:-/etc/gamejudge/nginx.conf}
: "${GJ_UPSTREAMS:?set GJ_UPSTREAMS: the replicas as host:port, space-separated}"
servers=""
for u in $GJ_UPSTREAMS; do servers="$servers server $u \\1;"; done
sed -e "s|server gamejudge:8080 \(.*\);.*|$servers|" \
    -e "s|listen 80;.*|listen ${GJ_EDGE:-127.0.0.1:8080};|" \
    "$conf" > /etc/nginx/nginx.conf
grep -q "listen ${GJ_EDGE:-127.0.0.1:8080};" /etc/nginx/nginx.conf ||
    { echo "gamejudge-edge: no 'listen 80;' line in $conf" >&2; exit 1; }
exec nginx -g 'daemon off;'
