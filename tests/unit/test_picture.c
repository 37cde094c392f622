/* test_picture.c - every game's picture of a position (play/picture.h over
 * game.h's gj_play.draw).
 *
 * For each game of the registry, positions in play come from its
 * generator (fixed seeds; the knobs of its example, or its medium puzzle
 * knobs, or its own defaults) and from each a random walk of a few plies.
 * Every picture must be well-formed XML by a strict reader written here
 * (balanced tags, quoted attributes, only the five entities, no '<' or
 * '&' loose in text, nothing but elements, attributes and text), with
 * nothing that runs or fetches (no script, foreignObject, style, image,
 * use or link, no event or href attribute, no url()), integer numbers
 * only; its root is <svg> in the SVG namespace with a viewBox within the
 * canvas bound; its first child is the <title> naming the game, the side
 * to move (the analysis') and the task; and drawing it twice gives the
 * same bytes.  A hostile task is escaped, a hostile mover is refused, and
 * positions past the bounds are refused with GJ_UNMET naming the size and
 * the bound, while the largest ones allowed stay under PICTURE_BYTES_MAX. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "game_rules.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "picture.h"
#include "play_pos.h"
#include "svg.h"

/* Seeds and plies per game: a few hundred positions each. */
#define SEEDS 60
#define PLIES 5

static const char *const task = "who wins, and with which move";

/* ---- a strict reader of the XML a picture may be -------------------- */

/* What the reader found of a document. */
typedef struct xml_facts {
    char root[32];
    char xmlns[64];
    char viewbox[64];
    char width[16], height[16];
    char first[32];  /* the root's first child element */
    char title[512]; /* its text, as written (entities not expanded) */
    long elements;
} xml_facts;

typedef struct xml_reader {
    const char *s;
    size_t at, len;
    xml_facts *f;
    char why[160];
} xml_reader;

/* Fail the read with a reason and where; always -1. */
static int bad(xml_reader *r, const char *why)
{
    if (r->why[0] == '\0')
        snprintf(r->why, sizeof r->why, "%s at byte %zu: %.40s", why, r->at, r->s + r->at);
    return -1;
}

/* Whether c may start, or continue, a name. */
static int name_char(char c, int first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        return 1;
    return !first && ((c >= '0' && c <= '9') || c == '-' || c == ':' || c == '_');
}

/* A name into out (size bytes): 0, or -1. */
static int read_name(xml_reader *r, char *out, size_t size)
{
    size_t n = 0;
    if (r->at >= r->len || !name_char(r->s[r->at], 1))
        return bad(r, "a name expected");
    while (r->at < r->len && name_char(r->s[r->at], n == 0)) {
        if (n + 1 >= size)
            return bad(r, "a name too long");
        out[n++] = r->s[r->at++];
    }
    out[n] = '\0';
    return 0;
}

/* An entity at r->at ('&'), one of the five: 0 past it, or -1. */
static int read_entity(xml_reader *r)
{
    static const char *const five[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
    for (int i = 0; i < 5; i++) {
        size_t n = strlen(five[i]);
        if (r->len - r->at >= n && memcmp(r->s + r->at, five[i], n) == 0) {
            r->at += n;
            return 0;
        }
    }
    return bad(r, "an entity other than the five");
}

/* Skip whitespace. */
static void skip_space(xml_reader *r)
{
    while (r->at < r->len && strchr(" \t\r\n", r->s[r->at]) != NULL && r->s[r->at] != '\0')
        r->at++;
}

/* Whether the element may appear in a picture. */
static int element_allowed(const char *name)
{
    static const char *const allowed[] = {"svg",     "title",    "g",    "rect", "circle",
                                          "line",    "polyline", "text", "path", "polygon",
                                          "ellipse", "desc",     NULL};
    for (int i = 0; allowed[i] != NULL; i++)
        if (strcmp(name, allowed[i]) == 0)
            return 1;
    return 0;
}

/* Keep value (n bytes) as the root's attribute `name` when the facts want it. */
static void keep_root_attr(xml_facts *f, const char *name, const char *value, size_t n)
{
    char *to = NULL;
    size_t size = 0;
    if (strcmp(name, "xmlns") == 0)
        to = f->xmlns, size = sizeof f->xmlns;
    else if (strcmp(name, "viewBox") == 0)
        to = f->viewbox, size = sizeof f->viewbox;
    else if (strcmp(name, "width") == 0)
        to = f->width, size = sizeof f->width;
    else if (strcmp(name, "height") == 0)
        to = f->height, size = sizeof f->height;
    if (to != NULL)
        snprintf(to, size, "%.*s", (int)n, value);
}

/* The attributes of an element up to its '>' or "/>": *empty set for the
 * latter.  0, or -1. */
static int read_attributes(xml_reader *r, int root, int *empty)
{
    char names[24][32];
    int count = 0;
    for (;;) {
        size_t before = r->at;
        skip_space(r);
        if (r->at >= r->len)
            return bad(r, "the document ends in a tag");
        if (r->s[r->at] == '>' ||
            (r->s[r->at] == '/' && r->at + 1 < r->len && r->s[r->at + 1] == '>')) {
            *empty = r->s[r->at] == '/';
            r->at += *empty ? 2 : 1;
            return 0;
        }
        if (r->at == before)
            return bad(r, "attributes not apart");
        if (count == 24)
            return bad(r, "too many attributes");
        char *name = names[count];
        if (read_name(r, name, sizeof names[0]) != 0)
            return -1;
        for (int i = 0; i < count; i++)
            if (strcmp(names[i], name) == 0)
                return bad(r, "an attribute twice");
        count++;
        if (strncmp(name, "on", 2) == 0 || strstr(name, "href") != NULL ||
            strcmp(name, "style") == 0)
            return bad(r, "an attribute that runs or fetches");
        if (r->at + 1 >= r->len || r->s[r->at] != '=' || r->s[r->at + 1] != '"')
            return bad(r, "an attribute without =\"");
        r->at += 2;
        size_t start = r->at;
        int dot_ok = strcmp(name, "xmlns") == 0 || strcmp(name, "font-family") == 0;
        while (r->at < r->len && r->s[r->at] != '"') {
            char c = r->s[r->at];
            if (c == '<')
                return bad(r, "'<' in an attribute");
            if (c == '.' && !dot_ok)
                return bad(r, "a number that is not an integer");
            if (c == '&') {
                if (read_entity(r) != 0)
                    return -1;
            } else {
                r->at++;
            }
        }
        if (r->at >= r->len)
            return bad(r, "an attribute not closed");
        size_t n = r->at - start;
        for (size_t i = 0; i + 4 <= n; i++)
            if (strncmp(r->s + start + i, "url(", 4) == 0)
                return bad(r, "url() in an attribute");
        if (root)
            keep_root_attr(r->f, name, r->s + start, n);
        r->at++;
    }
}

/* One element at r->at ('<'), its content and its end tag; depth 0 is the
 * root.  0, or -1. */
static int read_element(xml_reader *r, int depth)
{
    char name[32];
    r->at++;
    if (read_name(r, name, sizeof name) != 0)
        return -1;
    if (!element_allowed(name))
        return bad(r, "an element a picture must not have");
    r->f->elements++;
    if (depth == 0)
        snprintf(r->f->root, sizeof r->f->root, "%s", name);
    if (depth == 1 && r->f->first[0] == '\0')
        snprintf(r->f->first, sizeof r->f->first, "%s", name);
    int first_child = depth == 1 && r->f->elements == 2;
    int empty;
    if (read_attributes(r, depth == 0, &empty) != 0)
        return -1;
    if (empty)
        return 0;
    size_t text_start = r->at;
    for (;;) {
        if (r->at >= r->len)
            return bad(r, "an element not closed");
        char c = r->s[r->at];
        if (c == '&') {
            if (read_entity(r) != 0)
                return -1;
            continue;
        }
        if (c != '<') {
            r->at++;
            continue;
        }
        if (r->at + 1 < r->len && (r->s[r->at + 1] == '!' || r->s[r->at + 1] == '?'))
            return bad(r, "a comment, declaration or instruction");
        if (r->at + 1 < r->len && r->s[r->at + 1] == '/')
            break;
        if (read_element(r, depth + 1) != 0)
            return -1;
    }
    if (first_child)
        snprintf(r->f->title, sizeof r->f->title, "%.*s", (int)(r->at - text_start),
                 r->s + text_start);
    r->at += 2;
    char end[32];
    if (read_name(r, end, sizeof end) != 0)
        return -1;
    if (strcmp(end, name) != 0)
        return bad(r, "an end tag of another element");
    skip_space(r);
    if (r->at >= r->len || r->s[r->at] != '>')
        return bad(r, "an end tag not closed");
    r->at++;
    return 0;
}

/* Read the whole document: NULL when it is a picture's XML, else why not. */
static const char *read_xml(const char *s, size_t len, xml_facts *f, char *why, size_t size)
{
    memset(f, 0, sizeof *f);
    xml_reader r = {s, 0, len, f, ""};
    if (memchr(s, '\0', len) != NULL)
        return "a NUL byte";
    if (len == 0 || s[0] != '<')
        return "the document does not start with the root";
    int rc = read_element(&r, 0);
    if (rc == 0) {
        skip_space(&r);
        if (r.at != len)
            rc = bad(&r, "more after the root");
    }
    if (rc == 0)
        return NULL;
    snprintf(why, size, "%s", r.why);
    return why;
}

/* The reader must be able to fail: documents each of its rules refuses. */
START_TEST(reader_refuses)
{
    static const char *const wrong[] = {
        "<svg><g></svg>",
        "<svg><g></g>",
        "<svg a=b></svg>",
        "<svg a='b'></svg>",
        "<svg>a & b</svg>",
        "<svg>a &nbsp; b</svg>",
        "<svg>a &#60; b</svg>",
        "<svg a=\"<\"></svg>",
        "<svg><script>x</script></svg>",
        "<svg><foreignObject/></svg>",
        "<svg onload=\"x\"></svg>",
        "<svg><g href=\"x\"/></svg>",
        "<svg><rect fill=\"url(#a)\"/></svg>",
        "<svg x=\"1.5\"></svg>",
        "<svg a=\"1\" a=\"2\"></svg>",
        "<svg><!-- c --></svg>",
        "<?xml version=\"1.0\"?><svg></svg>",
        "<svg></svg><svg></svg>",
        "<svg></g>",
        "<svg>",
        "text",
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        xml_facts f;
        char why[200];
        ck_assert_msg(read_xml(wrong[i], strlen(wrong[i]), &f, why, sizeof why) != NULL,
                      "read as a picture: %s", wrong[i]);
    }
    const char *right = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 4 4\">"
                        "<title>a &amp; b</title><g><rect x=\"1\"/></g>\n</svg>\n";
    xml_facts f;
    char why[200];
    ck_assert_msg(read_xml(right, strlen(right), &f, why, sizeof why) == NULL, "%s", why);
    ck_assert_str_eq(f.first, "title");
    ck_assert_str_eq(f.title, "a &amp; b");
}
END_TEST

/* ---- pictures of positions in play ----------------------------------- */

/* s escaped as the title escapes it, appended to out (size bytes). */
static void escape_into(char *out, size_t size, const char *s)
{
    gj_buf b;
    buf_init(&b);
    svg_escape(&b, s);
    size_t at = strlen(out);
    snprintf(out + at, size - at, "%.*s", (int)b.len, b.data);
    buf_free(&b);
}

/* The analysis' "to_move" of the request req into side (size bytes). */
static void side_of(const gj_game *g, const json_t *req, const long *limits, char *side,
                    size_t size)
{
    char *body = json_dumps(req, JSON_COMPACT);
    gj_buf out;
    buf_init(&out);
    gj_error e;
    ck_assert_msg(g->analyze(body, strlen(body), limits, &out, &e) == 0, "%s: analyze: %s", g->name,
                  e.message);
    json_t *a = json_loadb(out.data, out.len, 0, NULL);
    const char *s = json_string_value(json_object_get(a, "to_move"));
    ck_assert_ptr_nonnull(s);
    snprintf(side, size, "%s", s);
    json_decref(a);
    buf_free(&out);
    free(body);
}

/* The picture of req, checked as the header says; its length. */
static size_t check_picture(const gj_game *g, const json_t *req, const long *limits,
                            const char *what)
{
    gj_buf out, again;
    buf_init(&out);
    buf_init(&again);
    gj_error e;
    ck_assert_msg(picture_write(g, req, limits, task, &out, &e) == 0, "%s %s: %s", g->name, what,
                  e.message);
    ck_assert_msg(picture_write(g, req, limits, task, &again, &e) == 0, "%s %s: again: %s", g->name,
                  what, e.message);
    ck_assert_msg(out.len == again.len && memcmp(out.data, again.data, out.len) == 0,
                  "%s %s: two drawings differ", g->name, what);
    ck_assert_msg(out.len <= PICTURE_BYTES_MAX, "%s %s: %zu bytes", g->name, what, out.len);

    xml_facts f;
    char why[200];
    const char *wrong = read_xml(out.data, out.len, &f, why, sizeof why);
    ck_assert_msg(wrong == NULL, "%s %s: %s", g->name, what, wrong);
    ck_assert_str_eq(f.root, "svg");
    ck_assert_str_eq(f.xmlns, "http://www.w3.org/2000/svg");
    ck_assert(strncmp(out.data, "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 40) == 0);
    long w = 0, h = 0;
    char tail = 0;
    ck_assert_msg(sscanf(f.viewbox, "0 0 %ld %ld%c", &w, &h, &tail) == 2, "%s %s: viewBox %s",
                  g->name, what, f.viewbox);
    ck_assert(w >= 1 && w <= SVG_SIDE_MAX && h >= 1 && h <= SVG_SIDE_MAX);
    ck_assert(atol(f.width) == w && atol(f.height) == h);
    ck_assert_str_eq(f.first, "title");

    char side[64], title[512] = "";
    side_of(g, req, limits, side, sizeof side);
    escape_into(title, sizeof title, g->display_name);
    escape_into(title, sizeof title, ": ");
    escape_into(title, sizeof title, side);
    escape_into(title, sizeof title, " to move; ");
    escape_into(title, sizeof title, task);
    ck_assert_msg(strcmp(f.title, title) == 0, "%s %s: title %s, not %s", g->name, what, f.title,
                  title);
    size_t len = out.len;
    buf_free(&out);
    buf_free(&again);
    return len;
}

/* The position `seed` of g's generator, in play: with the knobs of its
 * example (kind 0), its medium puzzle knobs (1) or its own defaults (2). */
static json_t *generated(const gj_game *g, long seed, int kind)
{
    static const char *const constraints[] = {"outcome", "winning_moves", "score", "min_moves",
                                              NULL};
    const char *knobs = kind == 0   ? g->example_generate
                        : kind == 1 ? g->puzzle_knobs[GJ_BAND_MEDIUM]
                                    : NULL;
    json_t *req = json_loads(knobs != NULL ? knobs : "{}", 0, NULL);
    ck_assert_ptr_nonnull(req);
    for (int i = 0; constraints[i] != NULL; i++)
        json_object_del(req, constraints[i]);
    json_object_set_new(req, "seed", json_integer(seed));
    json_object_set_new(req, "min_moves", json_integer(1));
    json_object_set_new(req, "answer", json_false());
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
    gj_buf out;
    buf_init(&out);
    gj_error e;
    int rc = g->generate(body, strlen(body), limits, &out, &e);
    ck_assert_msg(rc == 0, "%s: %s: %s", g->name, body, e.message);
    free(body);
    json_t *answer = json_loadb(out.data, out.len, 0, NULL);
    buf_free(&out);
    ck_assert_ptr_nonnull(answer);
    json_t *position = json_incref(json_object_get(answer, "position"));
    json_decref(answer);
    ck_assert_ptr_nonnull(position);
    return position;
}

/* The request of the position p is now (write_members), loaded. */
static json_t *request_of(const play_pos *p)
{
    gj_buf out;
    buf_init(&out);
    buf_putc(&out, '{');
    p->ops->write_members(p->pos, 0, &out);
    buf_putc(&out, '}');
    ck_assert(!out.failed);
    json_t *req = json_loadb(out.data, out.len, 0, NULL);
    ck_assert_ptr_nonnull(req);
    buf_free(&out);
    return req;
}

/* Every game, its generated positions and a walk from each. */
START_TEST(positions_in_play)
{
    const gj_game *g = harness_game(_i);
    ck_assert_msg(g->play != NULL && g->play->draw != NULL, "%s draws nothing", g->name);
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    uint64_t rng = 7000 + (uint64_t)_i;
    long drawn = 0;
    gj_move *moves = malloc(ANALYSIS_MAX_MOVES_LIMIT * sizeof *moves);
    ck_assert_ptr_nonnull(moves);
    for (long seed = 1; seed <= SEEDS; seed++) {
        json_t *req = generated(g, seed, (int)(seed % 3));
        play_pos p;
        gj_error e;
        ck_assert_msg(play_open(&p, g, req, limits, &e) == 0, "%s: %s", g->name, e.message);
        json_decref(req);
        for (int ply = 0; ply < PLIES; ply++) {
            char what[64];
            snprintf(what, sizeof what, "seed %ld ply %d", seed, ply);
            json_t *now = request_of(&p);
            check_picture(g, now, limits, what);
            json_decref(now);
            drawn++;
            long n = p.ops->rank(p.pos, ANALYSIS_MAX_MOVES_LIMIT, moves, NULL, &e);
            ck_assert_msg(n >= 0, "%s: rank: %s", g->name, e.message);
            if (n == 0)
                break;
            ck_assert_int_eq(p.ops->play(p.pos, &moves[rng_below(&rng, (uint64_t)n)], &e), 0);
        }
        play_close(&p);
    }
    free(moves);
    json_t *example = json_loads(g->example_analyze, 0, NULL);
    check_picture(g, example, limits, "example");
    json_decref(example);
    ck_assert_int_ge(drawn, 200);
}
END_TEST

/* A task with markup is escaped in the title and nowhere else; a mover
 * with markup is refused as the position's own error, never drawn. */
START_TEST(hostile)
{
    const gj_game *g = harness_game(_i);
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    json_t *req = json_loads(g->example_analyze, 0, NULL);
    const char *evil = "<script>alert('x')</script> & \"<svg onload=x>\"";
    gj_buf out;
    buf_init(&out);
    gj_error e;
    ck_assert_int_eq(picture_write(g, req, limits, evil, &out, &e), 0);
    buf_putc(&out, '\0');
    ck_assert_ptr_null(strstr(out.data, "<script"));
    ck_assert_ptr_null(strstr(out.data, "<svg onload"));
    ck_assert_ptr_nonnull(
        strstr(out.data, "&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;&lt;svg "
                         "onload=x&gt;&quot;</title>"));
    xml_facts f;
    char why[200];
    const char *wrong = read_xml(out.data, out.len - 1, &f, why, sizeof why);
    ck_assert_msg(wrong == NULL, "%s: %s", g->name, wrong);
    buf_free(&out);

    json_object_set_new(req, "to_move", json_string("</title><script>x</script>"));
    buf_init(&out);
    ck_assert_int_eq(picture_write(g, req, limits, task, &out, &e), -1);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_uint_eq(out.len, 0);
    buf_free(&out);

    char longer[PICTURE_TASK_MAX + 2];
    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    buf_init(&out);
    ck_assert_int_eq(picture_write(g, req, limits, longer, &out, &e), -1);
    buf_free(&out);
    json_decref(req);
}
END_TEST

/* ---- the bounds ------------------------------------------------------- */

/* One over a bound is refused naming the size and the bound; the largest
 * picture allowed stays under PICTURE_BYTES_MAX. */
START_TEST(bounds)
{
    const gj_game *g = harness_game(_i);
    size_t count;
    const game_rules *r = game_rules_all(&count)[_i];
    ck_assert_ptr_eq(r->game, g);
    long limits[GJ_MAX_LIMITS];
    for (int k = 0; k < g->nlimits; k++)
        limits[k] = g->limits[k].max;
    char size[32] = "", bound[32] = "";
    json_t *over = r->picture_edge(1, size, bound);
    if (over != NULL) {
        gj_buf out;
        buf_init(&out);
        gj_error e;
        ck_assert_int_eq(picture_write(g, over, limits, task, &out, &e), -1);
        ck_assert_msg(e.kind == GJ_UNMET, "%s: %s", g->name, e.message);
        ck_assert_msg(size[0] != '\0' && strstr(e.message, size) != NULL &&
                          strstr(e.message, bound) != NULL,
                      "%s: %s", g->name, e.message);
        ck_assert_uint_eq(out.len, 0);
        buf_free(&out);
        json_decref(over);
    }
    json_t *edge = r->picture_edge(0, size, bound);
    ck_assert_ptr_nonnull(edge);
    size_t bytes = check_picture(g, edge, limits, "at the bound");
    fprintf(stderr, "%s: the largest picture, %zu bytes\n", g->name, bytes);
    json_decref(edge);
}
END_TEST

static Suite *picture_suite(void)
{
    Suite *s = suite_create("picture");
    const harness_case cases[] = {{"reader", reader_refuses}};
    harness_add(s, cases, 1, 0);
    TCase *t = tcase_create("games");
    tcase_set_timeout(t, 600);
    tcase_add_loop_test(t, positions_in_play, 0, GAMES_COUNT);
    tcase_add_loop_test(t, hostile, 0, GAMES_COUNT);
    tcase_add_loop_test(t, bounds, 0, GAMES_COUNT);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return harness_main(picture_suite());
}
