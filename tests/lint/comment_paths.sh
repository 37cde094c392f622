#!/bin/sh
# comment_paths.sh - every file a comment names exists: the tree is clean
# by scripts/comment-paths.mjs (make lint), and a dead name injected into
# a copy of the tree is caught wherever it stands (a C comment, a bare file
# name, the Makefile, the documentation), naming the file, the line and the
# name, while the names that are not the tree's pass.
#
# Each injection is made in a copy of the tree, never in the tree.
set -eu
cd "$(dirname "$0")/../.."
check="node scripts/comment-paths.mjs --quiet"
fails=0

# fail MESSAGE: count a failed check.
fail() {
    echo "FAIL: $1"
    fails=$((fails + 1))
}

# The tree as it is: clean.
if ! $check 2>/dev/null; then
    fail "the tree's comments name files that do not exist: $($check 2>&1 | head -20)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# copy: a fresh copy of the tree (scripts/tree-files) in $tmp/tree, and what
# the check says of it before any injection in $tmp/base.
copy() {
    rm -rf "$tmp/tree"
    mkdir -p "$tmp/tree"
    scripts/tree-files | xargs -0 tar -cf - | tar -xf - -C "$tmp/tree"
    $check --root "$tmp/tree" 2>"$tmp/base" || true
}

# caught FILE NAME WHAT: the copy fails, naming FILE:LINE and NAME.
caught() {
    if $check --root "$tmp/tree" 2>"$tmp/out"; then
        fail "$3 passed"
    elif ! grep -q "$1:[0-9]*: names $2, which is no file" "$tmp/out"; then
        fail "$3 was refused without naming $1 and $2: $(cat "$tmp/out")"
    fi
}

# 1. A C comment names a header that is not there.
copy
printf '/* The lanes are pool.h'"'"'s; see server/runtime/lanes.h. */\n' >>"$tmp/tree/server/runtime/jobs.c"
caught server/runtime/jobs.c server/runtime/lanes.h "a dead path in a C comment"

# 2. A bare file name that no file of the tree has.
copy
printf '/* as judge_set.c does */\n' >>"$tmp/tree/server/endpoints/fanout.h"
caught server/endpoints/fanout.h judge_set.c "a dead bare name in a header"

# 3. A path with the folders wrong (the file is server/http/http_error.c).
copy
printf '# the statuses of server/http_error.c\n' >>"$tmp/tree/Makefile"
caught Makefile server/http_error.c "a path missing a folder, in the Makefile"

# 4. The documentation names a file that moved.
copy
printf '\nThe pipeline is `server/runtime/solve.c`.\n' >>"$tmp/tree/docs/ARCHITECTURE.md"
caught docs/ARCHITECTURE.md server/runtime/solve.c "a moved file in the documentation"

# 5. What is not a name of the tree passes: a name from the file's own
#    folder, a path from the root, a placeholder, a one-letter example, a
#    URL, an absolute path, a system header, and code rather than comment.
copy
cat >>"$tmp/tree/server/runtime/jobs.c" <<'EOT'
/* pool.h, ../http/http.h, solvers/kit/game.h, games/grid_walk/grid_walk.c,
 * <game>_core.h, x.c calling y.c, https://example.com/a/nowhere.c,
 * /etc/gamejudge/nowhere.h, microhttpd.h, sys/socket.h */
static const char *const not_a_comment = "nowhere.c";
EOT
$check --root "$tmp/tree" 2>"$tmp/out" || true
if ! cmp -s "$tmp/base" "$tmp/out"; then
    fail "names that are no dead file were refused: $(diff "$tmp/base" "$tmp/out")"
fi

if [ "$fails" -gt 0 ]; then
    echo "comment_paths: $fails check(s) failed"
    exit 1
fi
echo "comment_paths: every file a comment names exists; dead names in C, the Makefile and the docs are caught"
