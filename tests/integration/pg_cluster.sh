#!/bin/sh
# pg_cluster.sh: a throwaway PostgreSQL cluster for the tests, in a
# temporary directory, reached only on 127.0.0.1 (trust authentication:
# nobody else can reach the port's address) and on a Unix socket inside
# the directory.  Run as a command:
#
#   pg_cluster.sh start [DIR]   make a cluster in DIR (default: a new
#                               temporary directory), start it on a free
#                               port, make the database gamejudge and print
#                               its URL, then DIR, one a line; a DIR made
#                               before is started again on its own port
#   pg_cluster.sh stop DIR      stop the server (its data stays: start again)
#   pg_cluster.sh crash DIR     stop it as a crash would: immediate shutdown,
#                               no checkpoint, recovery from the WAL at start
#   pg_cluster.sh destroy DIR   stop it if it runs and remove DIR
#   pg_cluster.sh url DIR       print the URL
#
# or sourced (`. tests/integration/pg_cluster.sh`), for the same as the
# functions pg_cluster_start [DIR] (which sets pg_dir and pg_url),
# pg_cluster_stop DIR [MODE] and pg_cluster_destroy DIR; the test that
# sources it sets the trap that destroys what it started.
#
# The server runs as the postgres user when this runs as root (initdb
# refuses root), else as the caller.  Its binaries are those of the highest
# /usr/lib/postgresql/*/bin, or of pg_config --bindir, or PATH's; PG_BINDIR
# names others.  PG_CLUSTER_OPTS adds server options ("-c fsync=off").
# The server's log is DIR/server.log.
set -u

# pg_cluster_bindir: print the folder of initdb and pg_ctl.
pg_cluster_bindir() {
    if [ -n "${PG_BINDIR:-}" ]; then
        echo "$PG_BINDIR"
        return
    fi
    best=""
    best_version=0
    for d in /usr/lib/postgresql/*/bin; do
        v=${d#/usr/lib/postgresql/}
        v=${v%/bin}
        case "$v" in '' | *[!0-9]*) continue ;; esac
        if [ -x "$d/initdb" ] && [ "$v" -gt "$best_version" ]; then
            best=$d
            best_version=$v
        fi
    done
    if [ -n "$best" ]; then
        echo "$best"
        return
    fi
    d=$(pg_config --bindir 2>/dev/null)
    if [ -n "$d" ] && [ -x "$d/initdb" ]; then
        echo "$d"
        return
    fi
    d=$(command -v initdb 2>/dev/null) && { dirname "$d"; return; }
    echo "pg_cluster: no PostgreSQL server found (install postgresql, or set PG_BINDIR)" >&2
    return 1
}

# pg_cluster_as DIR COMMAND...: run COMMAND from DIR as the server's user.
pg_cluster_as() {
    (
        cd "$1" || exit 1
        shift
        if [ "$(id -u)" = 0 ]; then
            runuser -u postgres -- "$@"
        else
            "$@"
        fi
    )
}

# pg_cluster_url DIR: print the URL of the cluster in DIR.
pg_cluster_url() {
    echo "postgresql://postgres@127.0.0.1:$(cat "$1/port")/gamejudge?sslmode=disable"
}

# pg_cluster_free_port: print a loopback port nothing listens on now.
pg_cluster_free_port() {
    while :; do
        p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 30000))
        if ! grep -qi ":$(printf '%04X' "$p") " /proc/net/tcp 2>/dev/null; then
            echo "$p"
            return
        fi
    done
}

# pg_cluster_start [DIR]: make (unless made) and start the cluster in DIR,
# or in a new temporary directory; sets pg_dir and pg_url.  A port taken
# in between by someone else is given up for another, three times.
pg_cluster_start() {
    bindir=$(pg_cluster_bindir) || return 1
    pg_dir=${1:-}
    if [ -z "$pg_dir" ]; then
        pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/gj-pg.XXXXXX") || return 1
    fi
    mkdir -p "$pg_dir" || return 1
    fresh=0
    if [ ! -f "$pg_dir/data/PG_VERSION" ]; then
        fresh=1
        [ "$(id -u)" = 0 ] && chown postgres: "$pg_dir"
        chmod 700 "$pg_dir"
        # No fsync while the files are made: a crash of initdb leaves a
        # test failed, not data lost.
        pg_cluster_as "$pg_dir" "$bindir/initdb" -D "$pg_dir/data" -U postgres -A trust \
            -E UTF8 --locale=C --no-sync >"$pg_dir/initdb.log" 2>&1 || {
            cat "$pg_dir/initdb.log" >&2
            return 1
        }
    fi
    tries=0
    while :; do
        # A cluster started again keeps its port (its URL) if it can.
        if [ "$tries" -gt 0 ] || [ ! -f "$pg_dir/port" ]; then
            pg_cluster_free_port >"$pg_dir/port"
        fi
        [ "$(id -u)" = 0 ] && chown postgres: "$pg_dir/port"
        # -k: the socket in the directory, not /var/run/postgresql.
        if pg_cluster_as "$pg_dir" "$bindir/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" \
            -o "-k $pg_dir -c listen_addresses=127.0.0.1 -p $(cat "$pg_dir/port") ${PG_CLUSTER_OPTS:-}" \
            -w -t 60 start >/dev/null; then
            break
        fi
        tries=$((tries + 1))
        if [ "$tries" -ge 3 ]; then
            echo "pg_cluster: the server in $pg_dir did not start; its log:" >&2
            tail -n 20 "$pg_dir/server.log" >&2
            return 1
        fi
    done
    if [ "$fresh" = 1 ]; then
        pg_cluster_as "$pg_dir" "$bindir/createdb" -h "$pg_dir" -p "$(cat "$pg_dir/port")" \
            -U postgres gamejudge || return 1
    fi
    pg_url=$(pg_cluster_url "$pg_dir")
}

# pg_cluster_stop DIR [MODE]: stop the server of DIR (MODE fast, the
# default: clients cut off, a checkpoint; immediate: as a crash), waiting
# until it is gone; nothing to do when it does not run.  pg_ctl signals the
# PID of DIR/data/postmaster.pid; if pg_ctl cannot, that PID is sent
# SIGQUIT (immediate shutdown) here.
pg_cluster_stop() {
    pidfile="$1/data/postmaster.pid"
    [ -f "$pidfile" ] || return 0
    bindir=$(pg_cluster_bindir) || return 1
    pg_cluster_as "$1" "$bindir/pg_ctl" -D "$1/data" -m "${2:-fast}" -w -t 60 stop >/dev/null 2>&1 &&
        return 0
    pid=$(head -n 1 "$pidfile" 2>/dev/null)
    case "$pid" in '' | *[!0-9]*) return 0 ;; esac
    kill -QUIT "$pid" 2>/dev/null || return 0
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    echo "pg_cluster: the server $pid of $1 did not stop" >&2
    return 1
}

# pg_cluster_destroy DIR: stop the server of DIR and remove DIR.
pg_cluster_destroy() {
    [ -n "${1:-}" ] && [ -d "$1" ] || return 0
    pg_cluster_stop "$1"
    rm -rf "$1"
}

if [ "${0##*/}" = pg_cluster.sh ]; then
    case "${1:-}" in
    start)
        pg_cluster_start "${2:-}" || exit 1
        echo "$pg_url"
        echo "$pg_dir"
        ;;
    stop) pg_cluster_stop "${2:?pg_cluster.sh stop DIR}" ;;
    crash) pg_cluster_stop "${2:?pg_cluster.sh crash DIR}" immediate ;;
    destroy) pg_cluster_destroy "${2:?pg_cluster.sh destroy DIR}" ;;
    url) pg_cluster_url "${2:?pg_cluster.sh url DIR}" ;;
    *)
        echo "usage: pg_cluster.sh start [DIR] | stop DIR | crash DIR | destroy DIR | url DIR" >&2
        exit 2
        ;;
    esac
fi
