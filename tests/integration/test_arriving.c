/* test_arriving.c - a JSON or judge-text body POSTed to /solve is read as
 * it arrives, into the game's position (http.c's arriving_reader), and the
 * answer is byte for byte the one the whole-body parse gives.
 *
 * The oracle is the pipeline in this process: solve_position over the
 * whole body (the game's parse_json or parse_text), its answer or its
 * error rendered as
 * the daemon renders errors (http_error_render, with the request's id).
 * The bodies are seeded: each game's positions of random sizes, half of
 * them then damaged (a byte inserted, deleted or replaced, a span doubled,
 * the end cut off), some padded with whitespace; each is sent once with
 * Content-Length and once chunked in random pieces (libmicrohttpd hands a
 * chunked body over chunk by chunk, so the reader sees those splits).
 * /analyze and /move bodies are read the same way, into their JSON tree
 * (tree_read.h) or, in a game with an analysis reader, their bulk member
 * into the game's arrays and the rest into a tree (analysis_read.h); their
 * oracle is line_analyze and engine_move over the whole body.  One driver
 * (send_bodies) sends every kind.  Then the limits that hold while the body
 * arrives: a body refused early by the reader that goes on past --max-body is still a 413, an empty
 * body is the parse's own error, and a client that hangs up mid-body leaves the daemon answering.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "daemon.h"
#include "client.h"
#include "engine.h"
#include "games.h"
#include "http_error.h"
#include "line.h"
#include "media.h"
#include "rawhttp.h"
#include "solve.h"

#define BODIES_PER_GAME      300
#define PLAY_BODIES_PER_GAME 200

static unsigned long long seed;

/* The next value of a fixed-seed generator, below n (n > 0). */
static unsigned long long below(unsigned long long n)
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
}

/* Append printf's text of fmt to b (each piece here is short). */
static void put(gj_buf *b, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    ck_assert(n >= 0 && (size_t)n < sizeof text);
    buf_append(b, text, (size_t)n);
}

/* A position of g of seeded size as a JSON body, into b. */
static void grow_position(const gj_game *g, gj_buf *b)
{
    if (strcmp(g->name, "matrix-game") == 0) {
        int n = 1 + (int)below(30);
        put(b, "{\"k\": %d, \"matrix\": [", 1 + (int)below(3));
        for (int r = 0; r < n; r++) {
            buf_puts(b, r ? ", [" : "[");
            for (int c = 0; c < n; c++)
                put(b, c ? ",%d" : "%d", r * n + c + 1 + (int)below(2) * n * n);
            buf_putc(b, ']');
        }
        buf_puts(b, "]}");
    } else if (strcmp(g->name, "grid-walk") == 0 || strcmp(g->name, "prime-chocolate") == 0) {
        bool grid = g->name[0] == 'g';
        int rows = 1 + (int)below(30), cols = grid ? 1 + (int)below(30) : rows;
        buf_puts(b, "{\"grid\": [");
        for (int r = 0; r < rows; r++) {
            buf_puts(b, r ? ", \"" : "\"");
            for (int c = 0; c < cols; c++)
                buf_putc(b, grid ? (below(5) ? '.' : '#') : (below(6) ? '-' : 'X'));
            buf_putc(b, '"');
        }
        buf_puts(b, "]}");
    } else if (strcmp(g->name, "nim-shortcuts") == 0) {
        const char *names[2] = {"shortcuts", "queries"};
        buf_putc(b, '{');
        for (int k = 0; k < 2; k++) {
            int n = (int)below(60);
            put(b, "%s\"%s\": [", k ? ", " : "", names[k]);
            for (int i = 0; i < n; i++) /* repeated shortcuts are refused: kept */
                put(b, "%s[%d,%d]", i ? "," : "", (int)below(400), (int)below(400));
            buf_putc(b, ']');
        }
        buf_putc(b, '}');
    } else if (strcmp(g->name, "staircase-chess") == 0) {
        int rows = 1 + (int)below(9), cols = 1 + (int)below(9);
        buf_putc(b, '{');
        for (int k = 0; k < 2; k++) {
            put(b, "%s\"%c\": [", k ? ", " : "", "ab"[k]);
            for (int r = 0; r < rows; r++) {
                buf_puts(b, r ? ",[" : "[");
                for (int c = 0; c < cols; c++)
                    put(b, c ? ",%d" : "%d", (int)below(10));
                buf_putc(b, ']');
            }
            buf_putc(b, ']');
        }
        buf_putc(b, '}');
    } else {
        buf_puts(b, g->example_json); /* a game this test does not know: its sample */
    }
}

/* A position of g of seeded size as a judge-text body, into b, its
 * blanks drawn from every kind the reader skips. */
static void grow_text(const gj_game *g, gj_buf *b)
{
    static const char *const blanks[] = {" ", " ", "\n", "\t", "\r\n", "  "};
#define BLANK() buf_puts(b, blanks[below(6)])
    if (strcmp(g->name, "matrix-game") == 0) {
        int n = 1 + (int)below(30);
        put(b, "%d %d\n", n, 1 + (int)below(3));
        for (int i = 0; i < n * n; i++) {
            put(b, "%d", i + 1 + (int)below(2) * n * n);
            BLANK();
        }
    } else if (strcmp(g->name, "grid-walk") == 0 || strcmp(g->name, "prime-chocolate") == 0) {
        bool grid = g->name[0] == 'g';
        int rows = 1 + (int)below(30), cols = grid ? 1 + (int)below(30) : rows;
        if (grid)
            put(b, "%d %d\n", rows, cols);
        else
            put(b, "%d\n", rows);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++)
                buf_putc(b, grid ? (below(5) ? '.' : '#') : (below(6) ? '-' : 'X'));
            BLANK();
        }
    } else if (strcmp(g->name, "nim-shortcuts") == 0) {
        int n = (int)below(60), m = (int)below(60);
        put(b, "%d %d\n", n, m);
        for (int i = 0; i < n + m; i++) { /* repeated shortcuts are refused: kept */
            put(b, "%d", (int)below(400));
            BLANK();
            put(b, "%d", (int)below(400));
            BLANK();
        }
    } else if (strcmp(g->name, "staircase-chess") == 0) {
        int rows = 1 + (int)below(9), cols = 1 + (int)below(9);
        put(b, "%d %d\n", rows, cols);
        for (int i = 0; i < 2 * rows * cols; i++) {
            put(b, "%d", (int)below(10));
            BLANK();
        }
    } else {
        buf_puts(b, g->example_text); /* a game this test does not know: its sample */
    }
#undef BLANK
}

/* Damage body b once: a byte inserted, deleted or replaced, a span
 * doubled, or the end cut off. */
static void damage(gj_buf *b)
{
    static const char bytes[] = " \t\n{}[],:\"-.eE0123456789\\uxX#";
    if (b->len == 0)
        return;
    size_t at = (size_t)below(b->len);
    gj_buf out;
    buf_init(&out);
    switch (below(5)) {
    case 0: /* insert */
        buf_append(&out, b->data, at);
        buf_putc(&out, bytes[below(sizeof bytes - 1)]);
        buf_append(&out, b->data + at, b->len - at);
        break;
    case 1: /* delete */
        buf_append(&out, b->data, at);
        buf_append(&out, b->data + at + 1, b->len - at - 1);
        break;
    case 2: /* replace */
        buf_append(&out, b->data, b->len);
        out.data[at] = bytes[below(sizeof bytes - 1)];
        break;
    case 3: { /* double a span */
        size_t n = (size_t)below(b->len - at) + 1;
        buf_append(&out, b->data, at + n);
        buf_append(&out, b->data + at, b->len - at);
        break;
    }
    default: /* cut */
        buf_append(&out, b->data, at);
        break;
    }
    ck_assert(!out.failed);
    buf_free(b);
    *b = out;
}

/* Pad b with n blanks before or after. */
static void pad(gj_buf *b, size_t n, int before)
{
    gj_buf out;
    buf_init(&out);
    for (size_t i = 0; before && i < n; i++)
        buf_putc(&out, " \n\t\r"[below(4)]);
    buf_append(&out, b->data, b->len);
    for (size_t i = 0; !before && i < n; i++)
        buf_putc(&out, " \n\t\r"[below(4)]);
    ck_assert(!out.failed);
    buf_free(b);
    *b = out;
}

/* Body i of a run: damaged one to three times when i is odd, padded with
 * blanks before or after one time in eight. */
static void vary(gj_buf *b, int i)
{
    for (int k = i % 2 ? 1 + (int)below(3) : 0; k > 0; k--)
        damage(b);
    if (below(8) == 0)
        pad(b, (size_t)below(6000), (int)below(2));
    ck_assert(!b->failed);
}

/* The status of error e, and want (emptied) holding it as http_error.c
 * renders it for request id `id`. */
static int rendered(const gj_error *e, const char *id, gj_buf *want)
{
    buf_free(want);
    buf_init(want);
    size_t n;
    char *text = http_error_render(e, id, &n);
    ck_assert(text != NULL);
    buf_append(want, text, n);
    free(text);
    return http_error_status(e->kind);
}

/* End the head in req and append body: with Content-Length, or chunked in
 * random pieces of at most `piece` bytes. */
static void frame(gj_buf *req, const char *body, size_t len, int chunked, size_t piece)
{
    if (!chunked) {
        put(req, "Content-Length: %zu\r\n\r\n", len);
        buf_append(req, body, len);
    } else {
        buf_puts(req, "Transfer-Encoding: chunked\r\n\r\n");
        for (size_t at = 0; at < len;) {
            size_t k = (size_t)below(piece) + 1;
            if (k > len - at)
                k = len - at;
            put(req, "%zx\r\n", k);
            buf_append(req, body + at, k);
            buf_puts(req, "\r\n");
            at += k;
        }
        buf_puts(req, "0\r\n\r\n");
    }
    ck_assert(!req->failed);
}

/* Where a generated body goes and how it is typed. */
typedef struct post {
    const char *route; /* "solve", "analyze" or "move" */
    media_kind input;  /* its Content-Type: JSON or judge text */
    media_kind output; /* the answer's type asked (Accept) */
} post;

/* The answer the daemon must give to body posted as p for g on request id
 * `id`: the whole body through this process's pipeline (solve_position,
 * line_analyze or engine_move), an error rendered as http_error.c does.
 * Its status, and its bytes in want. */
static int expected(const gj_game *g, const post *p, const char *body, size_t len, const char *id,
                    gj_buf *want)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    gj_error e;
    buf_init(want);
    int rc;
    if (strcmp(p->route, "analyze") == 0) {
        rc = line_analyze(g, body, len, limits, want, &e);
    } else if (strcmp(p->route, "move") == 0) {
        rc = engine_move(g, body, len, limits, 1, want, &e);
    } else {
        char *copy = malloc(len + 1); /* with the NUL guard the daemon's parse has */
        ck_assert(copy != NULL);
        memcpy(copy, body, len);
        copy[len] = '\0';
        solve_timing t;
        rc = solve_position(g, limits, p->input, copy, len, p->output, want, &t, &e);
        free(copy);
    }
    return rc == 0 ? 200 : rendered(&e, id, want);
}

/* POST body to /{p->route}/{g} on port, with Content-Length or chunked in
 * pieces of at most `piece` bytes, and check the answer against the
 * whole body's (expected).  n numbers the request id.  Returns the status. */
static int post_checked(unsigned port, const gj_game *g, const post *p, const char *body,
                        size_t len, int chunked, size_t piece, int n)
{
    char id[48];
    snprintf(id, sizeof id, "%s-%d%c%c", p->route, n, p->input == MEDIA_JSON ? 'j' : 't',
             chunked ? 'c' : 'l');
    gj_buf req;
    buf_init(&req);
    put(&req,
        "POST /%s/%s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-Id: "
        "%s\r\nContent-Type: %s\r\nAccept: %s\r\n",
        p->route, g->name, id, p->input == MEDIA_JSON ? "application/json" : "text/plain",
        p->output == MEDIA_JSON ? "application/json" : "text/plain");
    frame(&req, body, len, chunked, piece);
    raw_reply r = raw_exchange(port, req.data, req.len);
    gj_buf want;
    int status = expected(g, p, body, len, id, &want);
    if (r.status != status || r.len != want.len || memcmp(r.body, want.data, want.len) != 0)
        ck_abort_msg("POST /%s/%s %s (%zu bytes, %s): got %d %.300s; want %d %.300s\nbody: %.400s",
                     p->route, g->name, id, len, chunked ? "chunked" : "Content-Length", r.status,
                     r.body ? r.body : "", status, want.data ? want.data : "", body);
    buf_free(&want);
    raw_reply_free(&r);
    buf_free(&req);
    return status;
}

/* A family of seeded bodies that send_bodies posts for every game. */
typedef struct body_kind {
    const char *name;        /* in the tally line */
    unsigned long long seed; /* plus the game's index */
    int per_game;
    long at_least; /* answers, and refusals, over all the games */
    /* Whether g takes bodies of this kind at all. */
    int (*takes)(const gj_game *g);
    /* Body i for g into b (empty) and where it goes into p: 1, or 0 when
     * this one is not to be sent. */
    int (*make)(const gj_game *g, int i, gj_buf *b, post *p);
} body_kind;

/* Every kind's bodies for every game that takes them, each sent with
 * Content-Length and chunked to a fresh daemon: answers and refusals are
 * the whole body's (post_checked), and each is met at least k->at_least
 * times. */
static void send_bodies(const body_kind *k)
{
    test_daemon d;
    daemon_start(&d, NULL);
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    long ok = 0, refused = 0;
    int n = 0;
    for (size_t gi = 0; gi < ngames; gi++) {
        const gj_game *g = games[gi];
        if (!k->takes(g))
            continue;
        seed = k->seed + gi;
        for (int i = 0; i < k->per_game; i++) {
            gj_buf b;
            buf_init(&b);
            post p;
            int send = k->make(g, i, &b, &p);
            size_t piece = below(3) == 0 ? 7 : 300;
            for (int chunked = 0; chunked < 2 && send; chunked++) {
                int status =
                    post_checked(d.port, g, &p, b.data ? b.data : "", b.len, chunked, piece, n);
                status == 200 ? ok++ : refused++;
            }
            n++;
            buf_free(&b);
        }
    }
    printf("arriving %s: %d bodies, twice each: %ld answered, %ld refused, as the whole body\n",
           k->name, n, ok, refused);
    ck_assert_int_gt(ok, k->at_least);
    ck_assert_int_gt(refused, k->at_least);
    ck_assert_int_eq(daemon_stop(&d), 0);
}

/* A game that reads JSON /solve bodies as they arrive (game.h's read_json). */
static int takes_json(const gj_game *g)
{
    return g->read_json != NULL;
}

/* A game that reads judge text as it arrives (game.h's read_text). */
static int takes_text(const gj_game *g)
{
    return g->read_text != NULL;
}

/* A /solve body of g as `input`: the example first, then positions of
 * random sizes, varied (vary); the answer asked as JSON or text. */
static void solve_body(const gj_game *g, media_kind input, int i, gj_buf *b, post *p)
{
    if (i == 0)
        buf_puts(b, input == MEDIA_JSON ? g->example_json : g->example_text);
    else if (input == MEDIA_JSON)
        grow_position(g, b);
    else
        grow_text(g, b);
    vary(b, i);
    *p = (post){"solve", input, below(2) ? MEDIA_JSON : MEDIA_TEXT};
}

/* body_kind's make for JSON /solve bodies. */
static int make_json(const gj_game *g, int i, gj_buf *b, post *p)
{
    solve_body(g, MEDIA_JSON, i, b, p);
    return 1;
}

/* body_kind's make for judge-text /solve bodies. */
static int make_text(const gj_game *g, int i, gj_buf *b, post *p)
{
    solve_body(g, MEDIA_TEXT, i, b, p);
    return 1;
}

/* JSON bodies (game.h's read_json). */
START_TEST(test_bodies)
{
    static const body_kind json = {"JSON", 0xa771e000ull, BODIES_PER_GAME,
                                   1000,   takes_json,    make_json};
    send_bodies(&json);
}
END_TEST

/* Judge-text bodies (game.h's read_text). */
START_TEST(test_text_bodies)
{
    static const body_kind text = {"text", 0x7e471000ull, BODIES_PER_GAME,
                                   1000,   takes_text,    make_text};
    send_bodies(&text);
}
END_TEST

/* A /move body from g's analysis example: no max_moves (/move refuses it),
 * a level and a seed drawn here, so that the move is the same in this
 * process and in the daemon. */
static void move_body(const gj_game *g, gj_buf *b)
{
    json_t *root = json_loads(g->example_analyze, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_object_del(root, "max_moves");
    json_object_set_new(root, "level", json_integer(1 + (json_int_t)below(5)));
    json_object_set_new(root, "seed", json_integer((json_int_t)below(1000000)));
    char *text = json_dumps(root, below(2) ? JSON_COMPACT : JSON_INDENT(2));
    ck_assert_ptr_nonnull(text);
    buf_puts(b, text);
    free(text);
    json_decref(root);
}

/* A game with an analysis example takes /analyze and /move bodies. */
static int takes_play(const gj_game *g)
{
    return g->example_analyze != NULL;
}

/* body_kind's make for /analyze and /move: each game's analysis example,
 * or a move request made of it, varied (vary), labelled JSON or text.  A damaged /move body that
 * lost its seed would be answered with a seed of the daemon's: not sent. */
static int make_play(const gj_game *g, int i, gj_buf *b, post *p)
{
    /* One in two labelled text/plain: read as JSON all the same. */
    *p = (post){i % 4 < 2 ? "analyze" : "move", i % 8 < 4 ? MEDIA_JSON : MEDIA_TEXT, MEDIA_JSON};
    if (p->route[0] == 'a')
        buf_puts(b, g->example_analyze);
    else
        move_body(g, b);
    vary(b, i);
    json_t *parsed = json_loadb(b->data ? b->data : "", b->len, 0, NULL);
    int unseeded =
        p->route[0] == 'm' && json_is_object(parsed) && json_object_get(parsed, "seed") == NULL;
    json_decref(parsed);
    return !unseeded;
}

/* /analyze and /move bodies are read as they arrive into their tree
 * (router.h's tree_body, tree_read.h), damaged one to three times in half
 * of them, some padded: answers and refusals byte for byte the whole
 * body's. */
START_TEST(test_play_bodies)
{
    static const body_kind play = {"play", 0x91a40000ull, PLAY_BODIES_PER_GAME,
                                   400,    takes_play,    make_play};
    send_bodies(&play);
}
END_TEST

/* An empty body, JSON or text, with Content-Length: 0 and chunked: the
 * parse's own error, as for the whole body. */
START_TEST(test_empty)
{
    test_daemon d;
    daemon_start(&d, NULL);
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    for (size_t gi = 0; gi < ngames; gi++)
        for (int k = 0; k < 4; k++)
            ck_assert_int_eq(
                post_checked(d.port, games[gi],
                             &(post){"solve", k < 2 ? MEDIA_JSON : MEDIA_TEXT, MEDIA_JSON}, "", 0,
                             k % 2, 1, (int)gi),
                400);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A body the reader refuses at its first token that goes on past
 * --max-body, JSON and judge text to /solve and JSON to /analyze: still the
 * 413 of a body read whole, for both framings. */
START_TEST(test_refused_then_too_large)
{
    const char *const args[] = {"--max-body", "4096", NULL};
    test_daemon d;
    daemon_start(&d, args);
    static char body[6000];
    for (int k = 0; k < 6; k++) {
        bool json = k < 2 || k >= 4, chunked = k % 2, tree = k >= 4; /* 4, 5: /analyze */
        memset(body, ' ', sizeof body);
        memcpy(body, json ? "{x" : "x ", 2);
        gj_buf req;
        buf_init(&req);
        put(&req,
            "POST /%s/matrix-game HTTP/1.1\r\nHost: x\r\nConnection: "
            "close\r\nContent-Type: %s\r\n",
            tree ? "analyze" : "solve", json ? "application/json" : "text/plain");
        if (chunked) {
            buf_puts(&req, "Transfer-Encoding: chunked\r\n\r\n");
            for (size_t at = 0; at < sizeof body; at += 1000) {
                buf_puts(&req, "3e8\r\n");
                buf_append(&req, body + at, 1000);
                buf_puts(&req, "\r\n");
            }
            buf_puts(&req, "0\r\n\r\n");
        } else {
            put(&req, "Content-Length: %zu\r\n\r\n", sizeof body);
            buf_append(&req, body, sizeof body);
        }
        raw_reply r = raw_exchange(d.port, req.data, req.len);
        ck_assert_msg(r.status == 413, "%s, %s: got %d %s", json ? "JSON" : "text",
                      chunked ? "chunked" : "Content-Length", r.status, r.body ? r.body : "");
        ck_assert_ptr_nonnull(strstr(r.body, "--max-body"));
        raw_reply_free(&r);
        buf_free(&req);
        /* Under the limit the same mistake is the reader's 400, naming where. */
        seed = 1;
        const gj_game *g = games_find("matrix-game", 11);
        post p = {tree ? "analyze" : "solve", json ? MEDIA_JSON : MEDIA_TEXT, MEDIA_JSON};
        int status = post_checked(d.port, g, &p, body, 3000, chunked, 300, k);
        ck_assert_int_eq(status, 400);
    }
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* Clients that hang up mid-body, their reader open (in a position, in a
 * string or a token, after a refusal; a /solve's position or an analysis's
 * tree): the daemon frees it and answers the next. */
START_TEST(test_hang_up)
{
    test_daemon d;
    daemon_start(&d, NULL);
    static const struct {
        const char *route, *game, *type, *part;
    } parts[] = {
        {"solve", "matrix-game", "application/json", "{\"k\": 1, \"matrix\": [[1,2],[3,"},
        {"solve", "grid-walk", "application/json", "{\"grid\": [\"..#\", \".."},
        {"solve", "matrix-game", "application/json", "{\"k\": 1, \"matrix\": [[1,2],[3,x"},
        {"solve", "matrix-game", "text/plain", "3 1\n1 2 3\n4 5"},
        {"solve", "grid-walk", "text/plain", "2 3\n..#\n.."},
        {"solve", "nim-shortcuts", "text/plain", "2 1\n1 2\n3 x"},
        {"analyze", "matrix-game", "application/json", "{\"k\": 1, \"token\": [1, 1], \"matr"},
        {"move", "grid-walk", "application/json", "{\"level\": 2, \"grid\": [\"..#\", \".."},
        {"analyze", "nim-shortcuts", "application/json", "{\"heaps\": [2, 5], \"x\": tr"},
    };
    for (int round = 0; round < 20; round++)
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
            char req[512];
            int n = snprintf(req, sizeof req,
                             "POST /%s/%s HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             "%s\r\nContent-Length: 900\r\n\r\n%s",
                             parts[i].route, parts[i].game, parts[i].type, parts[i].part);
            raw_hang_up(d.port, req, (size_t)n);
        }
    seed = 2;
    const gj_game *g = games_find("matrix-game", 11);
    const post json = {"solve", MEDIA_JSON, MEDIA_TEXT}, text = {"solve", MEDIA_TEXT, MEDIA_TEXT};
    const post analyze = {"analyze", MEDIA_JSON, MEDIA_JSON};
    ck_assert_int_eq(
        post_checked(d.port, g, &json, g->example_json, strlen(g->example_json), 1, 5, 0), 200);
    ck_assert_int_eq(
        post_checked(d.port, g, &text, g->example_text, strlen(g->example_text), 1, 5, 1), 200);
    ck_assert_int_eq(
        post_checked(d.port, g, &analyze, g->example_analyze, strlen(g->example_analyze), 1, 5, 2),
        200);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* The suite. */
static Suite *arriving_suite(void)
{
    Suite *s = suite_create("arriving");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bodies);
    tcase_add_test(tc, test_text_bodies);
    tcase_add_test(tc, test_play_bodies);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_refused_then_too_large);
    tcase_add_test(tc, test_hang_up);
    suite_add_tcase(s, tc);
    return s;
}

/* Runs the suite. */
int main(void)
{
    return run_suite(arriving_suite());
}
