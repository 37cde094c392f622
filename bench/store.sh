#!/bin/bash
# store.sh - the puzzle store's figures (issue 32), `make bench-store` and
# the end of `make bench`:
#
#   bench/store.sh BIN TOOLDIR
#
# Prints a Markdown section for bench/results.md and writes it to the file
# store.md in TOOLDIR.  In order:
#  1. `puzzles fill` throughput per game (200 depth-1 puzzles each, 2 jobs),
#     then a pool of STORE_BENCH_POOL (default 100,000) nim-shortcuts
#     puzzles into the SQLite file the daemon then serves;
#  2. rated plays per second: store_record in process (TOOLDIR/store_bench)
#     on SQLite and on a throwaway PostgreSQL cluster
#     (tests/integration/pg_cluster.sh) with one and two store handles, and
#     through the daemon (wrk, bench/rated.lua) with one daemon on SQLite,
#     one and two on PostgreSQL; every run checks that the store counted
#     each play it acknowledged (the pool's counters, or the daemons'
#     gamejudge_store_plays_total);
#  3. the latency a rated /check adds over an unrated one, and GET /next,
#     through the daemon on the SQLite pool of step 1, one request at a time;
#  4. store_next in process over synthetic pools of STORE_BENCH_POOL
#     puzzles for every game, on SQLite and on PostgreSQL;
#  5. sqlite3's .backup against VACUUM INTO on the step 1 file while wrk
#     records plays.
# STORE_BENCH_SECONDS (default 5) is each throughput run's length.
set -u
BIN=$(realpath "$1")
DIR=$(realpath "$2")
SB=$DIR/store_bench
POOL=${STORE_BENCH_POOL:-100000}
SECS=${STORE_BENCH_SECONDS:-5}
OUT=$DIR/store.md
GAMES=$(scripts/games)
work=$(mktemp -d "${TMPDIR:-/tmp}/gj-store-bench.XXXXXX")
chmod 755 "$work"
pids=""
pg_dir=""
# Stop the daemons and the cluster started here, and remove the files.
cleanup() {
    for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    [ -n "$pg_dir" ] && pg_cluster_destroy "$pg_dir"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
. tests/integration/pg_cluster.sh

log() { echo "store-bench: $*" >&2; }
# field LINE NAME: the value after NAME in a "name value ..." line.
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<< "$1"; }
# verdict OK: "met" or "**missed**".
verdict() { if [ "$1" = 1 ]; then echo met; else echo "**missed**"; fi; }
# below A B: 1 when A < B.
below() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b) ? 1 : 0 }'; }

key="store-bench-key-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s 1000000000 1000000000\n' "$key" > "$work/keys"
# serve NAME URL: a daemon on the store URL, its base in base_NAME and its
# pid in pid_NAME; 2 workers, the quotas of the bench key far above the load.
serve() {
    "$BIN" serve --host 127.0.0.1 --port 0 --workers 2 --store "$2" --api-keys "$work/keys" \
        --log-format text > "$work/$1.out" 2> "$work/$1.err" &
    local p=$!
    pids="$pids $p"
    eval "pid_$1=$p"
    for _ in $(seq 400); do grep -qs '^listening on' "$work/$1.out" && break; sleep 0.05; done
    eval "base_$1=$(sed -n 's/^listening on //p' "$work/$1.out")"
    eval "[ -n \"\$base_$1\" ]" || { log "the daemon on $2 did not start: $(tail -n 1 "$work/$1.err")"; exit 1; }
}
# unserve NAME: stop it.
unserve() {
    eval "local p=\$pid_$1"
    kill -TERM "$p" 2>/dev/null
    wait "$p" 2>/dev/null
}
# rated_count BASE: the rated plays the daemon at BASE recorded.
rated_count() {
    curl -s "$1/metrics" | awk '/^gamejudge_store_plays_total[{]result="rated"[}]/ { print $2 + 0 }'
}
# wrk_rated BASE GAME IDS TAG OUTFILE: wrk's rated plays on BASE for SECS s.
wrk_rated() {
    wrk -t 2 -c 8 -d "${SECS}s" --latency -s bench/rated.lua "$1" -- "$2" "$key" "$4" "$3" > "$5" 2>&1
}
# wrk_figures FILE: "requests per_second p50_ms p99_ms bad" from a wrk report.
wrk_figures() {
    awk '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /requests in/ { n = $1 }
        /^Requests\/sec:/ { r = $2 }
        /^ +50%/ { p50 = ms($2) }
        /^ +99%/ { p99 = ms($2) }
        /^rated_bad/ { bad = $2 }
        END { printf "%d %.0f %.2f %.2f %d\n", n, r, p50, p99, bad }' "$1"
}

# counted_ok COUNTED ANSWERED BAD CONNECTIONS: "yes" when the daemons
# counted every play wrk saw answered, plus at most one in flight per
# connection when wrk stopped (answered after it stopped looking), and
# none was refused.
counted_ok() {
    if [ "$3" = 0 ] && [ "$1" -ge "$2" ] && [ "$1" -le $(($2 + $4)) ]; then echo yes
    else echo "NO ($1 counted, $2 answered, $3 refused)"; fi
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
log "load average $load; work in $work"

# ---- 1. puzzles fill ------------------------------------------------------------
fill_rows=""
for g in $GAMES; do
    t0=$(date +%s.%N)
    "$BIN" puzzles fill --store "sqlite:$work/fill.db" --game "$g" --count 200 --depth 1 --jobs 2 \
        2> "$work/fill-$g.err" || { log "fill $g failed: $(tail -n 1 "$work/fill-$g.err")"; exit 1; }
    s=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
    fill_rows="$fill_rows| $g | 200 | $s | $(awk -v s="$s" 'BEGIN { printf "%.0f", 200 / s }') |
"
    log "fill $g: 200 in $s s"
done
pool_db="$work/pool.db"
t0=$(date +%s.%N)
"$BIN" puzzles fill --store "sqlite:$pool_db" --game nim-shortcuts --count "$POOL" --depth 1 --jobs 2 \
    2> "$work/fill-pool.err" || { log "fill of the pool failed: $(tail -n 1 "$work/fill-pool.err")"; exit 1; }
s=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
fill_rows="$fill_rows| nim-shortcuts (the pool of table 3) | $POOL | $s | $(awk -v n="$POOL" -v s="$s" 'BEGIN { printf "%.0f", n / s }') |
"
pool_mb=$(du -m "$pool_db" | cut -f1)
log "pool: $POOL in $s s ($pool_mb MB)"
"$BIN" puzzles export --store "sqlite:$pool_db" --game nim-shortcuts 2> /dev/null |
    tail -n +2 | cut -d, -f1 | head -n 1000 > "$work/ids"

# ---- 2. rated plays per second ------------------------------------------------
plays_rows=""
# plays_row STORE HOW CLIENTS LINE: a row from a store_bench plays line.
plays_row() {
    local r
    r=$(field "$4" per_second)
    plays_rows="$plays_rows| $1 | $2 | $3 | $r | $(field "$4" p50_ms) | $(field "$4" p99_ms) | $(field "$4" counted) |
"
    log "plays $1 $2 $3: $r/s"
}
"$SB" pool "sqlite:$work/plays.db" matrix-game 1000 1 > /dev/null || exit 1
for t in 1 4; do
    line=$("$SB" plays "sqlite:$work/plays.db" "$t" "$SECS" matrix-game 1000) || { log "plays failed: $line"; exit 1; }
    plays_row SQLite "in process, store_record" "$t thread(s)" "$line"
    [ "$t" = 1 ] && sqlite_inproc=$(field "$line" per_second)
done

serve sqlite "sqlite:$pool_db"
before=$(rated_count "$base_sqlite")
wrk_rated "$base_sqlite" nim-shortcuts "$work/ids" "w$$-s" "$work/wrk-sqlite.txt"
read -r n rps p50 p99 bad < <(wrk_figures "$work/wrk-sqlite.txt")
counted=$(( $(rated_count "$base_sqlite") - before ))
sqlite_http=$rps
plays_rows="$plays_rows| SQLite | one daemon, HTTP (wrk) | 8 connections | $rps | $p50 | $p99 | $(counted_ok "$counted" "$n" "$bad" 8) |
"
log "plays SQLite HTTP: $rps/s"

# ---- 3. rated /check against unrated, /next, through the daemon -------------------
line=$("$SB" http "$base_sqlite" "$key" nim-shortcuts 2000 500) || { log "http failed"; exit 1; }
check_line=$(grep '^check' <<< "$line")
next_line=$(grep '^http_next' <<< "$line")
log "$check_line"
log "$next_line"

# ---- 5. backups of the pool while plays are recorded --------------------------
backup_rows=""
for how in dot vacuum; do
    rm -f "$work/backup.db"
    wrk_rated "$base_sqlite" nim-shortcuts "$work/ids" "w$$-b$how" "$work/wrk-backup.txt" &
    wpid=$!
    sleep 1
    t0=$(date +%s.%N)
    if [ "$how" = dot ]; then
        timeout $((SECS - 1)) sqlite3 "$pool_db" ".backup $work/backup.db"
        what="sqlite3 DB \".backup FILE\""
    else
        timeout $((SECS - 1)) sqlite3 "$pool_db" "VACUUM INTO '$work/backup.db'"
        what="sqlite3 DB \"VACUUM INTO 'FILE'\""
    fi
    rc=$?
    s=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
    wait "$wpid"
    read -r _ rps _ _ _ < <(wrk_figures "$work/wrk-backup.txt")
    if [ "$rc" = 0 ]; then done_in="$s s"; else done_in="not done after $s s (stopped)"; fi
    backup_rows="$backup_rows| \`$what\` | $pool_mb | $rps | $done_in |
"
    log "backup $how: $done_in"
done
unserve sqlite

# ---- PostgreSQL -----------------------------------------------------------------
pg_cluster_start > "$work/pg.log" 2>&1 || { log "no PostgreSQL cluster: $(tail -n 1 "$work/pg.log")"; exit 1; }
url=$pg_url
"$SB" pool "$url" matrix-game 1000 4 > /dev/null || exit 1
for handles in 1 2; do
    urls=$url
    [ "$handles" = 2 ] && urls="$url,$url"
    line=$("$SB" plays "$urls" 8 "$SECS" matrix-game 1000) || { log "plays failed: $line"; exit 1; }
    plays_row PostgreSQL "in process, $handles store handle(s)" "8 threads" "$line"
done
"$BIN" puzzles export --store "sqlite:$pool_db" --game nim-shortcuts 2> /dev/null | head -n 1001 |
    "$BIN" puzzles import --store "$url" 2> "$work/import.err" || { log "import: $(tail -n 1 "$work/import.err")"; exit 1; }
serve pg1 "$url"
serve pg2 "$url"
for replicas in 1 2; do
    b1=$(rated_count "$base_pg1") b2=$(rated_count "$base_pg2")
    wrk_rated "$base_pg1" nim-shortcuts "$work/ids" "w$$-p$replicas-1" "$work/wrk-pg1.txt" &
    w1=$!
    if [ "$replicas" = 2 ]; then
        wrk_rated "$base_pg2" nim-shortcuts "$work/ids" "w$$-p$replicas-2" "$work/wrk-pg2.txt"
    fi
    wait "$w1"
    read -r n rps p50 p99 bad < <(wrk_figures "$work/wrk-pg1.txt")
    if [ "$replicas" = 2 ]; then
        read -r n2 rps2 p50b p99b bad2 < <(wrk_figures "$work/wrk-pg2.txt")
        n=$((n + n2)) rps=$((rps + rps2)) bad=$((bad + bad2))
        p50="$p50, $p50b" p99="$p99, $p99b"
    fi
    counted=$(( $(rated_count "$base_pg1") - b1 + $(rated_count "$base_pg2") - b2 ))
    plays_rows="$plays_rows| PostgreSQL | $replicas daemon(s), HTTP (wrk) | $replicas x 8 connections | $rps | $p50 | $p99 | $(counted_ok "$counted" "$n" "$bad" $((8 * replicas))) |
"
    log "plays PostgreSQL HTTP x$replicas: $rps/s"
done
unserve pg1
unserve pg2

# ---- 4. store_next in process over synthetic pools ---------------------------------
next_rows=""
for engine in sqlite pg; do
    # Every game's pool on SQLite; on PostgreSQL, whose commits wait for the
    # disk, the one game asked (the others would only lengthen the run).
    if [ "$engine" = sqlite ]; then u="sqlite:$work/synth.db" threads=1 name=SQLite pools=$GAMES
    else u=$url threads=8 name=PostgreSQL pools=matrix-game; fi
    t0=$(date +%s.%N)
    for g in $pools; do "$SB" pool "$u" "$g" "$POOL" "$threads" > /dev/null || exit 1; done
    s=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.0f", $1 - $2 }')
    log "synthetic pools on $name: $s s"
    line=$("$SB" next "$u" matrix-game 5000 500) || exit 1
    next_rows="$next_rows| $name | in process, store_next | $(field "$line" pool) (x $(wc -w <<< "$pools") game(s)) | 5000 / 500 | $(field "$line" p50_ms) | $(field "$line" p99_ms) | $(verdict "$(below "$(field "$line" p99_ms)" 2)") |
"
done
next_rows="$next_rows| SQLite | daemon, GET /next (HTTP) | $POOL nim-shortcuts | 2000 / 500 | $(field "$next_line" p50_ms) | $(field "$next_line" p99_ms) | $(verdict "$(below "$(field "$next_line" p99_ms)" 2)") |
| SQLite | daemon, GET /puzzle by id of the same puzzles (no walk, no mark) | $POOL nim-shortcuts | 2000 | $(field "$next_line" byid_p50_ms) | $(field "$next_line" byid_p99_ms) | (comparison) |
"

# ---- the section ----------------------------------------------------------------
inproc_verdict=$(verdict "$(awk -v a="$sqlite_inproc" 'BEGIN { print (a >= 2000) ? 1 : 0 }')")
http_verdict=$(verdict "$(awk -v a="$sqlite_http" 'BEGIN { print (a >= 2000) ? 1 : 0 }')")
added99=$(field "$check_line" added_p99_ms)
{
    echo "## 7. The puzzle store (issue 32)"
    echo
    echo "\`make bench-store\` (bench/store.sh, bench/store_bench.c, bench/rated.lua) on $(date -u '+%Y-%m-%d %H:%M') UTC,"
    echo "load average at start $load on the 2-core machine (shared with other sessions' builds and"
    echo "tests, so throughputs move by tens of percent between runs). SQLite files and the throwaway"
    echo "PostgreSQL $("$(pg_cluster_bindir)/postgres" --version | awk '{ print $3 }') cluster (fsync on, as shipped) are on the same virtual disk."
    echo "Targets: a rated play adds under 1 ms p99 on SQLite, \`next\` under 2 ms p99 with a pool of"
    echo "100,000 per game, at least 2,000 rated plays per second with SQLite."
    echo
    echo "Rated plays per second, each a first attempt by a new player (so each writes the play and"
    echo "both ratings). In process: \`store_bench plays\` over a pool of 1,000 puzzles, p50 and p99 of one"
    echo "\`store_record\`; through the daemon: wrk with bench/rated.lua (a reveal per request, 2 workers"
    echo "per daemon), p50 and p99 of the request. \"counted\": the puzzles' play counters (in process) or"
    echo "the daemons' \`gamejudge_store_plays_total{result=\"rated\"}\` grew by the plays wrk saw answered (and by"
    echo "at most one more per connection: requests still in flight when wrk stops are answered unseen)."
    echo
    echo "| store | how | clients | plays/s | p50 ms | p99 ms | counted |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    printf '%s' "$plays_rows"
    echo
    echo "Target 2,000 rated plays/s with SQLite: in process (one writer, as the daemon's writes queue)"
    echo "$sqlite_inproc/s, $inproc_verdict; through the daemon, wrk on the same 2 cores, $sqlite_http/s, $http_verdict."
    echo
    echo "The latency a rated \`POST /puzzle/{game}/{id}/check\` adds: 2,000 rounds of an unrated reveal"
    echo "and a rated one (a new player each) of the same puzzle, alternating on one keep-alive connection,"
    echo "after every puzzle was checked once (the result cache warm for both); the daemon on the SQLite"
    echo "pool of $POOL nim-shortcuts puzzles."
    echo
    echo "| unrated p50 ms | unrated p99 ms | rated p50 ms | rated p99 ms | added p50 ms | added p99 ms | target (added p99 < 1 ms) |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    echo "| $(field "$check_line" unrated_p50_ms) | $(field "$check_line" unrated_p99_ms) | $(field "$check_line" rated_p50_ms) | $(field "$check_line" rated_p99_ms) | $(field "$check_line" added_p50_ms) | $added99 | $(verdict "$(below "$added99" 1)") |"
    echo
    echo "\`next\`: a stored puzzle near the player's rating never served to them. In process: 5,000"
    echo "\`store_next\` calls for 500 players in turn (ratings 800 to 2,400) over synthetic pools of"
    echo "$POOL puzzles for each game (stored with \`store_put\`); through the daemon: 2,000 GET /next for"
    echo "500 players, one at a time, the answer rebuilt from the id as GET /puzzle by id answers; then"
    echo "GET /puzzle by id of each puzzle /next handed out, which rebuilds the same puzzles and reads"
    echo "their stats without the walk and the served mark."
    echo
    echo "| store | how | pool | calls / players | p50 ms | p99 ms | target (p99 < 2 ms) |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    printf '%s' "$next_rows"
    echo
    echo "\`gamejudge puzzles fill --depth 1 --jobs 2\` into a new SQLite file (the time is generating and"
    echo "checking the puzzles; storing them is a small part):"
    echo
    echo "| game | puzzles | seconds | puzzles/s |"
    echo "| --- | --- | --- | --- |"
    printf '%s' "$fill_rows"
    echo
    echo "Backups of the pool's file (docs/backups.md) while wrk records rated plays through the daemon"
    echo "(each given at most $((SECS - 1)) s):"
    echo
    echo "| command | MB | plays/s meanwhile | took |"
    echo "| --- | --- | --- | --- |"
    printf '%s' "$backup_rows"
} > "$OUT"
cat "$OUT"
log "wrote $OUT"
