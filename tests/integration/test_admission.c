/* test_admission.c - admission control against the real daemon: the memory
 * budget (many concurrent large bodies, announced and chunked: every answer
 * 200 or 503, the peak RSS under the budget plus a stated slack, every
 * charge released, the daemon answering afterwards) and the quotas by
 * worker time (a heavy client throttled while a light one is served, a
 * spoofed X-Forwarded-For ignored, a trusted proxy's X-Forwarded-For
 * naming the client, API keys with their own budgets, an unknown key 401,
 * a bad key file refused at start).  Distinct clients are distinct
 * loopback addresses (127.0.0.2, ...): the client binds its socket there.
 * No assertion depends on how fast a solve is beyond "a 1000 x 1000
 * matrix takes more than 5 ms of worker time". */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "client.h"
#include "daemon.h"

/* ---- inputs ---------------------------------------------------------- */

/* splitmix64: the fixed-seed source of the permutation. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A matrix-game position: n x n, a shuffled permutation of 1..n^2, k 1,
 * as judge text or (json) as its JSON body.  Malloc'd, its length in *len. */
static char *matrix_as(int n, uint64_t seed, int json, size_t *len)
{
    size_t cells = (size_t)n * (size_t)n;
    unsigned *v = malloc(cells * sizeof *v);
    char *s = malloc(cells * 9 + 4 * (size_t)n + 64);
    ck_assert(v != NULL && s != NULL);
    for (size_t i = 0; i < cells; i++)
        v[i] = (unsigned)i + 1;
    for (size_t i = cells - 1; i > 0; i--) {
        size_t j = (size_t)(next(&seed) % (i + 1));
        unsigned t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    size_t o;
    if (json) {
        o = (size_t)sprintf(s, "{\"k\": 1, \"matrix\": [");
        for (size_t i = 0; i < cells; i++) {
            const char *open = i % (size_t)n ? "" : i ? ",[" : "[";
            const char *close = (i + 1) % (size_t)n ? "," : "]";
            o += (size_t)sprintf(s + o, "%s%u%s", open, v[i], close);
        }
        o += (size_t)sprintf(s + o, "]}\n");
    } else {
        o = (size_t)sprintf(s, "%d 1\n", n);
        for (size_t i = 0; i < cells; i++)
            o += (size_t)sprintf(s + o, "%u%c", v[i], (i + 1) % (size_t)n ? ' ' : '\n');
    }
    free(v);
    *len = o;
    return s;
}

/* The judge text of matrix_as. */
static char *matrix(int n, uint64_t seed, size_t *len)
{
    return matrix_as(n, seed, 0, len);
}

/* The first public matrix-game case, with its answer from tests/data. */
static char *sample, *sample_out;
static size_t sample_len;

/* Load the sample once per test process. */
static void load_sample(void)
{
    if (sample == NULL) {
        sample = read_file_or_fail("tests/data/matrix-game/01.in", &sample_len);
        sample_out = read_file_or_fail("tests/data/matrix-game/01.out", NULL);
    }
}

/* ---- helpers ----------------------------------------------------------- */

/* POST body to /solve/matrix-game on d from address `from` with the extra headers. */
static http_reply post(const test_daemon *d, const char *from, const char *body, size_t len,
                       const char *const *headers)
{
    char url[128];
    snprintf(url, sizeof url, "%s/solve/matrix-game?format=text", d->direct);
    http_call c = {"POST", url, headers, body, len, 0};
    return from != NULL ? http_do_from(&c, from) : http_do(&c);
}

/* The sample solve from `from`: must be 200 with the right answer. */
static void expect_sample(const test_daemon *d, const char *from, const char *const *headers)
{
    http_reply r = post(d, from, sample, sample_len, headers);
    ck_assert_msg(r.status == 200, "sample from %s: %ld %s", from, r.status, r.body);
    ck_assert_str_eq(r.body, sample_out);
    http_reply_free(&r);
}

/* A field of /proc/<pid>/status in KiB (VmHWM: the peak resident set). */
static long proc_kib(pid_t pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    long kib = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            kib = strtol(line + n + 1, NULL, 10);
    fclose(f);
    return kib;
}

/* ---- the memory budget ------------------------------------------------- */

/* Wait until d's requests hold no charge (libmicrohttpd may end a request,
 * and release its charge, just after its client read the answer). */
static void wait_uncharged(const test_daemon *d)
{
    for (int i = 0; i < 3000 && daemon_metric(d, "gamejudge_memory_charged_bytes") != 0; i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    ck_assert_msg(daemon_metric(d, "gamejudge_memory_charged_bytes") == 0, "%.0f bytes charged",
                  daemon_metric(d, "gamejudge_memory_charged_bytes"));
}

#define BUDGET_MIB 48
/* What the process holds besides the requests' charges: the binary and
 * its libraries, libmicrohttpd's connection buffers, the threads' stacks
 * and malloc's slack (a daemon at rest is about 6 MiB). */
#define SLACK_MIB 32

/* The freed memory AddressSanitizer holds back under `make asan` (its
 * quarantine_size_mb), which the process keeps resident on top of what it
 * would hold; 0 on a build without it. */
static long asan_quarantine_mib(void)
{
    const char *o = getenv("ASAN_OPTIONS"), *q = o ? strstr(o, "quarantine_size_mb=") : NULL;
    return q ? strtol(q + strlen("quarantine_size_mb="), NULL, 10) : 0;
}

START_TEST(test_memory_budget_bounds_the_process)
{
    test_daemon d;
    const char *flags[] = {
        "--memory-budget", "48M", "--cache-bytes", "0", "--workers", "2", "--queue", "64", NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, 42, &len); /* about 6.9 MB: charged about 20.7 MB */
    http_reply alone = post(&d, NULL, big, len, NULL);
    ck_assert_int_eq(alone.status, 200);

    enum { ANNOUNCED = 12, CHUNKED = 6, N = ANNOUNCED + CHUNKED };
    char url[128];
    snprintf(url, sizeof url, "%s/solve/matrix-game?format=text", d.direct);
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = (http_call){"POST", url, NULL, big, len, i >= ANNOUNCED};
    http_do_parallel(calls, replies, N);
    int ok = 0, refused = 0;
    for (int i = 0; i < N; i++) {
        ck_assert_msg(replies[i].status == 200 || replies[i].status == 503,
                      "request %d (%s): %ld, curl %d", i, i >= ANNOUNCED ? "chunked" : "announced",
                      replies[i].status, replies[i].curl_error);
        if (replies[i].status == 200) {
            ck_assert_str_eq(replies[i].body, alone.body);
            ok++;
        } else {
            ck_assert_ptr_nonnull(strstr(replies[i].body, "\"code\":\"overloaded\""));
            ck_assert_ptr_nonnull(strstr(replies[i].body, "--memory-budget"));
            char *retry = http_header(&replies[i], "Retry-After");
            ck_assert_ptr_nonnull(retry);
            free(retry);
            refused++;
        }
        http_reply_free(&replies[i]);
    }

    long hwm = proc_kib(d.pid, "VmHWM");
    fprintf(stderr,
            "memory budget: %d answered, %d refused; peak RSS %ld KiB (budget %d MiB + "
            "slack %d MiB)\n",
            ok, refused, hwm, BUDGET_MIB, SLACK_MIB);
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(refused, 0); /* 18 x 20.7 MB cannot fit in 48 MiB */
    ck_assert_int_gt(hwm, 0);
    /* ThreadSanitizer maps shadow memory for every byte the daemon touches,
     * several times its size, so under `make tsan` the peak measures the
     * sanitizer; make check and make asan hold the bound. */
    if (getenv("TSAN_OPTIONS") == NULL)
        ck_assert_int_le(hwm, (BUDGET_MIB + SLACK_MIB + asan_quarantine_mib()) * 1024L);

    /* Every answer is back, but libmicrohttpd may end a request, and
     * release its charge, after its client has read the answer: wait until
     * no charge is held, so the body below is alone in the budget.  (A
     * refused request may still be counted in flight a while longer, its
     * connection lingering or closing; it holds no charge.) */
    for (int i = 0; i < 1200 && daemon_metric(&d, "gamejudge_memory_charged_bytes") != 0; i++)
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    ck_assert_msg(daemon_metric(&d, "gamejudge_memory_charged_bytes") == 0,
                  "%.0f bytes still charged, %.0f requests in flight",
                  daemon_metric(&d, "gamejudge_memory_charged_bytes"),
                  daemon_metric(&d, "gamejudge_requests_in_flight"));

    /* Alone, a chunked body is refused once it crosses the budget: as JSON
     * to prime-chocolate's /analyze (a tree: budget.h) it is charged 8x, 55 MB,
     * more than the whole 48 MiB, so 413 (no retry helps), without
     * Retry-After, answered as the body crosses. */
    const char *json[] = {"Content-Type: application/json", NULL};
    char tree[128];
    snprintf(tree, sizeof tree, "%s/analyze/prime-chocolate", d.direct);
    http_call streamed = {"POST", tree, json, big, len, 1};
    http_reply r = http_do(&streamed);
    ck_assert_msg(r.status == 413, "%ld %s", r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "more than the whole memory budget"));
    char *retry = http_header(&r, "Retry-After");
    ck_assert_ptr_null(retry);
    http_reply_free(&r);

    /* Every charge released exactly once: nothing held, nothing negative.
     * A request's charge goes when libmicrohttpd completes it, which with
     * several I/O threads may come just after its answer reached us. */
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 3000 && daemon_metric(&d, "gamejudge_memory_charged_bytes") != 0; i++)
        nanosleep(&tick, NULL);
    ck_assert(daemon_metric(&d, "gamejudge_memory_charged_bytes") == 0);
    ck_assert(daemon_metric(&d, "gamejudge_memory_refused_total") == refused + 1);
    ck_assert(daemon_metric(&d, "gamejudge_memory_budget_bytes") == 48.0 * 1024 * 1024);
    expect_sample(&d, NULL, NULL);
    http_reply again = post(&d, NULL, big, len, NULL); /* and a big one fits again */
    ck_assert_int_eq(again.status, 200);
    http_reply_free(&again);
    http_reply_free(&alone);
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* ---- quotas by cost ------------------------------------------------------ */

/* A heavy client's loop: the big matrix from 127.0.0.2 until refused. */
typedef struct heavy_run {
    const test_daemon *d;
    const char *body;
    size_t len;
    int answered, throttled;
    long first_status;
    char *policy, *ratelimit, *retry_after, *error;
} heavy_run;

/* The most heavy solves the heavy client sends before it must be throttled. */
#define HEAVY_TRIES 30

/* budget.c's fixed charge on top of a body's multiple. */
#define BUDGET_OVERHEAD_BYTES 8192

/* POST `len` bytes of `body` as JSON to d's `path` (announced, or chunked),
 * answered as judge text where it can be; the reply. */
static http_reply post_json(const test_daemon *d, const char *path, const char *body, size_t len,
                            int chunked)
{
    static const char *const json[] = {"Content-Type: application/json", NULL};
    char url[160];
    snprintf(url, sizeof url, "%s%s", d->direct, path);
    http_call c = {"POST", url, json, body, len, chunked};
    return http_do(&c);
}

/* A JSON /solve body of a game that reads it with no tree (matrix-game's
 * read_json) is charged 3x, as its text is: admitted up to exactly the
 * bound that gives, in a budget its old 8x charge could never fit, and
 * refused one byte past it; /analyze and /move still parse a tree and are
 * charged 8x.  The bound is hit exactly by padding the body with the
 * whitespace JSON allows after its value; the solve's own work (game.h's
 * work_bytes, charged beside the body) is learnt from the text's charge. */
START_TEST(test_json_bodies_charged_by_how_they_are_read)
{
    size_t text_len, json_len;
    char *text = matrix(600, 77, &text_len);
    char *json = matrix_as(600, 77, 1, &json_len);
    size_t budget = 5 * json_len; /* between 3x and 8x of the body */
    char flag[32];
    snprintf(flag, sizeof flag, "%zu", budget);
    test_daemon d;
    const char *flags[] = {"--memory-budget", flag, "--cache-bytes", "0", NULL};
    daemon_start(&d, flags);
    http_reply want = post(&d, NULL, text, text_len, NULL);
    ck_assert_int_eq(want.status, 200);
    wait_uncharged(&d);
    size_t held = (size_t)daemon_metric(&d, "gamejudge_memory_charged_peak_bytes");
    size_t work = held - (3 * text_len + BUDGET_OVERHEAD_BYTES);
    ck_assert_uint_lt(work, text_len); /* an n x n matrix's answer rows */

    size_t fit = (budget - BUDGET_OVERHEAD_BYTES - work) / 3; /* the largest body admitted */
    ck_assert_uint_gt(fit, json_len);
    ck_assert_uint_gt(8 * fit + BUDGET_OVERHEAD_BYTES, budget); /* 8x would refuse it */
    char *padded = malloc(fit + 2);
    ck_assert_ptr_nonnull(padded);
    memcpy(padded, json, json_len);
    memset(padded + json_len, ' ', fit + 1 - json_len);

    int refused = 0;
    for (int chunked = 0; chunked <= 1; chunked++) {
        /* At the bound: admitted, and the same answer as the text's. */
        http_reply r = post_json(&d, "/solve/matrix-game?format=text", padded, fit, chunked);
        ck_assert_msg(r.status == 200, "%zu bytes (%s) in a %zu-byte budget: %ld %s", fit,
                      chunked ? "chunked" : "announced", budget, r.status, r.body);
        ck_assert_str_eq(r.body, want.body);
        http_reply_free(&r);
        wait_uncharged(&d);
        /* One byte past it: more than the whole budget, 413. */
        r = post_json(&d, "/solve/matrix-game?format=text", padded, fit + 1, chunked);
        ck_assert_msg(r.status == 413, "%zu bytes (%s): %ld %s", fit + 1,
                      chunked ? "chunked" : "announced", r.status, r.body);
        ck_assert_ptr_nonnull(strstr(r.body, "more than the whole memory budget"));
        http_reply_free(&r);
        refused++;
        wait_uncharged(&d);
    }
    /* The body alone, where a tree is built (prime-chocolate's /analyze
     * reads into one): 8x, past the whole budget.  As matrix-game's /analyze
     * body the matrix goes into the game's arrays as it arrives
     * (analysis_read.h): 3x, admitted, chunked or not. */
    http_reply r = post_json(&d, "/analyze/prime-chocolate", json, json_len, 0);
    ck_assert_msg(r.status == 413, "a tree, %zu bytes: %ld %s", json_len, r.status, r.body);
    http_reply_free(&r);
    refused++;
    wait_uncharged(&d);
    char *analysis = malloc(json_len + 64);
    ck_assert_ptr_nonnull(analysis);
    memcpy(analysis, json, json_len);
    size_t end = json_len;
    while (end > 0 && analysis[end - 1] != '}')
        end--;
    ck_assert_uint_gt(end, 0);
    int tail = snprintf(analysis + end - 1, 64, ",\"after\":\"diff\",\"max_moves\":2}");
    size_t analysis_len = end - 1 + (size_t)tail;
    for (int chunked = 0; chunked <= 1; chunked++) {
        r = post_json(&d, "/analyze/matrix-game", analysis, analysis_len, chunked);
        ck_assert_msg(r.status == 200, "/analyze, %zu bytes (%s): %ld %s", analysis_len,
                      chunked ? "chunked" : "announced", r.status, r.body);
        ck_assert_ptr_nonnull(strstr(r.body, "\"moves_total\":360000,"));
        http_reply_free(&r);
        wait_uncharged(&d);
    }
    free(analysis);
    ck_assert(daemon_metric(&d, "gamejudge_memory_refused_total") == refused);

    long hwm = proc_kib(d.pid, "VmHWM");
    fprintf(stderr, "JSON budget: %zu-byte body admitted in a %zu-byte budget; peak RSS %ld KiB\n",
            fit, budget, hwm);
    if (getenv("TSAN_OPTIONS") == NULL)
        ck_assert_int_le(hwm, (long)(budget >> 10) + (SLACK_MIB + asan_quarantine_mib()) * 1024L);
    expect_sample(&d, NULL, NULL);
    http_reply_free(&want);
    ck_assert_int_eq(daemon_stop(&d), 0);
    free(padded);
    free(json);
    free(text);
}
END_TEST

/* An analysis body: '{', the members `head` (each followed by a comma),
 * the members `rest` (each followed by a comma), then "key": [[x, y], ...]
 * of `pairs` pairs, pair i from at(i, side, &x, &y), and '}'. */
static char *pairs_body(const char *head, const char *rest, const char *key, long pairs, long side,
                        void (*at)(long i, long side, long *x, long *y), size_t *len)
{
    gj_buf b;
    buf_init(&b);
    buf_putc(&b, '{');
    buf_puts(&b, head);
    buf_puts(&b, rest);
    buf_puts(&b, key);
    buf_puts(&b, ": [");
    for (long i = 0; i < pairs; i++) {
        long x, y;
        at(i, side, &x, &y);
        char v[48]; /* room for two longs, whatever the compiler can prove */
        snprintf(v, sizeof v, "%s[%ld,%ld]", i ? "," : "", x, y);
        buf_puts(&b, v);
    }
    buf_puts(&b, "]}");
    ck_assert(!b.failed);
    *len = b.len;
    return b.data;
}

/* Shortcut i of small_pairs: distinct, numbers of three digits at most. */
static void small_pair(long i, long side, long *x, long *y)
{
    (void)side;
    *x = 7 + i % 300;
    *y = 7 + i / 300;
}

/* An /analyze or /move body of nim-shortcuts with `pairs` distinct
 * shortcuts of small numbers, the members `head` first: about 25x its text
 * as a tree (test_json_pull measures such shapes), past the 8x the budget
 * charges JSON up front. */
static char *small_pairs(const char *head, long pairs, size_t *len)
{
    return pairs_body(head, "\"heaps\": [2, 5], ", "\"shortcuts\"", pairs, 0, small_pair, len);
}

/* Cell i of walked_grid's path: along the rows, every other one backwards. */
static void snake_cell(long i, long side, long *row, long *col)
{
    long r = i / side;
    *row = r + 1;
    *col = (r % 2 == 0 ? i % side : side - 1 - i % side) + 1;
}

/* An /analyze or /move body of grid-walk, the members `head` first: an
 * open side x side grid and a walk that snakes along its rows through its
 * first `cells` cells, a list of small pairs (more than 9x its text as a
 * tree).  As its "path" (as_moves 0) the walk is read into an array of
 * pairs (analysis_read.h); as its "moves" from the opening (as_moves 1)
 * it is built into the request's tree. */
static char *walked_grid(const char *head, long side, long cells, int as_moves, size_t *len)
{
    gj_buf grid;
    buf_init(&grid);
    buf_puts(&grid, "\"grid\": [");
    for (long r = 0; r < side; r++) {
        buf_puts(&grid, r > 0 ? ",\"" : "\"");
        for (long c = 0; c < side; c++)
            buf_putc(&grid, '.');
        buf_putc(&grid, '"');
    }
    buf_puts(&grid, as_moves ? "], \"path\": [], " : "], ");
    buf_putc(&grid, '\0');
    ck_assert(!grid.failed);
    char *body = pairs_body(head, grid.data, as_moves ? "\"moves\"" : "\"path\"", cells, side,
                            snake_cell, len);
    buf_free(&grid);
    return body;
}

/* POST body[len] to each of paths[n], announced then chunked, on d (a
 * 24 MiB budget, idle): each must be 413 saying `says` and naming
 * --memory-budget, read no further than its charge allows.  Returns how
 * much the process's peak grew meanwhile, checked (without sanitizers,
 * whose heaps are larger) to stay within the budget plus the body. */
static long refused_as_read(test_daemon *d, const char *const *paths, size_t n, const char *body,
                            size_t len, const char *says)
{
    ck_assert_uint_lt(8 * len + BUDGET_OVERHEAD_BYTES, 24u << 20);
    long idle = proc_kib(d->pid, "VmHWM");
    for (size_t k = 0; k < 2 * n; k++) {
        http_reply r = post_json(d, paths[k / 2], body, len, (int)(k % 2));
        ck_assert_msg(r.status == 413, "%s, %zu bytes (%s): %ld %s", paths[k / 2], len,
                      k % 2 ? "chunked" : "announced", r.status, r.body);
        ck_assert_msg(strstr(r.body, says) != NULL, "%s: %s", paths[k / 2], r.body);
        ck_assert_ptr_nonnull(strstr(r.body, "--memory-budget"));
        http_reply_free(&r);
        wait_uncharged(d);
    }
    long grew = (proc_kib(d->pid, "VmHWM") - idle) << 10;
    fprintf(stderr, "%s: %zu-byte body refused; the process grew by %ld\n", paths[0], len, grew);
    /* The tree alone would be 90 MB (test_grant: 34x); besides what is
     * charged, the reader's own buffers and libmicrohttpd's are not, nor
     * the heap's page slack. */
    if (getenv("TSAN_OPTIONS") == NULL && getenv("ASAN_OPTIONS") == NULL)
        ck_assert_int_lt(grew, (24L << 20) + (long)len);
    return grew;
}

/* POST body[len] to path on d, which is then stopped: its peak charge
 * must be more than the 8x a JSON body is charged up front (its tree was
 * charged what it holds), and its answer, a 200, byte for byte what an
 * unbounded daemon answers.  Returns that answer. */
static http_reply charged_as_held(test_daemon *d, const char *path, const char *body, size_t len)
{
    http_reply r = post_json(d, path, body, len, 0);
    wait_uncharged(d);
    double held = daemon_metric(d, "gamejudge_memory_charged_peak_bytes");
    ck_assert_int_eq(daemon_stop(d), 0);
    ck_assert_msg(held > 8.0 * (double)len + BUDGET_OVERHEAD_BYTES, "%zu-byte body charged %.0f",
                  len, held);
    test_daemon free_d;
    daemon_start(&free_d, NULL);
    http_reply want = post_json(&free_d, path, body, len, 0);
    ck_assert_int_eq(daemon_stop(&free_d), 0);
    ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
    ck_assert_str_eq(r.body, want.body);
    http_reply_free(&want);
    return r;
}

/* A JSON tree is charged what it holds as it is built (grant.h,
 * admission_hold), not only 8x its text: a 2.6 MB grid-walk body whose
 * "moves" of small pairs fit a 24 MiB budget at 8x but not as a tree is
 * refused 413 while it is read, announced or chunked, to /analyze and
 * /move, and the process never holds the tree (test_parsed_tree_charged
 * admits a tree the budget holds: no /analyze member but the bulk one is
 * that large once its limits are checked).  The bulk members whose trees would be as large or
 * larger (nim-shortcuts' shortcuts, 25x; grid-walk's path, 9x) build none (analysis_read.h: they go
 * into the game's arrays as they arrive): such bodies are admitted to both, and answered. */
START_TEST(test_tree_charged_as_built)
{
    test_daemon d;
    /* One I/O thread: each refused tree is freed into the malloc arena the
     * next one is built in, so the process's peak is one tree's. */
    const char *flags[] = {"--memory-budget",
                           "24M",
                           "--cache-bytes",
                           "0",
                           "--io-threads",
                           "1",
                           "--limit",
                           "nim-shortcuts.shortcuts=300000",
                           "--limit",
                           "grid-walk.rows=500",
                           "--limit",
                           "grid-walk.cols=500",
                           NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = walked_grid("", 500, 250000, 1, &len);
    const char *paths[] = {"/analyze/grid-walk", "/move/grid-walk"};
    /* Its tree's hold refuses it, or, chunked, the body's own growing
     * charge on top of what the tree holds: 413 either way. */
    refused_as_read(&d, paths, 2, big, len, "more than the whole memory budget");
    free(big);

    /* The afters as diffs: whole ones would be the body seven times.  The
     * engine's move at level 2 is the seed's.  The walk leaves a thousand
     * cells to play on. */
    const char *heads[] = {"\"after\": \"diff\", ",
                           "\"after\": \"diff\", \"level\": 2, \"seed\": 7, "};
    static const struct {
        const char *game, *says;
    } read[] = {{"nim-shortcuts", "\"moves_total\":7,"}, {"grid-walk", "\"moves_total\":"}};
    for (size_t g = 0; g < sizeof read / sizeof read[0]; g++) {
        long idle = proc_kib(d.pid, "VmHWM");
        for (int k = 0; k < 4; k++) {
            char *body = g == 0 ? small_pairs(heads[k / 2], 250000, &len)
                                : walked_grid(heads[k / 2], 500, 249000, 0, &len);
            char path[64];
            snprintf(path, sizeof path, "/%s/%s", k / 2 ? "move" : "analyze", read[g].game);
            http_reply r = post_json(&d, path, body, len, k % 2);
            ck_assert_msg(r.status == 200, "%s, %zu bytes (%s): %ld %s", path, len,
                          k % 2 ? "chunked" : "announced", r.status, r.body);
            ck_assert_ptr_nonnull(strstr(r.body, k / 2 ? "\"seed\":7," : read[g].says));
            http_reply_free(&r);
            free(body);
            wait_uncharged(&d);
        }
        long grew = (proc_kib(d.pid, "VmHWM") - idle) << 10;
        fprintf(stderr, "%s: %zu-byte bodies answered; the process grew by %ld\n", read[g].game,
                len, grew);
        /* Their trees would hold 9-25x the body; the position, what the
         * analysis derives, the canonical form (the cache key) and the
         * answer hold 4-5x (bench/results.md section 8), less here after
         * the refused trees above, whose memory they partly reuse. */
        if (getenv("TSAN_OPTIONS") == NULL && getenv("ASAN_OPTIONS") == NULL)
            ck_assert_int_lt(grew, 7L * (long)len);
    }
}
END_TEST

/* A body kept whole and parsed by its handler (/batch, /judge, /generate,
 * a puzzle's check) is charged its tree as jansson builds it (grant.h),
 * as /analyze's tree is while read: a 2.4 MB body of small pairs, whose
 * 8x fits a 24 MiB budget and whose tree does not, is refused 413 before
 * its tree is whole, and the process grows by less than the budget; a
 * /batch whose tree the budget holds is charged more than 8x and answered
 * as on an unbounded daemon. */
START_TEST(test_parsed_tree_charged)
{
    /* Each parses its body whole before it looks at a member. */
    const char *routes[] = {"/batch", "/judge/nim-shortcuts", "/generate/nim-shortcuts",
                            "/puzzle/nim-shortcuts/p1/check"};
    test_daemon d;
    /* One thread of each kind: a refused tree's memory is reused by the
     * next, so the process's peak is one request's. */
    const char *flags[] = {"--memory-budget",
                           "24M",
                           "--cache-bytes",
                           "0",
                           "--io-threads",
                           "1",
                           "--workers",
                           "1",
                           NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = small_pairs("", 250000, &len);
    refused_as_read(&d, routes, sizeof routes / sizeof routes[0], big, len,
                    "reading this body holds about");
    free(big);
    /* A batch of one position of 20,000 shortcuts: a tree the budget holds. */
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"items\": [{\"game\": \"nim-shortcuts\", \"position\": {\"shortcuts\": [");
    for (long i = 0; i < 20000; i++) {
        char v[32];
        snprintf(v, sizeof v, "%s[%ld,%ld]", i ? "," : "", 7 + i % 300, 7 + i / 300);
        buf_puts(&b, v);
    }
    buf_puts(&b, "], \"queries\": [[2, 5], [7, 7]]}}]}");
    ck_assert(!b.failed);
    http_reply r = charged_as_held(&d, "/batch", b.data, b.len);
    ck_assert_ptr_nonnull(strstr(r.body, "\"succeeded\":1"));
    http_reply_free(&r);
    buf_free(&b);
}
END_TEST

/* A staircase-chess board n x n of values below 100000 (judge text): it
 * holds C(2n, n) states while solved, whatever its body. */
static char *chess_board(int n, uint64_t seed, size_t *len)
{
    char *s = malloc(2 * (size_t)n * (size_t)n * 7 + 32);
    ck_assert_ptr_nonnull(s);
    size_t o = (size_t)sprintf(s, "%d %d\n", n, n);
    for (int i = 0; i < 2 * n * n; i++)
        o += (size_t)sprintf(s + o, "%u%c", (unsigned)(next(&seed) % 100000),
                             (i + 1) % n ? ' ' : '\n');
    *len = o;
    return s;
}

/* A grid-walk grid n x n, about one cell in twelve blocked (judge text):
 * its matching holds several times its body while solved. */
static char *walk_grid(int n, uint64_t seed, size_t *len)
{
    char *s = malloc((size_t)n * ((size_t)n + 1) + 32);
    ck_assert_ptr_nonnull(s);
    size_t o = (size_t)sprintf(s, "%d %d\n", n, n);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            s[o++] = next(&seed) % 12 == 0 ? '#' : '.';
        s[o++] = '\n';
    }
    *len = o;
    return s;
}

/* POST body to /ROUTE/GAME on a fresh daemon with --memory-budget
 * `budget` (and the raised limits), returning the reply; *held gets the
 * daemon's charged peak and *grew its VmHWM's growth over the request, in
 * bytes. */
static http_reply post_on_fresh(const char *route, const char *game, const char *body, size_t len,
                                const char *budget, double *held, long *grew)
{
    const char *flags[] = {"--memory-budget",
                           budget,
                           "--cache-bytes",
                           "0",
                           "--limit",
                           "grid-walk.rows=600,grid-walk.cols=600,staircase-chess.rows=12,"
                           "staircase-chess.cols=12,staircase-chess.size=24",
                           NULL};
    test_daemon d;
    daemon_start(&d, flags);
    char url[160];
    snprintf(url, sizeof url, "%s/%s/%s", d.direct, route, game);
    long idle = proc_kib(d.pid, "VmHWM");
    http_call c = {"POST", url, NULL, body, len, 0};
    http_reply r = http_do(&c);
    wait_uncharged(&d);
    *held = daemon_metric(&d, "gamejudge_memory_charged_peak_bytes");
    *grew = (proc_kib(d.pid, "VmHWM") - idle) * 1024;
    ck_assert_int_eq(daemon_stop(&d), 0);
    return r;
}

/* The budget's edges for body posted to /ROUTE/GAME, which a fresh daemon
 * with no bound charged `held` bytes at its peak and answered `free_run`
 * (freed here): a budget one byte short refuses it 413 saying `says` and
 * naming --memory-budget, one of exactly `held` answers byte for byte as
 * before. */
static void budget_edges(const char *route, const char *game, const char *body, size_t len,
                         double held, http_reply *free_run, const char *says)
{
    char budget[32];
    double unused;
    long grew;
    snprintf(budget, sizeof budget, "%.0f", held - 1);
    http_reply short_run = post_on_fresh(route, game, body, len, budget, &unused, &grew);
    ck_assert_msg(short_run.status == 413, "/%s/%s in %s bytes: %ld %s", route, game, budget,
                  short_run.status, short_run.body);
    ck_assert_ptr_nonnull(strstr(short_run.body, says));
    ck_assert_ptr_nonnull(strstr(short_run.body, "--memory-budget"));
    snprintf(budget, sizeof budget, "%.0f", held);
    http_reply exact_run = post_on_fresh(route, game, body, len, budget, &unused, &grew);
    ck_assert_msg(exact_run.status == 200, "/%s/%s in %s bytes: %ld %s", route, game, budget,
                  exact_run.status, exact_run.body);
    ck_assert_str_eq(exact_run.body, free_run->body);
    http_reply_free(free_run);
    http_reply_free(&short_run);
    http_reply_free(&exact_run);
}

/* A solve's own memory is charged once its position is parsed (game.h's
 * work_bytes), beside its body's: a staircase board holds C(2n, n) states
 * and a grid's matching many times its body, so the body's 3x alone would
 * let them pass the budget.  With no bound the charge covers what the
 * process grew by (less a fresh process's slack); a budget one byte short of it refuses the
 * position 413 after its body was admitted; a budget of exactly it answers as before. */
START_TEST(test_solve_work_charged)
{
    const char *games[] = {"staircase-chess", "grid-walk"};
    for (int g = 0; g < 2; g++) {
        size_t len;
        char *body = g == 0 ? chess_board(12, 901, &len) : walk_grid(600, 902, &len);
        double held;
        long grew;
        http_reply free_run = post_on_fresh("solve", games[g], body, len, "0", &held, &grew);
        ck_assert_msg(free_run.status == 200, "%s: %ld %s", games[g], free_run.status,
                      free_run.body);
        /* More than the body's own charge: the work is in it. */
        ck_assert_msg(held > 3.0 * (double)len + 2 * BUDGET_OVERHEAD_BYTES,
                      "%s: %zu-byte body, %.0f bytes charged", games[g], len, held);
        fprintf(stderr, "%s: %zu-byte body charged %.0f bytes; the process grew by %ld\n", games[g],
                len, held, grew);
        /* A fresh daemon's first solve also touches its threads' stacks and
         * malloc arenas: 1 MiB of slack, where the work alone is 10 MB or
         * more.  The sanitizers' shadow memory is not the daemon's. */
        if (getenv("TSAN_OPTIONS") == NULL && getenv("ASAN_OPTIONS") == NULL)
            ck_assert_msg((double)grew <= held + (1 << 20), "%s: grew by %ld, charged %.0f",
                          games[g], grew, held);
        budget_edges("solve", games[g], body, len, held, &free_run,
                     "solving this position holds about");
        free(body);
    }
}
END_TEST

/* An /analyze body of matrix-game: matrix_as's JSON position with the
 * token in a corner and `moves` moves asked. */
static char *analysis_body(int n, int moves, uint64_t seed, size_t *len)
{
    size_t plen;
    char *pos = matrix_as(n, seed, 1, &plen);
    char *s = malloc(plen + 64);
    ck_assert_ptr_nonnull(s);
    /* The position's members after the added ones: its '{' is dropped. */
    *len = (size_t)sprintf(s, "{\"token\": [1, 1], \"max_moves\": %d, %s", moves, pos + 1);
    free(pos);
    return s;
}

/* A connection whose head announces `announced` bytes of judge text to
 * d's /solve/GAME and sends none: charged 3x at once, held until closed. */
static int hold_budget(const test_daemon *d, const char *game, size_t announced)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)d->port)};
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&to, sizeof to), 0);
    char head[256];
    int n = snprintf(head, sizeof head,
                     "POST /solve/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                     "Content-Length: %zu\r\n\r\n",
                     game, announced);
    ck_assert_int_eq(write(fd, head, (size_t)n), n);
    return fd;
}

/* A cached answer needs none of its solve's memory: with the budget too
 * busy for a staircase board's work, the board solved before is answered
 * from the cache (X-Cache: hit, the same bytes), one never solved is
 * refused 503 naming the work, both on the fast lane (a look-up, not a
 * heavy solve), and once the budget frees the second is solved. */
START_TEST(test_cached_past_a_full_budget)
{
    size_t len, other_len;
    char *board = chess_board(12, 905, &len), *other = chess_board(12, 906, &other_len);
    double held;
    long grew;
    http_reply free_run = post_on_fresh("solve", "staircase-chess", board, len, "0", &held, &grew);
    ck_assert_int_eq(free_run.status, 200);
    /* Room for the board's solve and 4 MiB more; the held body takes 5 MiB. */
    char budget[32];
    snprintf(budget, sizeof budget, "%.0f", held + (4 << 20));
    const char *flags[] = {
        "--memory-budget", budget, "--limit",
        "staircase-chess.rows=12,staircase-chess.cols=12,staircase-chess.size=24", NULL};
    test_daemon d;
    daemon_start(&d, flags);
    char url[160];
    snprintf(url, sizeof url, "%s/solve/staircase-chess", d.direct);
    http_call c = {"POST", url, NULL, board, len, 0};
    http_reply first = http_do(&c);
    ck_assert_msg(first.status == 200, "%ld %s", first.status, first.body);
    ck_assert_str_eq(first.body, free_run.body);
    wait_uncharged(&d);

    int fd = hold_budget(&d, "staircase-chess", (5u << 20) / 3);
    for (int i = 0; i < 200 && daemon_metric(&d, "gamejudge_memory_charged_bytes") == 0; i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    ck_assert(daemon_metric(&d, "gamejudge_memory_charged_bytes") >= 5 << 20);
    double heavy = daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"heavy\"}");
    double fast = daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"fast\"}");
    ck_assert(heavy >= 1); /* the board's solve: behind heavy solves, not a look-up */
    http_reply again = http_do(&c);
    ck_assert_msg(again.status == 200, "%ld %s", again.status, again.body);
    ck_assert_str_eq(again.body, free_run.body);
    char *how = http_header(&again, "X-Cache");
    ck_assert_ptr_nonnull(how);
    ck_assert_str_eq(how, "hit");
    free(how);
    http_call fresh = {"POST", url, NULL, other, other_len, 0};
    http_reply refused = http_do(&fresh);
    ck_assert_msg(refused.status == 503, "%ld %s", refused.status, refused.body);
    ck_assert_ptr_nonnull(strstr(refused.body, "solving this position holds about"));
    char *retry = http_header(&refused, "Retry-After");
    ck_assert_ptr_nonnull(retry);
    free(retry);
    /* Both looked in the cache on the fast lane, where no solve waits. */
    ck_assert(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"heavy\"}") == heavy);
    ck_assert(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"fast\"}") == fast + 2);

    close(fd);
    wait_uncharged(&d);
    http_reply solved = http_do(&fresh);
    ck_assert_msg(solved.status == 200, "%ld %s", solved.status, solved.body);
    ck_assert_int_eq(daemon_stop(&d), 0);
    http_reply_free(&free_run);
    http_reply_free(&first);
    http_reply_free(&again);
    http_reply_free(&refused);
    http_reply_free(&solved);
    free(board);
    free(other);
}
END_TEST

/* An analysis's whole "after" positions are charged as they are written
 * (grant.h, admission_grow): 20 of a 300 x 300 matrix hold about 11 MB
 * besides the 8x that its 0.5 MB body is charged.  With no bound the
 * charge covers what the process grew by; a budget one byte short of it
 * refuses the analysis 413 naming the answer; a budget of exactly it
 * answers as before. */
START_TEST(test_analysis_growth_charged)
{
    size_t len;
    char *body = analysis_body(300, 20, 903, &len);
    double held;
    long grew;
    http_reply free_run = post_on_fresh("analyze", "matrix-game", body, len, "0", &held, &grew);
    ck_assert_msg(free_run.status == 200, "%ld %s", free_run.status, free_run.body);
    fprintf(stderr, "analysis: %zu-byte body charged %.0f bytes; the process grew by %ld\n", len,
            held, grew);
    /* The body's 3x (it is JSON, though curl labels it otherwise, and its
     * matrix is read into the game's arrays: analysis_read.h) and 1.5x the
     * afters, which are nearly all of the answer. */
    ck_assert_msg(held > 3.0 * (double)len + 1.4 * (double)free_run.len,
                  "%zu-byte body, %zu-byte answer, %.0f bytes charged", len, free_run.len, held);
    if (getenv("TSAN_OPTIONS") == NULL && getenv("ASAN_OPTIONS") == NULL)
        ck_assert_msg((double)grew <= held + (1 << 20), "grew by %ld, charged %.0f", grew, held);
    budget_edges("analyze", "matrix-game", body, len, held, &free_run,
                 "the answer being written holds about");
    free(body);
}
END_TEST

/* Send up to HEAVY_TRIES heavy solves from 127.0.0.2; stop at the first 429. */
static void *heavy(void *arg)
{
    heavy_run *h = arg;
    for (int i = 0; i < HEAVY_TRIES && h->throttled == 0; i++) {
        http_reply r = post(h->d, "127.0.0.2", h->body, h->len, NULL);
        if (i == 0)
            h->first_status = r.status;
        if (r.status == 200)
            h->answered++;
        if (r.status == 429) {
            h->throttled++;
            h->policy = http_header(&r, "RateLimit-Policy");
            h->ratelimit = http_header(&r, "RateLimit");
            h->retry_after = http_header(&r, "Retry-After");
            h->error = strdup(r.body);
        }
        http_reply_free(&r);
    }
    return NULL;
}

START_TEST(test_heavy_client_throttled_light_client_served)
{
    test_daemon d;
    /* The budget must hold the light client's 40 small solves on the
     * slowest build it runs under (ThreadSanitizer on a loaded machine
     * charges about 0.6 ms each: 24 ms) and not the heavy client's
     * HEAVY_TRIES big ones (each more than 20 ms on any build). */
    const char *flags[] = {
        "--quota-rate", "20", "--quota-burst", "100", "--cache-bytes", "0", NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, 7, &len);
    heavy_run h = {.d = &d, .body = big, .len = len};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, heavy, &h), 0);
    /* Meanwhile the light client's every request is answered. */
    for (int i = 0; i < 40; i++) {
        http_reply r = post(&d, "127.0.0.3", sample, sample_len, NULL);
        ck_assert_msg(r.status == 200, "light request %d: %ld %s", i, r.status, r.body);
        char *rl = http_header(&r, "RateLimit");
        ck_assert_ptr_nonnull(rl); /* the remaining budget rides on every answer */
        ck_assert_msg(strncmp(rl, "\"cost\";r=", 9) == 0, "RateLimit: %s", rl);
        free(rl);
        http_reply_free(&r);
    }
    pthread_join(t, NULL);
    ck_assert_int_eq(h.first_status, 200);
    ck_assert_int_eq(h.throttled, 1);
    ck_assert_ptr_nonnull(strstr(h.error, "\"code\":\"rate_limited\""));
    ck_assert_str_eq(h.policy, "\"cost\";q=100;w=5");
    ck_assert_msg(strncmp(h.ratelimit, "\"cost\";r=0;t=", 13) == 0, "RateLimit: %s", h.ratelimit);
    ck_assert_int_ge(atol(h.retry_after), 1);
    /* The heavy one is still throttled; the light one still served. */
    http_reply r = post(&d, "127.0.0.2", sample, sample_len, NULL);
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    expect_sample(&d, "127.0.0.3", NULL);

    /* A spoofed X-Forwarded-For from an untrusted peer changes nothing:
     * the heavy client cannot pass as another, nor frame another. */
    const char *spoof_other[] = {"X-Forwarded-For: 198.51.100.9", NULL};
    r = post(&d, "127.0.0.2", sample, sample_len, spoof_other);
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    const char *frame_heavy[] = {"X-Forwarded-For: 127.0.0.2", NULL};
    expect_sample(&d, "127.0.0.4", frame_heavy);

    ck_assert(daemon_metric(&d, "gamejudge_throttled_total{reason=\"address_cost\"}") == 3);
    ck_assert(daemon_metric(&d, "gamejudge_quota_clients") == 3);
    free(h.policy);
    free(h.ratelimit);
    free(h.retry_after);
    free(h.error);
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

START_TEST(test_trusted_proxy_names_the_client)
{
    test_daemon d;
    const char *flags[] = {"--quota-rate",
                           "2",
                           "--quota-burst",
                           "5",
                           "--trusted-proxies",
                           "127.0.0.5",
                           "--cache-bytes",
                           "0",
                           NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, 9, &len);
    const char *as_heavy[] = {"X-Forwarded-For: 198.51.100.7", NULL};
    http_reply r = post(&d, "127.0.0.5", big, len, as_heavy);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    r = post(&d, "127.0.0.5", sample, sample_len, as_heavy);
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    /* What the client wrote left of its address does not help it. */
    const char *spoofed[] = {"X-Forwarded-For: 203.0.113.1, 198.51.100.7", NULL};
    r = post(&d, "127.0.0.5", sample, sample_len, spoofed);
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    /* Headers in two lines (a proxy that adds its own): the last one counts. */
    const char *two[] = {"X-Forwarded-For: 198.51.100.8", "X-Forwarded-For: 198.51.100.7", NULL};
    r = post(&d, "127.0.0.5", sample, sample_len, two);
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    /* Other clients behind the proxy, the proxy itself, and an untrusted
     * peer naming the heavy client are all served. */
    const char *other[] = {"X-Forwarded-For: 198.51.100.8", NULL};
    expect_sample(&d, "127.0.0.5", other);
    expect_sample(&d, "127.0.0.5", NULL);
    expect_sample(&d, "127.0.0.6", as_heavy);
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

#define TIGHT_KEY "tight-key-0123456789abcdef"
#define ROOMY_KEY "roomy-key-fedcba9876543210"

START_TEST(test_api_keys_have_their_own_budgets)
{
    char path[] = "/tmp/gj-keys-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char text[] = "# test keys\n" TIGHT_KEY " 2 5\n" ROOMY_KEY " 1000000 1000000\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    test_daemon d;
    const char *flags[] = {"--api-keys", path, "--cache-bytes", "0", NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, 11, &len);

    const char *tight[] = {"X-Api-Key: " TIGHT_KEY, NULL};
    const char *roomy[] = {"X-Api-Key: " ROOMY_KEY, NULL};
    http_reply r = post(&d, "127.0.0.2", big, len, tight);
    ck_assert_int_eq(r.status, 200);
    char *policy = http_header(&r, "RateLimit-Policy");
    ck_assert_str_eq(policy, "\"cost\";q=5;w=3");
    free(policy);
    http_reply_free(&r);
    r = post(&d, "127.0.0.2", big, len, tight); /* the first took more than 5 ms */
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    /* The key is the client, from whichever address. */
    r = post(&d, "127.0.0.3", sample, sample_len, tight);
    ck_assert_int_eq(r.status, 429);
    http_reply_free(&r);
    for (int i = 0; i < 3; i++) {
        r = post(&d, "127.0.0.2", big, len, roomy);
        ck_assert_int_eq(r.status, 200);
        policy = http_header(&r, "RateLimit-Policy");
        ck_assert_str_eq(policy, "\"cost\";q=1000000;w=1");
        free(policy);
        http_reply_free(&r);
    }
    /* No key: an address client, unmetered without --quota-rate. */
    r = post(&d, "127.0.0.2", sample, sample_len, NULL);
    ck_assert_int_eq(r.status, 200);
    char *none = http_header(&r, "RateLimit");
    ck_assert_ptr_null(none);
    http_reply_free(&r);
    /* An unknown key is a clear 401, never served as an address. */
    const char *wrong[] = {"X-Api-Key: " TIGHT_KEY "x", NULL};
    r = post(&d, "127.0.0.4", sample, sample_len, wrong);
    ck_assert_int_eq(r.status, 401);
    ck_assert_ptr_nonnull(strstr(r.body, "\"code\":\"unauthorized\""));
    ck_assert_ptr_null(strstr(r.body, TIGHT_KEY));
    char *how = http_header(&r, "WWW-Authenticate");
    ck_assert_ptr_nonnull(how);
    free(how);
    http_reply_free(&r);

    ck_assert(daemon_metric(&d, "gamejudge_throttled_total{reason=\"key_cost\"}") == 2);
    ck_assert(daemon_metric(&d, "gamejudge_throttled_total{reason=\"unknown_key\"}") == 1);
    free(big);
    /* Keys are never logged (the last answer's log line is written by now). */
    char *log = daemon_wait_log(&d, "/metrics");
    ck_assert_ptr_nonnull(log);
    ck_assert_ptr_null(strstr(log, TIGHT_KEY));
    ck_assert_ptr_null(strstr(log, ROOMY_KEY));
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);
    unlink(path);
}
END_TEST

START_TEST(test_bad_key_file_stops_the_start)
{
    char path[] = "/tmp/gj-keys-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char text[] = ROOMY_KEY " 10 100\nshort-key 1 1\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    const char *args[] = {"serve", "--port", "0", "--store", "none", "--api-keys", path, NULL};
    char *out = NULL, *err = NULL;
    int rc = run_cli(args, "", 0, &out, &err);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(err, path) != NULL && strstr(err, "line 2") != NULL, "stderr: %s", err);
    ck_assert_ptr_null(strstr(err, "short-key"));
    ck_assert_ptr_null(strstr(err, ROOMY_KEY));
    free(out);
    free(err);
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("admission");
    TCase *tc = tcase_create("admission");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, load_sample, NULL);
    tcase_add_test(tc, test_memory_budget_bounds_the_process);
    tcase_add_test(tc, test_json_bodies_charged_by_how_they_are_read);
    tcase_add_test(tc, test_solve_work_charged);
    tcase_add_test(tc, test_cached_past_a_full_budget);
    tcase_add_test(tc, test_analysis_growth_charged);
    tcase_add_test(tc, test_tree_charged_as_built);
    tcase_add_test(tc, test_parsed_tree_charged);
    tcase_add_test(tc, test_heavy_client_throttled_light_client_served);
    tcase_add_test(tc, test_trusted_proxy_names_the_client);
    tcase_add_test(tc, test_api_keys_have_their_own_budgets);
    tcase_add_test(tc, test_bad_key_file_stops_the_start);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
