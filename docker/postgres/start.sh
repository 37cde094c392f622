#!/bin/sh
# gamejudge-postgres: start PostgreSQL for the gamejudge replicas, making
# the cluster first when the data directory ($PGDATA, a volume) is empty.
#
#   GJ_PG_PASSWORD  the `gamejudge` role's password (needed the first time;
#                   one line; later starts keep the one stored)
#   GJ_PG_ADDRESS   the address to listen on (default 127.0.0.1)
#   PGPORT          the port (default 5432), also the socket's in /tmp
#                   (PGHOST), which the client tools in the container use
#
# The role may log in over TCP from the loopback addresses only, with SCRAM
# (initdb's host rules): compose runs every service on the host's network.
set -eu
data=${PGDATA:?PGDATA names the data directory}

if [ ! -s "$data/PG_VERSION" ]; then
    : "${GJ_PG_PASSWORD:?set GJ_PG_PASSWORD: the gamejudge role's password}"
    echo "gamejudge-postgres: making the cluster in $data" >&2
    initdb --pgdata="$data" --username=postgres --auth-local=peer --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >&2
    # Single-user mode runs one statement a line, before anything listens;
    # the password goes in as a quoted literal, its quotes doubled.
    quoted=$(printf '%s' "$GJ_PG_PASSWORD" | sed "s/'/''/g")
    postgres --single -D "$data" postgres > /dev/null <<SQL
CREATE ROLE gamejudge LOGIN PASSWORD '$quoted';
CREATE DATABASE gamejudge OWNER gamejudge;
SQL
fi

exec postgres -D "$data" -c listen_addresses="${GJ_PG_ADDRESS:-127.0.0.1}" \
    -p "${PGPORT:-5432}" -c unix_socket_directories=/tmp
