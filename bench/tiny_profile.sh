#!/bin/bash
# tiny_profile.sh - where a tiny request's instructions go (issue 34):
# callgrind on the daemon over a fixed window of wrk's requests, split by
# the daemon's own callbacks.
#
#   bench/tiny_profile.sh BIN [GAME]
#
# BIN serve --cache-bytes 0 runs under callgrind with instrumentation off
# while it starts; wrk (4 connections, keep-alive, bench/post.lua with
# GAME's sample, nim-shortcuts by default) warms it for 3 s, the counts are
# zeroed, and the next 6 s of requests are dumped.  The request count is
# the calls to http_on_completed in the dump.  Valgrind counts each byte of
# a `rep stosb` memset as one instruction, so libmicrohttpd's reset of its
# connection pool (16 KiB by default, 32 KiB in the bare server) is shown apart.
# Output: one line per share, thousands of instructions per request.
set -u
BIN=$(realpath "$1")
GAME=${2:-nim-shortcuts}
PORT=${TINY_PORT:-18391}
WORK=$(mktemp -d)
VG=
trap '[ -n "$VG" ] && kill "$VG" 2>/dev/null; rm -rf "$WORK"' EXIT

valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/cg.%p" \
    "$BIN" serve --port "$PORT" --cache-bytes 0 > /dev/null 2>&1 &
VG=$!
for _ in $(seq 300); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
    sleep 0.2
done
url=http://127.0.0.1:$PORT/solve/$GAME
callgrind_control -i on "$VG" > /dev/null 2>&1
BODY_FILE=bench/samples/$GAME.txt wrk -t1 -c4 -d3s -s bench/post.lua "$url" > /dev/null
callgrind_control -z "$VG" > /dev/null 2>&1
BODY_FILE=bench/samples/$GAME.txt wrk -t1 -c4 -d6s -s bench/post.lua "$url" > /dev/null
callgrind_control -d "$VG" > /dev/null 2>&1
kill "$VG"
wait "$VG" 2>/dev/null
VG=
dump=$(ls "$WORK"/cg.*.1)

callgrind_annotate --inclusive=yes --threshold=100 "$dump" > "$WORK/incl" 2> /dev/null
callgrind_annotate --tree=caller --threshold=100 "$dump" > "$WORK/tree" 2> /dev/null
callgrind_annotate --tree=calling --threshold=100 "$dump" > "$WORK/calls" 2> /dev/null

# incl FUNCTION: FUNCTION's inclusive count in the dump, 0 when absent.
incl() {
    awk -v f="$1" '$0 ~ "[:/]" f " \\[" { gsub(",", "", $1); print $1; found = 1; exit }
        END { if (!found) print 0 }' "$WORK/incl"
}

n=$(grep -P '>\s+\S*[:/]http_on_completed \(' "$WORK/calls" | grep -oP '\([\d,]+x\)' |
    tr -d '(),x' | awk '{ s += $1 } END { print s + 0 }')
total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$WORK/incl")
# libmicrohttpd's memsets: the callers' lines above memset's own in the tree.
pool=$(awk '/^ *[0-9,]+ .*< / { blk = blk "\n" $0; next }
    /\*  .*memset-vec-unaligned-erms/ { n = split(blk, l, "\n")
        for (i = 1; i <= n; i++) if (l[i] ~ /libmicrohttpd/) { v = l[i]; sub(/^ */, "", v)
            split(v, w, " "); gsub(",", "", w[1]); s += w[1] } }
    { blk = "" } END { print s + 0 }' "$WORK/tree")
[ "$n" -gt 0 ] || { echo "tiny_profile: no request was counted" >&2; exit 1; }

awk -v n="$n" -v tot="$total" -v pool="$pool" -v uri="$(incl http_on_uri)" \
    -v req="$(incl http_on_request)" -v dn="$(incl http_on_completed)" \
    -v fc="$(incl first_call)" -v pj="$(incl prepare_job)" -v tri="$(incl jobs_triage)" \
    -v st="$(incl jobs_start)" -v sa="$(incl send_answer)" -v sp="$(incl solve_parse)" \
    -v spc="$(incl solve_parsed_cached)" -v hdr="$(incl MHD_add_response_header)" \
    -v la="$(incl log_access)" 'BEGIN {
    f = "%-56s %6.1f\n"
    printf "%d requests; thousands of instructions per request\n", n
    printf f, "all, less libmicrohttpd'"'"'s pool memset", (tot - pool) / n / 1000
    printf f, "libmicrohttpd'"'"'s pool memset", pool / n / 1000
    printf f, "libmicrohttpd outside our callbacks, less that memset", (tot - pool - uri - req - dn) / n / 1000
    printf f, "request block (http_on_uri)", uri / n / 1000
    printf f, "head checks, admission, body (first_call)", fc / n / 1000
    printf f, "job inputs, origin (prepare_job)", pj / n / 1000
    printf f, "game: parse (solve_parse)", sp / n / 1000
    printf f, "triage less the parse", (tri - sp) / n / 1000
    printf f, "game: solve, answer, ETag (solve_parsed_cached)", spc / n / 1000
    printf f, "job lifecycle less the solve (jobs_start)", (st - spc) / n / 1000
    printf f, "answer headers (MHD_add_response_header)", hdr / n / 1000
    printf f, "answer less its headers (send_answer)", (sa - hdr) / n / 1000
    printf f, "rest of http_on_request (routing, body, dispatch)", (req - fc - pj - tri - st - sa) / n / 1000
    printf f, "access line (log_access)", la / n / 1000
    printf f, "rest of the end (metrics, admission, free)", (dn - la) / n / 1000
}'
