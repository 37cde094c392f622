#!/bin/sh
# store_backup.sh: the backups docs/backups.md describes, each restored once.
#
# SQLite: a store filled (`gamejudge puzzles fill`) and played on through a
# daemon (rated plays with an API key, by /next), then, with that daemon
# still serving:
#  - `sqlite3 DB ".backup FILE"`; the backup copied to a new file and a
#    second daemon started on it: it answers every played puzzle's /stats,
#    the players' /activity and `puzzles export` byte for byte as the first
#    does; one more play on the restored store, and the comparison must
#    then see a difference (so it can fail);
#  - under a write load (a client recording plays without pause),
#    `VACUUM INTO` and `.backup` again: each backup passes integrity_check,
#    holds every play acknowledged before it began and none made after it
#    ended, and its puzzles' play counters add up to its players' activity
#    (each play whole in it or not at all).
# PostgreSQL, when tests/integration/pg_cluster.sh can make a throwaway
# cluster: the same store on it, `pg_dump -Fc` while the daemon serves
# under the write load, `pg_restore` into a second database of the cluster,
# a daemon on that one, and the same comparisons (the restored store as it
# was when the dump began: every play acknowledged before, none after).
#
# Loopback only; every daemon and cluster started here is stopped on exit.
set -u
bin=${GJ_BIN:-build/gamejudge}
work=$(mktemp -d)
chmod 755 "$work"
pids=""
pg_dir=""
# Stop every daemon and load started here, the cluster, and remove $work.
cleanup() {
    for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    [ -n "$pg_dir" ] && pg_cluster_destroy "$pg_dir"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
# check WHAT yes|no
check() {
    if [ "$2" = yes ]; then passed=$((passed + 1)); echo "backup: ok   $1"
    else failed=$((failed + 1)); echo "backup: FAILED: $1"; fi
}
yes_if() { if "$@"; then echo yes; else echo no; fi; }

command -v sqlite3 >/dev/null || { echo "backup: sqlite3 is not installed (make test-deps)"; exit 1; }

key="gj-backup-test-key-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s 1000000 100000000\n' "$key" > "$work/keys"
games="nim-shortcuts matrix-game"

# start NAME URL: a daemon on store URL; its base URL in base_NAME.
start() {
    "$bin" serve --host 127.0.0.1 --port 0 --workers 2 --store "$2" --api-keys "$work/keys" \
        > "$work/$1.out" 2> "$work/$1.err" &
    pids="$pids $!"
    eval "pid_$1=$!"
    for _ in $(seq 200); do grep -qs '^listening on' "$work/$1.out" && break; sleep 0.05; done
    eval "base_$1=$(sed -n 's/^listening on //p' "$work/$1.out")"
    eval "[ -n \"\$base_$1\" ]" || { echo "backup: the daemon on $2 did not start:"; tail -n 3 "$work/$1.err"; exit 1; }
}
# stop NAME: SIGTERM the daemon NAME and wait for it.
stop() {
    eval "p=\$pid_$1"
    kill -TERM "$p" 2>/dev/null
    wait "$p" 2>/dev/null
}
# play BASE GAME PLAYER: PLAYER takes /next and reveals it (a rated loss),
# then PLAYER-w plays the revealed solution (a rated win); the puzzle's id
# is appended to $work/played, and each player whose play was acknowledged
# to the file $acks when it is set.  Fails on any answer not rated.
play() {
    id=$(curl -s --max-time 10 -H "X-Api-Key: $key" "$1/puzzle/$2/next?player=$3" |
        sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
    [ -n "$id" ] || return 1
    out=$(curl -s --max-time 10 -H "X-Api-Key: $key" -H 'Content-Type: application/json' \
        -d "{\"moves\":[],\"reveal\":true,\"player\":\"$3\"}" "$1/puzzle/$2/$id/check")
    case $out in *'"rated":true,"repeated":false'*) ;; *) return 1 ;; esac
    [ -z "$acks" ] || echo "$3" >> "$acks"
    # The solution of a depth-1 puzzle: [{"move":M}], M an object or an array.
    moves=$(printf '%s' "$out" | sed -n 's/.*"solution":\(\[.*\]\).*/\1/p' |
        sed -e 's/{"move":\({[^}]*}\)}/\1/g' -e 's/{"move":\(\[[^]]*\]\)}/\1/g')
    out=$(curl -s --max-time 10 -H "X-Api-Key: $key" -H 'Content-Type: application/json' \
        -d "{\"moves\":$moves,\"player\":\"$3-w\"}" "$1/puzzle/$2/$id/check")
    case $out in *'"solved":true'*'"rated":true,"repeated":false'*) ;; *) return 1 ;; esac
    [ -z "$acks" ] || echo "$3-w" >> "$acks"
    printf '%s %s\n' "$2" "$id" >> "$work/played"
}
# load BASE NAME: rated plays without pause, one at a time, by new players
# until $work/NAME.stop exists; a line (the player) in $work/NAME.acks per
# acknowledged play.
load() {
    i=0
    acks="$work/$2.acks"
    while [ ! -e "$work/$2.stop" ]; do
        i=$((i + 1))
        play "$1" nim-shortcuts "load-$2-$i" || true
    done
}
# snapshot BASE STORE OUT: what a store answers, in file OUT: its export,
# then each played puzzle's /stats and each fixed player's /activity
# through the daemon at BASE.
snapshot() {
    "$bin" puzzles export --store "$2" > "$3" 2> /dev/null || echo "export failed" >> "$3"
    sort -u "$work/played" | while read -r g id; do
        curl -s --max-time 10 "$1/puzzle/$g/$id/stats"
        echo
    done >> "$3"
    for p in $players; do
        curl -s --max-time 10 -H "X-Api-Key: $key" "$1/players/$p/activity"
        curl -s --max-time 10 -H "X-Api-Key: $key" "$1/players/$p-w/activity"
    done >> "$3"
}
# plays_in STORE: the sum of the puzzles' play counters (NbPlays) of its
# export, each line split as RFC 4180 quotes it (no line breaks in fields).
plays_in() {
    "$bin" puzzles export --store "$1" 2> /dev/null | awk '
        function fields(line, f,   n, i, c, q, cur) {
            n = 0; cur = ""; q = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
                else if (c == "\"") q = !q
                else if (!q && c == ",") { f[++n] = cur; cur = "" }
                else cur = cur c
            }
            f[++n] = cur
            return n
        }
        { n = fields($0, f) }
        NR == 1 { for (i = 1; i <= n; i++) if (f[i] == "NbPlays") col = i; next }
        { s += f[col] }
        END { print (col ? s + 0 : -1) }'
}
# activity_in BASE PLAYERS_FILE: the rated plays the players of the file
# have in their /activity, through the daemon at BASE.
activity_in() {
    n=0
    while read -r p; do
        k=$(curl -s --max-time 10 -H "X-Api-Key: $key" "$1/players/$p/activity?max=1000" | grep -c '^{')
        n=$((n + k))
    done < "$2"
    echo "$n"
}
# under_load BASE NAME COMMAND...: run COMMAND while a load plays on BASE;
# sets acked_before (plays acknowledged when it began), acked_after (when it
# ended) and took (its seconds); the load is stopped after.
under_load() {
    b=$1 name=$2
    shift 2
    : > "$work/$name.acks"
    load "$b" "$name" &
    lpid=$!
    pids="$pids $lpid"
    for _ in $(seq 100); do [ "$(wc -l < "$work/$name.acks")" -ge 10 ] && break; sleep 0.05; done
    acked_before=$(wc -l < "$work/$name.acks")
    t0=$(date +%s.%N)
    "$@"
    took=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
    acked_after=$(wc -l < "$work/$name.acks")
    touch "$work/$name.stop"
    wait "$lpid"
}
# fill STORE: a few puzzles of each game.
fill() {
    for g in $games; do
        "$bin" puzzles fill --store "$1" --game "$g" --count 12 --depth 1 --jobs 2 2> "$work/fill.err" ||
            { echo "backup: puzzles fill failed:"; tail -n 3 "$work/fill.err"; exit 1; }
    done
}
# play_some BASE: six players on each game, two rounds: 48 rated plays.
play_some() {
    bad=0
    for _ in 1 2; do
        for g in $games; do
            for p in $players; do play "$1" "$g" "$p" || bad=$((bad + 1)); done
        done
    done
    check "48 rated plays on the store ($bad failed)" "$(yes_if test "$bad" -eq 0)"
}
# consistent NAME STORE BASE: the backup STORE (served at BASE) holds every
# play of the load acknowledged before it began, and no more than were
# acknowledged by its end plus the one in flight (the load plays one at a
# time); and its puzzles' play counters add up to the load players'
# activity in it (each play wholly there or not at all).
consistent() {
    in=$(plays_in "$2")
    mine=$((in - base_plays))
    act=$(activity_in "$3" "$work/$1.acks")
    check "$1: the backup holds the load's $acked_before plays acknowledged before it began and at most $((acked_after + 1)) ($mine; $took s under load)" \
        "$(yes_if test "$mine" -ge "$acked_before" -a "$mine" -le $((acked_after + 1)))"
    check "$1: its puzzles' play counters ($mine) equal its players' activity ($act)" \
        "$(yes_if test "$mine" -eq "$act")"
}

players="p1 p2 p3 p4 p5 p6"
acks=""
: > "$work/played"

# ---- SQLite -----------------------------------------------------------------
db="$work/live.db"
fill "sqlite:$db"
start live "sqlite:$db"
play_some "$base_live"
base_plays=$(plays_in "sqlite:$db")

t0=$(date +%s.%N)
sqlite3 "$db" ".backup $work/backup.db"
status=$?
took=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
check "sqlite3 .backup while the daemon serves ($took s)" "$(yes_if test $status -eq 0)"
cp "$work/backup.db" "$work/restored.db"
start restored "sqlite:$work/restored.db"
snapshot "$base_live" "sqlite:$db" "$work/live.snap"
snapshot "$base_restored" "sqlite:$work/restored.db" "$work/restored.snap"
lines=$(wc -l < "$work/live.snap")
check "the daemon on the restored file answers as the first: export, stats, activity ($lines lines)" \
    "$(yes_if cmp -s "$work/live.snap" "$work/restored.snap")"
play "$base_restored" nim-shortcuts p9 || true
snapshot "$base_restored" "sqlite:$work/restored.db" "$work/restored.snap"
check "one more play on the restored store is seen by the comparison" \
    "$(yes_if test -n "$(cmp "$work/live.snap" "$work/restored.snap" 2>&1)")"
stop restored

under_load "$base_live" vacuum sqlite3 "$db" "VACUUM INTO '$work/vacuum.db'"
check "VACUUM INTO under a write load: integrity_check ok" \
    "$(yes_if test "$(sqlite3 "$work/vacuum.db" 'PRAGMA integrity_check')" = ok)"
start vacuum "sqlite:$work/vacuum.db"
consistent vacuum "sqlite:$work/vacuum.db" "$base_vacuum"
stop vacuum
base_plays=$(plays_in "sqlite:$db")
under_load "$base_live" dotbackup timeout 120 sqlite3 "$db" ".backup $work/backup2.db"
check "sqlite3 .backup under a write load finishes ($took s)" "$(yes_if test -s "$work/backup2.db")"
if [ -s "$work/backup2.db" ]; then
    start backup2 "sqlite:$work/backup2.db"
    consistent dotbackup "sqlite:$work/backup2.db" "$base_backup2"
    stop backup2
fi
stop live

# ---- PostgreSQL ---------------------------------------------------------------
. "$(dirname "$0")/pg_cluster.sh"
if pg_cluster_start > "$work/pg.log" 2>&1; then
    pgbin=$(pg_cluster_bindir)
    : > "$work/played"
    url=$pg_url
    fill "$url"
    start pg "$url"
    play_some "$base_pg"
    # restore_to NAME DUMP: a new database NAME of the cluster from DUMP;
    # its URL in restored_url.
    restore_to() {
        restored_url=$(printf '%s' "$url" | sed "s|/gamejudge?|/$1?|")
        "$pgbin/psql" -q "$url" -c "CREATE DATABASE $1" > /dev/null &&
            "$pgbin/pg_restore" --no-owner --exit-on-error -d "$restored_url" "$2"
    }
    t0=$(date +%s.%N)
    "$pgbin/pg_dump" -Fc -f "$work/quiet.dump" "$url"
    status=$?
    took=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
    check "pg_dump while the daemon serves ($took s)" "$(yes_if test $status -eq 0)"
    restore_to gamejudge_restored "$work/quiet.dump"
    check "pg_restore into a second database of the cluster" "$(yes_if test $? -eq 0)"
    start pgrestored "$restored_url"
    snapshot "$base_pg" "$url" "$work/pg.snap"
    snapshot "$base_pgrestored" "$restored_url" "$work/pgrestored.snap"
    lines=$(wc -l < "$work/pg.snap")
    check "the daemon on the restored database answers as the first: export, stats, activity ($lines lines)" \
        "$(yes_if cmp -s "$work/pg.snap" "$work/pgrestored.snap")"
    stop pgrestored

    base_plays=$(plays_in "$url")
    under_load "$base_pg" pgdump "$pgbin/pg_dump" -Fc -f "$work/load.dump" "$url"
    check "pg_dump under a write load ($took s)" "$(yes_if test -s "$work/load.dump")"
    restore_to gamejudge_load "$work/load.dump"
    check "pg_restore of that dump" "$(yes_if test $? -eq 0)"
    start pgload "$restored_url"
    consistent pgdump "$restored_url" "$base_pgload"
    stop pgload
    stop pg
else
    echo "backup: no PostgreSQL cluster here ($(tail -n 1 "$work/pg.log")); its part skipped"
fi

echo "backup: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
