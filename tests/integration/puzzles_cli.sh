#!/bin/sh
# puzzles_cli.sh BIN: `gamejudge puzzles fill|export|import` on throwaway
# SQLite stores.
#  - fill stores --count puzzles per band, each id once; a second run
#    stores nothing, a larger count resumes; one thread or two store the
#    same puzzles;
#  - a fill killed by SIGKILL resumes to exactly its count;
#  - export -> import into a second store -> export is byte-identical (with
#    CRLF line ends and a byte order mark too), and a second import skips
#    every row;
#  - a tampered CSV (a rating out of range, a changed position, themes or
#    depth, an unknown game, a bad id, wins above plays, a missing column, a
#    field too many, broken quoting) is refused naming its line and column,
#    exit status 2, the rows before it imported;
#  - usage errors exit 2, a store that cannot be opened 1;
#  - GET /puzzle/{game}/{id} of exported ids (a daemon with --store none)
#    answers the exported position, and GET /puzzle/{game}?seed=S&band=B
#    names the ids fill stored for those seeds.
set -u
bin=${GJ_BIN:-${1:-build/gamejudge}}
game=nim-shortcuts # fast to make; the tampering below knows its positions
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
passed=0
failed=0
check() { # check WHAT COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "puzzles: FAILED: $what"; fi
}
# status WANT COMMAND...: the command exits WANT (its stderr kept in $dir/err).
status() {
    want=$1
    shift
    "$@" > "$dir/out" 2> "$dir/err"
    got=$?
    [ "$got" -eq "$want" ] || { echo "  exit $got, expected $want: $(tail -n 2 "$dir/err")"; return 1; }
}
# said TEXT: the last command's stderr holds TEXT.
said() { grep -qF -- "$1" "$dir/err" || { echo "  stderr: $(tail -n 3 "$dir/err")"; return 1; }; }
# rows FILE: the data lines of a CSV export.
rows() { tail -n +2 "$1" | wc -l | tr -d ' '; }
# band_rows FILE BAND: how many of them are of BAND (the third field from the end).
band_rows() { tail -n +2 "$1" | awk -F, -v b="$2" '$(NF-2) == b' | wc -l | tr -d ' '; }

A="sqlite:$dir/a/pool.db"
B="sqlite:$dir/b/pool.db"

# ---- fill ----
for band in easy medium hard; do
    check "fill --band $band stores 30" status 0 "$bin" puzzles fill --game "$game" --count 30 \
        --band "$band" --jobs 2 --store "$A"
    check "fill --band $band says 30/30" said "30/30 stored"
done
"$bin" puzzles export --game "$game" --store "$A" > "$dir/a1.csv" 2> "$dir/err"
check "the pool holds 90" test "$(rows "$dir/a1.csv")" -eq 90
for band in easy medium hard; do
    check "30 of them $band" test "$(band_rows "$dir/a1.csv" "$band")" -eq 30
done
check "every id once" test -z "$(tail -n +2 "$dir/a1.csv" | cut -d, -f1 | sort | uniq -d)"
check "a second fill stores nothing" status 0 "$bin" puzzles fill --game "$game" --count 30 \
    --band easy --jobs 2 --store "$A"
check "it says so" said "30/30 stored: 0 new"
check "a larger count resumes" status 0 "$bin" puzzles fill --game "$game" --count 35 \
    --band easy --jobs 2 --store "$A"
check "five more" said "35/35 stored: 5 new, 30 stored already"
"$bin" puzzles export --game "$game" --store "$A" > "$dir/a.csv" 2> "$dir/err"
check "95 stored" test "$(rows "$dir/a.csv")" -eq 95
check "nothing stored twice" test -z "$(tail -n +2 "$dir/a.csv" | cut -d, -f1 | sort | uniq -d)"
check "the first 90 are still there" sh -c "tail -n +2 '$dir/a1.csv' | sort > '$dir/s1' && \
    tail -n +2 '$dir/a.csv' | sort | comm -23 '$dir/s1' - | grep -q . && exit 1 || exit 0"
# One thread stores what two stored: the seeds decide, never the timing.
check "fill --jobs 1" status 0 "$bin" puzzles fill --game "$game" --count 35 --band easy \
    --jobs 1 --store "sqlite:$dir/one/pool.db"
"$bin" puzzles export --store "sqlite:$dir/one/pool.db" > "$dir/one.csv" 2> /dev/null
awk -F, '$(NF-2) == "easy"' "$dir/a.csv" > "$dir/a-easy"
tail -n +2 "$dir/one.csv" > "$dir/one-easy"
check "--jobs 1 and 2 store the same puzzles" cmp -s "$dir/a-easy" "$dir/one-easy"

# ---- round trip ----
check "import into a second store" status 0 "$bin" puzzles import --store "$B" "$dir/a.csv"
check "import counts 95 new" said "95 rows, 95 new, 0 stored already"
"$bin" puzzles export --store "$B" > "$dir/b.csv" 2> /dev/null
check "export, import, export: byte-identical" cmp -s "$dir/a.csv" "$dir/b.csv"
check "a second import skips every row" status 0 "$bin" puzzles import --store "$B" < "$dir/a.csv"
check "and says so" said "95 rows, 0 new, 95 stored already"

# Ratings as plays leave them (any double in range, written with 17
# digits), plays and wins: they read back as the very same numbers, written
# shorter where fewer digits do, and a second round trip changes no byte.
awk -F, -v OFS=, 'BEGIN { srand(7) } NR > 1 {
    $(NF-8) = sprintf("%.17g", 400 + rand() * 3600); $(NF-7) = sprintf("%.17g", 30 + rand() * 470)
    $(NF-3) = sprintf("%.17g", 0.01 + rand() * 0.19); $(NF-6) = int(rand() * 1000)
    $(NF-4) = int(rand() * ($(NF-6) + 1)) } 1' "$dir/a.csv" > "$dir/played.csv"
check "import of played ratings" status 0 "$bin" puzzles import --store "sqlite:$dir/p1/pool.db" \
    "$dir/played.csv"
"$bin" puzzles export --store "sqlite:$dir/p1/pool.db" > "$dir/p1.csv" 2> /dev/null
check "every rating, deviation, volatility, play and win reads back the same" sh -c "
    paste -d'\n' '$dir/played.csv' '$dir/p1.csv' | awk -F, 'NR % 2 { for (k = 3; k <= 8; k++) v[k] = \$(NF-k); next }
        { for (k = 3; k <= 8; k++) if (v[k] + 0 != \$(NF-k) + 0) bad++ } END { exit bad > 0 || NR != 192 }'"
check "and as short as they may be (0.06, not 0.059999999999999998)" sh -c \
    "! grep -q '0\.05999999' '$dir/p1.csv' && grep -q ',0\.06,' '$dir/a.csv'"
"$bin" puzzles import --store "sqlite:$dir/p2/pool.db" "$dir/p1.csv" 2> /dev/null
"$bin" puzzles export --store "sqlite:$dir/p2/pool.db" > "$dir/p2.csv" 2> /dev/null
check "a second round trip of played ratings is byte-identical" cmp -s "$dir/p1.csv" "$dir/p2.csv"

# CRLF line ends and a byte order mark, as some editors save a CSV.
printf '\357\273\277' > "$dir/crlf.csv"
sed 's/$/\r/' "$dir/a.csv" >> "$dir/crlf.csv"
check "import of CRLF lines after a byte order mark" status 0 "$bin" puzzles import \
    --store "sqlite:$dir/crlf/pool.db" "$dir/crlf.csv"
"$bin" puzzles export --store "sqlite:$dir/crlf/pool.db" > "$dir/crlf.out" 2> /dev/null
check "reads the same puzzles" cmp -s "$dir/a.csv" "$dir/crlf.out"

# A fill killed at any point resumes: the second run ends with the count,
# each id once (whatever the first had stored when it died).
"$bin" puzzles fill --game "$game" --count 3000 --jobs 2 --store "sqlite:$dir/k/pool.db" \
    > /dev/null 2>&1 &
kpid=$!
sleep 0.3
kill -9 $kpid 2> /dev/null
wait $kpid 2> /dev/null
check "a fill after kill -9 completes" status 0 "$bin" puzzles fill --game "$game" --count 3000 \
    --jobs 2 --store "sqlite:$dir/k/pool.db"
check "it says 3000/3000" said "3000/3000 stored"
"$bin" puzzles export --store "sqlite:$dir/k/pool.db" > "$dir/k.csv" 2> /dev/null
check "3000 stored" test "$(rows "$dir/k.csv")" -eq 3000
check "none twice" test -z "$(tail -n +2 "$dir/k.csv" | cut -d, -f1 | sort | uniq -d)"

# ---- refused rows ----
# The header and three rows, the third (line 4) tampered by an awk program.
head -n 4 "$dir/a.csv" > "$dir/four.csv"
n=0
refused() { # refused WHAT AWK-PROGRAM EXPECTED-TEXT
    n=$((n + 1))
    awk -F, -v OFS=, "$2" "$dir/four.csv" > "$dir/bad$n.csv"
    check "$1 is refused" status 2 "$bin" puzzles import --store "sqlite:$dir/bad$n/pool.db" \
        "$dir/bad$n.csv"
    check "$1 is named: $3" said "$3"
    "$bin" puzzles export --store "sqlite:$dir/bad$n/pool.db" > "$dir/bad$n.out" 2> /dev/null
    check "$1: the two rows before it are imported" test "$(rows "$dir/bad$n.out")" -eq 2
}
refused "a rating out of range" 'NR == 4 { $(NF-8) = 9999 } 1' "line 4: Rating: expected a number from 400 to 4000"
refused "a deviation out of range" 'NR == 4 { $(NF-7) = 20 } 1' "line 4: RatingDeviation"
refused "a volatility out of range" 'NR == 4 { $(NF-3) = 0.5 } 1' "line 4: Volatility"
refused "wins above plays" 'NR == 4 { $(NF-4) = 1 } 1' "line 4: Wins"
refused "a rating that is no number" 'NR == 4 { $(NF-8) = "12x" } 1' "line 4: Rating"
refused "changed themes" 'NR == 4 { $(NF-5) = "trap only-move" } 1' "line 4: Themes: not the Themes"
refused "a changed depth" 'NR == 4 { $(NF-1) = $(NF-1) + 1 } 1' "line 4: Depth"
refused "a changed band" 'NR == 4 { $(NF-2) = ($(NF-2) == "hard" ? "easy" : "hard") } 1' "line 4: Band"
refused "a changed position" 'NR == 4 { sub(/""heaps"":\[/, "&9") } 1' "line 4: Position: not the Position"
refused "an unknown game" 'NR == 4 { $2 = "chess" } 1' "line 4: Game: unknown game 'chess'"
refused "a puzzle of another game" 'NR == 4 { $2 = "grid-walk" } 1' "line 4: PuzzleId"
refused "a bad id" 'NR == 4 { $1 = $1 "x" } 1' "line 4: PuzzleId: names no"
refused "a field too many" 'NR == 4 { $0 = $0 ",1" } 1' "line 4: 14 fields where the header has 13"
refused "a quote in a field not quoted" 'NR == 4 { $1 = $1 "\"" } 1' "line 4, column"
refused "a quoted field never closed" 'NR == 4 { $0 = $0 ",\"x" } 1' "line 4, column"
refused "text after a closing quote" 'NR == 4 { sub(/",/, "\"x,") } 1' "line 4, column"
awk -F, -v OFS=, 'NR == 1 { sub(/,Wins/, "") } 1' "$dir/four.csv" > "$dir/nowins.csv"
check "a missing column is refused" status 2 "$bin" puzzles import --store "sqlite:$dir/x/pool.db" \
    "$dir/nowins.csv"
check "and named" said "line 1: no column Wins"
check "an empty input is refused" status 2 "$bin" puzzles import --store "sqlite:$dir/x/pool.db" /dev/null
check "an input that is not there" status 2 "$bin" puzzles import --store "sqlite:$dir/x/pool.db" "$dir/nothing.csv"

# ---- usage and the store ----
check "no subcommand" status 2 "$bin" puzzles
check "unknown subcommand" status 2 "$bin" puzzles refill
check "fill without --count" status 2 "$bin" puzzles fill --game "$game" --store "$A"
check "fill of an unknown game" status 2 "$bin" puzzles fill --game chess --count 1 --store "$A"
check "it names the game" said "unknown game 'chess'"
check "fill of an unknown band" status 2 "$bin" puzzles fill --game "$game" --count 1 --band extreme --store "$A"
check "it names --band" said "--band"
check "fill of a depth the game never reaches" status 2 "$bin" puzzles fill --game prime-chocolate \
    --count 1 --depth 2 --store "sqlite:$dir/d2/pool.db"
check "it names depth" said "depth: 2 is deeper"
check "fill of every game at that depth" status 0 "$bin" puzzles fill --count 1 --depth 2 --jobs 2 \
    --store "sqlite:$dir/d2/pool.db"
check "skips that game, saying so" said "prime-chocolate: skipped: its puzzles are at most 1 deep"
"$bin" puzzles export --store "sqlite:$dir/d2/pool.db" > "$dir/d2.csv" 2> /dev/null
check "and fills the others" test "$(rows "$dir/d2.csv")" -eq 4
check "fill of a bad count" status 2 "$bin" puzzles fill --game "$game" --count ten --store "$A"
check "an unknown option" status 2 "$bin" puzzles export --colour --store "$A"
check "it names the option" said "unknown option '--colour'"
check "export of an unknown game" status 2 "$bin" puzzles export --game chess --store "$A"
check "--store none has no pool" status 2 "$bin" puzzles export --store none
check "a store of no known kind" status 2 "$bin" puzzles export --store mysql://x
check "a store that cannot be made" status 1 "$bin" puzzles fill --game "$game" --count 1 \
    --store "sqlite:/proc/gamejudge-none/pool.db"
check "GAMEJUDGE_STORE is read" sh -c "GAMEJUDGE_STORE='$A' '$bin' puzzles export --game '$game' 2>/dev/null | cmp -s - '$dir/a.csv'"
check "puzzles --help" sh -c "'$bin' puzzles --help | grep -q 'PuzzleId,Game,Position,Moves,Rating'"

# ---- the ids are GET /puzzle's ----
"$bin" serve --host 127.0.0.1 --port 0 --store none > "$dir/serve.out" 2> "$dir/serve.err" &
pid=$!
for _ in $(seq 100); do
    grep -q listening "$dir/serve.out" 2>/dev/null && break
    sleep 0.05
done
base=$(sed -n 's/^listening on //p' "$dir/serve.out")
check "the daemon starts with --store none" test -n "$base"
# Every fifth row: GET its id; the answer's position, written as export
# writes a field, begins the row after its id and game.
tail -n +2 "$dir/a.csv" | awk 'NR % 5 == 1' | while IFS= read -r row; do
    id=${row%%,*}
    answer=$(curl -s "$base/puzzle/$game/$id")
    position=$(printf '%s' "$answer" | sed -n 's/.*"position":\(.*\),"to_move":.*/\1/p')
    field=$(printf '%s' "$position" | sed 's/"/""/g')
    case $row in
    "$id,$game,\"$field\","*) echo ok ;;
    *) echo "  $id: GET answered $answer" ;;
    esac
done > "$dir/get"
check "GET /puzzle/$game/{id} answers each exported position" \
    test "$(grep -c '^ok$' "$dir/get")" -eq 19
# The seeds' puzzles: GET /puzzle/{game}?seed=S&band=easy for the first
# seeds names ids the easy fill stored.
for seed in 1 2 3 4 5 6 7 8; do
    id=$(curl -s "$base/puzzle/$game?seed=$seed&band=easy" | sed -n 's/^{"game":"[a-z-]*","id":"\([^"]*\)".*/\1/p')
    grep -q "^$id,$game,.*,easy,[0-9]*,[0-9.]*\$" "$dir/a.csv" && echo "$seed"
done > "$dir/seeds"
check "GET /puzzle/$game?seed=S&band=easy names ids fill stored" test "$(wc -l < "$dir/seeds")" -eq 8
kill $pid
wait $pid 2>/dev/null
pid=

echo "puzzles: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
