/* puzzles_cmd.c - `gamejudge puzzles fill|export|import` (puzzles_cmd.h).
 *
 * fill bounds each seed's search by a count of candidates (FILL_TRIES),
 * never by the clock, makes the seeds' puzzles on --jobs threads and
 * stores them in seed order on the calling thread: the puzzles a fill
 * stores depend on the seeds and the count alone, never on the machine's
 * speed, the number of threads or their timing.  export streams
 * store_each's rows; import reads one CSV record at a time.  Neither holds
 * the pool in memory. */
#include "puzzles_cmd.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "games.h"
#include "generate.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "store.h"
#include "stored_puzzle.h"

/* A seed's search: its first FILL_TRIES candidates (GET /puzzle's
 * "tries"), within a budget so large that only a hung generator meets it.
 * The candidates come in the seed's order with or without tries, so when
 * GET /puzzle/{game}?seed=S (no tries) and fill both find a puzzle, it is
 * the same one. */
#define FILL_TRIES     PUZZLE_TRIES_MAX
#define FILL_BUDGET_MS 600000L
/* fill gives up on a game after this many seeds in a row gave no puzzle
 * (each after FILL_TRIES candidates): the band or depth asked is out of
 * the game's reach. */
#define FILL_DRY_MAX 20
/* The most fill threads. */
#define FILL_JOBS_MAX 64
/* The CSV a record may hold: fields, and bytes in all. */
#define CSV_FIELDS_MAX 64
#define CSV_RECORD_MAX (16L << 20)

/* The columns, in the order export writes them: the lichess puzzle
 * database's first (its FEN a position here, its moves a JSON array),
 * then what a lossless round trip needs besides. */
enum {
    COL_ID,
    COL_GAME,
    COL_POSITION,
    COL_MOVES,
    COL_RATING,
    COL_RD,
    COL_PLAYS,
    COL_THEMES,
    COL_WINS,
    COL_VOL,
    COL_BAND,
    COL_DEPTH,
    COL_DIFFICULTY,
    NCOLS
};

static const char *const col_names[NCOLS] = {
    "PuzzleId", "Game", "Position",   "Moves", "Rating", "RatingDeviation", "NbPlays",
    "Themes",   "Wins", "Volatility", "Band",  "Depth",  "Difficulty"};

static const char *const band_names[3] = {"easy", "medium", "hard"};

void puzzles_help(FILE *out)
{
    fprintf(out,
            "usage: gamejudge puzzles fill [--game G|all] --count N [--band B] [--depth D]\n"
            "                              [--seed-from S] [--jobs J] [--store URL]\n"
            "       gamejudge puzzles export [--game G] [--store URL] > FILE\n"
            "       gamejudge puzzles import [--store URL] [FILE]\n"
            "\n"
            "The pool of stored puzzles the store serves from.\n"
            "\n"
            "fill    stores the puzzle GET /puzzle/{game}?seed=S&band=B&depth=D&tries=%d\n"
            "        answers (the same puzzle and id; without tries, the same whenever\n"
            "        both find one) for S = --seed-from (default 1), S+1, ..., each id\n"
            "        once, until the store holds N puzzles of the game (of band B and depth D\n"
            "        when given, of any otherwise).  Every game with --game all or none\n"
            "        (those whose puzzles are never D deep skipped).\n"
            "        Run again, it stops at once when the pool is full, else makes the\n"
            "        seeds again from S and skips the puzzles stored already.  Puzzles are\n"
            "        made on J threads (default: online CPUs) and stored in seed order, so\n"
            "        the pool depends on S and N alone.\n"
            "export  writes the stored puzzles (of game G, or all) to stdout as CSV, in\n"
            "        (game, id) order, one header line then a line per puzzle:\n"
            "        %s,%s,%s,%s,%s,%s,%s,%s,\n"
            "        %s,%s,%s,%s,%s\n"
            "        (RFC 4180 quoting; ratings written with the fewest digits that read\n"
            "        back to the same number, difficulty with four decimals).\n"
            "import  reads that CSV (FILE, or stdin) into the store.  Each row's id is\n"
            "        rebuilt and its other columns must match the puzzle it names; an id\n"
            "        stored already is skipped.  The first bad row stops the import, naming\n"
            "        its line and column; the rows before it stay imported, so a second\n"
            "        run of the fixed file completes it.\n"
            "\n"
            "--store URL  sqlite:PATH or postgresql://... (environment GAMEJUDGE_STORE;\n"
            "             default %s)\n"
            "\n"
            "Progress on stderr.  Exit status: 0 done; 1 the store, the input or the\n"
            "output failed; 2 a usage error or a bad row.\n",
            FILL_TRIES, col_names[0], col_names[1], col_names[2], col_names[3], col_names[4],
            col_names[5], col_names[6], col_names[7], col_names[8], col_names[9], col_names[10],
            col_names[11], col_names[12], STORE_URL_DEFAULT);
}

/* ---- common ------------------------------------------------------------- */

/* The options of a puzzles command, as given (NULL when not). */
typedef struct cmd_opts {
    const char *store, *game, *count, *band, *depth, *seed_from, *jobs;
    const char *file; /* import: the one argument that is no option */
} cmd_opts;

/* One option a command may take: its flag and where its value goes. */
typedef struct cmd_flag {
    const char *flag;
    size_t at; /* offsetof the value in cmd_opts */
} cmd_flag;

static const cmd_flag all_flags[] = {
    {"--store", offsetof(cmd_opts, store)}, {"--game", offsetof(cmd_opts, game)},
    {"--count", offsetof(cmd_opts, count)}, {"--band", offsetof(cmd_opts, band)},
    {"--depth", offsetof(cmd_opts, depth)}, {"--seed-from", offsetof(cmd_opts, seed_from)},
    {"--jobs", offsetof(cmd_opts, jobs)},
};

/* Whether `word` is one of the space-separated words of `list`. */
static bool listed(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = list; (at = strstr(at, word)) != NULL; at += n)
        if ((at == list || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0'))
            return true;
    return false;
}

/* Read argv into *o, taking only the flags named in `allowed` (their
 * names without the dashes, space-separated) as "--flag V" or "--flag=V", and one argument
 * that is no flag when `positional`: 0, or 2 after a line on stderr. */
static int read_opts(const char *cmd, const char *allowed, bool positional, int argc, char **argv,
                     cmd_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (!positional || o->file != NULL) {
                fprintf(stderr, "gamejudge: puzzles %s: unexpected argument '%s'\n", cmd, arg);
                return 2;
            }
            o->file = arg;
            continue;
        }
        size_t name_len = strcspn(arg, "=");
        const cmd_flag *f = NULL;
        for (size_t k = 0; k < sizeof all_flags / sizeof all_flags[0]; k++) {
            const char *name = all_flags[k].flag;
            if (strlen(name) == name_len && strncmp(arg, name, name_len) == 0 &&
                listed(allowed, name + 2))
                f = &all_flags[k];
        }
        if (f == NULL) {
            fprintf(stderr,
                    "gamejudge: puzzles %s: unknown option '%.*s' (see 'gamejudge puzzles "
                    "--help')\n",
                    cmd, (int)name_len, arg);
            return 2;
        }
        const char *value = arg[name_len] == '=' ? arg + name_len + 1 : NULL;
        if (value == NULL && i + 1 < argc)
            value = argv[++i];
        if (value == NULL) {
            fprintf(stderr, "gamejudge: puzzles %s: %s needs a value\n", cmd, f->flag);
            return 2;
        }
        *(const char **)((char *)o + f->at) = value;
    }
    return 0;
}

/* The value `text` of `flag`, a whole number in [lo, hi], into *out: 0,
 * or 2 after a line on stderr naming the flag. */
static int read_number(const char *cmd, const char *flag, const char *text, long long lo,
                       long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (text[0] == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi) {
        fprintf(stderr,
                "gamejudge: puzzles %s: %s expects a whole number from %lld to %lld, not "
                "'%s'\n",
                cmd, flag, lo, hi, text);
        return 2;
    }
    *out = v;
    return 0;
}

/* The game named `name`: NULL after a line on stderr naming the known ones. */
static const gj_game *game_named(const char *cmd, const char *name)
{
    const gj_game *g = games_find(name, strlen(name));
    if (g == NULL) {
        char names[256];
        games_list(names, sizeof names);
        fprintf(stderr, "gamejudge: puzzles %s: --game: unknown game '%s'; games: %s\n", cmd, name,
                names);
    }
    return g;
}

/* Open the store --store, GAMEJUDGE_STORE or the default names: 0 with
 * *out, or the exit status after a line on stderr (2 for a URL of no
 * known kind or "none", 1 when the store cannot be used). */
static int open_store(const char *cmd, const char *flag, gj_store **out)
{
    const char *url = flag != NULL ? flag : getenv("GAMEJUDGE_STORE");
    if (url == NULL || url[0] == '\0')
        url = STORE_URL_DEFAULT;
    char shown[512];
    store_redact(url, shown, sizeof shown);
    gj_error e;
    gj_error_clear(&e);
    if (store_open(url, out, &e) != 0) {
        fprintf(stderr, "gamejudge: puzzles %s: store %s: %s\n", cmd, shown, e.message);
        return e.kind == GJ_BAD_INPUT ? 2 : 1;
    }
    if (*out == NULL) {
        fprintf(stderr,
                "gamejudge: puzzles %s: --store none has no puzzles; name a store "
                "(sqlite:PATH or postgresql://...)\n",
                cmd);
        return 2;
    }
    return 0;
}

/* g's generator limits under cfg, as a server with that configuration
 * has them: the game's limits and the --generate-budget-ms ceiling.  The
 * commands use the defaults (config_defaults), so their puzzles are those
 * of a server that was given no --limit. */
static void limits_of(const gj_config *cfg, const gj_game *g, long limits[GEN_NLIMITS])
{
    memcpy(limits, config_game_limits(cfg, g), GJ_MAX_LIMITS * sizeof limits[0]);
    limits[GEN_LIMIT_BUDGET] = cfg->generate_budget_ms;
}

/* Seconds on a clock that only goes forward. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- fill --------------------------------------------------------------- */

/* What a fill asks of one game. */
typedef struct fill_ask {
    const gj_game *game;
    int band;  /* -1: any */
    int depth; /* 0: not asked (the search's default made, every depth counted) */
    long count;
    long long seed_from;
    int jobs;
    const gj_config *cfg; /* the defaults: the generator's limits */
} fill_ask;

/* One seed's outcome: made by a thread, stored by the caller. */
typedef struct fill_slot {
    bool done;
    int rc;
    puzzle p; /* when rc is 0 */
    gj_error e;
} fill_slot;

/* The threads that make puzzles ahead of the store.  Seed `next` is the
 * next to make and `taken` the next the caller stores; the seeds between
 * are at most `window`, seed s in slot[(s - seed_from) % window], so a
 * thread never writes a slot the caller has not emptied. */
typedef struct fill_makers {
    const fill_ask *a;
    long limits[GEN_NLIMITS];
    pthread_mutex_t lock;
    pthread_cond_t changed;
    long long next, taken;
    bool stop;
    int window;
    fill_slot *slot;
    pthread_t threads[FILL_JOBS_MAX];
    int started;
} fill_makers;

/* The puzzle GET /puzzle/{game}?seed=SEED&band=&depth=&tries=FILL_TRIES
 * answers, made under `limits`: 0, or -1 with *e (as puzzle_find). */
static int make_seed(const fill_ask *a, const long *limits, long long seed, puzzle *p, gj_error *e)
{
    json_t *params = json_object();
    bool built =
        params != NULL &&
        json_object_set_new(params, "seed", json_integer((json_int_t)seed)) == 0 &&
        (a->band < 0 ||
         json_object_set_new(params, "band", json_string(band_names[a->band])) == 0) &&
        (a->depth == 0 || json_object_set_new(params, "depth", json_integer(a->depth)) == 0) &&
        json_object_set_new(params, "tries", json_integer(FILL_TRIES)) == 0 &&
        json_object_set_new(params, "budget_ms", json_integer(FILL_BUDGET_MS)) == 0;
    bool seeded;
    int rc = built ? puzzle_find(a->game, params, limits, p, &seeded, e) : gj_fail_nomem(e);
    json_decref(params);
    return rc;
}

/* A making thread: takes the next seed while the window has room, makes
 * its puzzle and leaves it in its slot, until told to stop. */
static void *maker(void *arg)
{
    fill_makers *m = arg;
    pthread_mutex_lock(&m->lock);
    for (;;) {
        while (!m->stop && m->next - m->taken >= m->window)
            pthread_cond_wait(&m->changed, &m->lock);
        if (m->stop)
            break;
        long long seed = m->next++;
        pthread_mutex_unlock(&m->lock);
        fill_slot made;
        memset(&made, 0, sizeof made);
        gj_error_clear(&made.e);
        made.rc = make_seed(m->a, m->limits, seed, &made.p, &made.e);
        if (made.rc != 0)
            memset(&made.p, 0, sizeof made.p);
        made.done = true;
        pthread_mutex_lock(&m->lock);
        m->slot[(seed - m->a->seed_from) % m->window] = made;
        pthread_cond_broadcast(&m->changed);
    }
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

/* Stop the threads, wait for them and free what they made that was not
 * taken. */
static void makers_stop(fill_makers *m)
{
    pthread_mutex_lock(&m->lock);
    m->stop = true;
    pthread_cond_broadcast(&m->changed);
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < m->started; i++)
        pthread_join(m->threads[i], NULL);
    for (int i = 0; m->slot != NULL && i < m->window; i++)
        if (m->slot[i].done)
            puzzle_free(&m->slot[i].p);
    free(m->slot);
    pthread_cond_destroy(&m->changed);
    pthread_mutex_destroy(&m->lock);
}

/* Start a->jobs threads making a's seeds from a->seed_from: 0, or -1
 * (out of memory or threads; those started are stopped). */
static int makers_start(fill_makers *m, const fill_ask *a)
{
    memset(m, 0, sizeof *m);
    m->a = a;
    limits_of(a->cfg, a->game, m->limits);
    m->limits[GEN_LIMIT_BUDGET] = FILL_BUDGET_MS; /* the count bounds the search, not this */
    m->next = m->taken = a->seed_from;
    m->window = 2 * a->jobs;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->changed, NULL);
    m->slot = calloc((size_t)m->window, sizeof m->slot[0]);
    for (; m->slot != NULL && m->started < a->jobs; m->started++)
        if (pthread_create(&m->threads[m->started], NULL, maker, m) != 0)
            break;
    if (m->slot == NULL || m->started < a->jobs) {
        makers_stop(m);
        return -1;
    }
    return 0;
}

/* The next seed's outcome, in seed order, into *out (the caller owns its
 * puzzle); waits for it to be made. */
static void makers_take(fill_makers *m, fill_slot *out, long long *seed)
{
    pthread_mutex_lock(&m->lock);
    fill_slot *s = &m->slot[(m->taken - m->a->seed_from) % m->window];
    while (!s->done)
        pthread_cond_wait(&m->changed, &m->lock);
    *out = *s;
    s->done = false;
    *seed = m->taken++;
    pthread_cond_broadcast(&m->changed);
    pthread_mutex_unlock(&m->lock);
}

/* What a count of the stored pool looks for, and how many it found. */
typedef struct fill_count {
    int band, depth;
    long found;
} fill_count;

/* store_each's step of a count: one more when p is of the band and depth. */
static int count_one(void *ctx, const store_puzzle *p)
{
    fill_count *c = ctx;
    if ((c->band < 0 || p->band == c->band) && (c->depth == 0 || p->depth == c->depth))
        c->found++;
    return 0;
}

/* The tallies of one game's fill, for its progress lines. */
typedef struct fill_tally {
    long have, fresh, there, none;
    long long seed; /* the next seed */
    double start;
} fill_tally;

/* One line on stderr of where the fill of a's game stands; `final` for
 * the summary. */
static void fill_report(const fill_ask *a, const fill_tally *t, bool final)
{
    double took = now_s() - t->start;
    fprintf(stderr,
            "gamejudge: puzzles fill %s: %ld/%ld stored%s%ld new, %ld stored already, %ld seeds "
            "without one%s, %.1f new/s%s, next seed %lld\n",
            a->game->name, t->have, a->count, final ? ": " : " (", t->fresh, t->there, t->none,
            final ? "" : ")", took > 0 ? (double)t->fresh / took : 0.0, final ? " in all" : "",
            t->seed);
}

/* Fill a's game until the store holds a->count puzzles of its band and
 * depth: the exit status, after a line on stderr when it is not 0. */
static int fill_game(gj_store *s, const fill_ask *a)
{
    const char *name = a->game->name;
    gj_error e;
    gj_error_clear(&e);
    fill_tally t = {.seed = a->seed_from, .start = now_s()};
    fill_count c = {a->band, a->depth, 0};
    int rc = a->band < 0 && a->depth == 0 ? store_count(s, name, &c.found, &e)
                                          : store_each(s, name, count_one, &c, &e);
    if (rc != 0) {
        fprintf(stderr, "gamejudge: puzzles fill %s: the store: %s\n", name, e.message);
        return 1;
    }
    t.have = c.found;
    if (t.have >= a->count) {
        fill_report(a, &t, true);
        return 0;
    }
    fill_makers m;
    if (makers_start(&m, a) != 0) {
        fprintf(stderr, "gamejudge: puzzles fill %s: cannot start %d threads\n", name, a->jobs);
        return 1;
    }
    int status = 0;
    long dry = 0;
    double last = t.start;
    while (status == 0 && t.have < a->count) {
        fill_slot made;
        long long seed;
        makers_take(&m, &made, &seed);
        t.seed = seed + 1;
        if (made.rc != 0) {
            gj_error_kind k = made.e.kind;
            if (k == GJ_UNMET || k == GJ_OVERLOADED || k == GJ_CANCELLED) {
                t.none++;
                if (++dry >= FILL_DRY_MAX) {
                    fprintf(stderr,
                            "gamejudge: puzzles fill %s: no puzzle in %d seeds in a row (the "
                            "last, seed %lld: %s); the band or depth asked is out of its "
                            "reach\n",
                            name, FILL_DRY_MAX, seed, made.e.message);
                    status = 1;
                }
                continue;
            }
            fprintf(stderr, "gamejudge: puzzles fill %s: seed %lld: %s\n", name, seed,
                    made.e.message);
            status = k == GJ_BAD_INPUT ? 2 : 1;
            break;
        }
        store_puzzle sp = {.position = NULL};
        bool added = false;
        if (stored_puzzle_from(&made.p, &sp, &e) != 0 || store_put(s, &sp, &added, &e) != 0) {
            fprintf(stderr, "gamejudge: puzzles fill %s: seed %lld: the store: %s\n", name, seed,
                    e.message);
            status = 1;
        }
        store_puzzle_free(&sp);
        puzzle_free(&made.p);
        dry = 0;
        if (status != 0)
            break;
        if (added) {
            t.have++;
            t.fresh++;
        } else {
            t.there++;
        }
        if (now_s() - last >= 1.0 && t.have < a->count) {
            last = now_s();
            fill_report(a, &t, false);
        }
    }
    makers_stop(&m);
    if (status == 0)
        fill_report(a, &t, true);
    return status;
}

/* The number of online CPUs, within 1 and FILL_JOBS_MAX. */
static int cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > FILL_JOBS_MAX ? FILL_JOBS_MAX : (int)n;
}

/* `gamejudge puzzles fill`: the exit status. */
static int fill(int argc, char **argv)
{
    cmd_opts o;
    int rc = read_opts("fill", "store game count band depth seed-from jobs", false, argc, argv, &o);
    if (rc != 0)
        return rc;
    gj_config cfg;
    config_defaults(&cfg);
    fill_ask a = {.band = -1, .seed_from = 1, .jobs = cpus(), .cfg = &cfg};
    long long v;
    if (o.count == NULL) {
        fputs("gamejudge: puzzles fill: --count N is needed: how many puzzles the pool of each "
              "game should hold\n",
              stderr);
        return 2;
    }
    if (read_number("fill", "--count", o.count, 0, 100000000, &v) != 0)
        return 2;
    a.count = (long)v;
    if (o.depth != NULL) {
        if (read_number("fill", "--depth", o.depth, 1, PUZZLE_DEPTH_MAX, &v) != 0)
            return 2;
        a.depth = (int)v;
    }
    if (o.seed_from != NULL) {
        if (read_number("fill", "--seed-from", o.seed_from, 0, GEN_SEED_MAX, &v) != 0)
            return 2;
        a.seed_from = v;
    }
    if (o.jobs != NULL) {
        if (read_number("fill", "--jobs", o.jobs, 1, FILL_JOBS_MAX, &v) != 0)
            return 2;
        a.jobs = (int)v;
    }
    for (int b = 0; o.band != NULL && b < 3; b++)
        if (strcmp(o.band, band_names[b]) == 0)
            a.band = b;
    if (o.band != NULL && a.band < 0) {
        fprintf(stderr, "gamejudge: puzzles fill: --band expects easy, medium or hard, not '%s'\n",
                o.band);
        return 2;
    }
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    const gj_game *one = NULL;
    if (o.game != NULL && strcmp(o.game, "all") != 0 && (one = game_named("fill", o.game)) == NULL)
        return 2;
    gj_store *s;
    if ((rc = open_store("fill", o.store, &s)) != 0)
        return rc;
    for (size_t i = 0; rc == 0 && i < ngames; i++) {
        if (one != NULL && games[i] != one)
            continue;
        /* Every game asked for a depth some cannot reach: those are skipped
         * with a line; one game asked for it is refused by its search, naming why. */
        if (one == NULL && a.depth > puzzle_depth_max(games[i])) {
            fprintf(stderr,
                    "gamejudge: puzzles fill %s: skipped: its puzzles are at most %d deep\n",
                    games[i]->name, puzzle_depth_max(games[i]));
            continue;
        }
        a.game = games[i];
        rc = fill_game(s, &a);
    }
    store_close(s);
    return rc;
}

/* ---- export ------------------------------------------------------------- */

/* Append text as one CSV field (RFC 4180): in quotes, each quote written
 * twice, when it holds a comma, a quote or a line break; as it is else. */
static void put_field(gj_buf *b, const char *text)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        buf_puts(b, text);
        return;
    }
    buf_putc(b, '"');
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '"')
            buf_putc(b, '"');
        buf_putc(b, *c);
    }
    buf_putc(b, '"');
}

/* Append v with the fewest significant digits, 15 to 17, that read back
 * as v itself (so 1500 and 0.06 stay short and nothing is lost). */
static void put_real(gj_buf *b, double v)
{
    char text[40];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    buf_puts(b, text);
}

/* Where an export writes, and how far it got. */
typedef struct export_out {
    FILE *out;
    gj_buf line;
    long rows;
    double last; /* when the last progress line was written */
    bool failed; /* a write failed */
} export_out;

/* store_each's step of an export: p as one CSV line.  0, or 1 (stop) when
 * the output cannot be written. */
static int export_row(void *ctx, const store_puzzle *p)
{
    export_out *x = ctx;
    gj_buf *b = &x->line;
    char number[32];
    b->len = 0;
    put_field(b, p->id);
    buf_putc(b, ',');
    put_field(b, p->game);
    buf_putc(b, ',');
    put_field(b, p->position);
    buf_putc(b, ',');
    put_field(b, p->solution);
    buf_putc(b, ',');
    put_real(b, p->rating.rating);
    buf_putc(b, ',');
    put_real(b, p->rating.rd);
    buf_putc(b, ',');
    buf_put_long(b, p->plays);
    buf_putc(b, ',');
    put_field(b, p->themes);
    buf_putc(b, ',');
    buf_put_long(b, p->wins);
    buf_putc(b, ',');
    put_real(b, p->rating.vol);
    buf_putc(b, ',');
    buf_puts(b, p->band >= 0 && p->band <= 2 ? band_names[p->band] : "?");
    buf_putc(b, ',');
    buf_put_long(b, p->depth);
    buf_putc(b, ',');
    snprintf(number, sizeof number, "%.4f", p->difficulty);
    buf_puts(b, number);
    buf_putc(b, '\n');
    if (b->failed || fwrite(b->data, 1, b->len, x->out) != b->len) {
        x->failed = true;
        return 1;
    }
    x->rows++;
    if (now_s() - x->last >= 1.0) {
        x->last = now_s();
        fprintf(stderr, "gamejudge: puzzles export: %ld puzzles\n", x->rows);
    }
    return 0;
}

/* `gamejudge puzzles export`: the exit status. */
static int export(int argc, char **argv)
{
    cmd_opts o;
    int rc = read_opts("export", "store game", false, argc, argv, &o);
    if (rc != 0)
        return rc;
    const gj_game *g = NULL;
    if (o.game != NULL && strcmp(o.game, "all") != 0 && (g = game_named("export", o.game)) == NULL)
        return 2;
    gj_store *s;
    if ((rc = open_store("export", o.store, &s)) != 0)
        return rc;
    export_out x = {.out = stdout, .last = now_s()};
    buf_init(&x.line);
    for (int k = 0; k < NCOLS; k++) {
        buf_puts(&x.line, k > 0 ? "," : "");
        buf_puts(&x.line, col_names[k]);
    }
    buf_putc(&x.line, '\n');
    x.failed = x.line.failed || fwrite(x.line.data, 1, x.line.len, stdout) != x.line.len;
    gj_error e;
    gj_error_clear(&e);
    rc = x.failed ? 0 : store_each(s, g != NULL ? g->name : NULL, export_row, &x, &e);
    buf_free(&x.line);
    store_close(s);
    if (fflush(stdout) != 0 || ferror(stdout))
        x.failed = true;
    if (x.failed) {
        fprintf(stderr, "gamejudge: puzzles export: cannot write to stdout (after %ld puzzles)\n",
                x.rows);
        return 1;
    }
    if (rc < 0) {
        fprintf(stderr, "gamejudge: puzzles export: the store: %s (after %ld puzzles)\n", e.message,
                x.rows);
        return 1;
    }
    fprintf(stderr, "gamejudge: puzzles export: %ld puzzles\n", x.rows);
    return 0;
}

/* ---- import ------------------------------------------------------------- */

/* A CSV reader (RFC 4180, LF or CRLF line ends): one record at a time, its
 * fields NUL-terminated in `text`, field i at text.data + at[i]. */
typedef struct csv_in {
    FILE *in;
    long line, column; /* where the last byte read was: 1-based line, its byte on it */
    long record_line;  /* the line the record read last began on */
    gj_buf text;
    size_t at[CSV_FIELDS_MAX];
    int n;
} csv_in;

/* The next byte of r's input (EOF at its end), its place counted. */
static int csv_getc(csv_in *r)
{
    int c = getc(r->in);
    if (c == EOF)
        return c;
    if (r->column < 0) { /* the byte before was a line feed */
        r->line++;
        r->column = 0;
    }
    r->column = c == '\n' ? -1 : r->column + 1;
    return c;
}

/* Read the next record into r: 1, 0 at the end of the input, or -1 with
 * *e (bad_input naming the line and column; a read error). */
static int csv_record(csv_in *r, gj_error *e)
{
    r->text.len = 0;
    r->n = 0;
    int c = csv_getc(r);
    if (c == EOF)
        return ferror(r->in) ? gj_fail(e, GJ_INTERNAL, "cannot read the input") : 0;
    r->record_line = r->line;
    for (;;) {
        if (r->n == CSV_FIELDS_MAX)
            return gj_fail_at(e, r->line, r->column, "more than %d fields", CSV_FIELDS_MAX);
        r->at[r->n++] = r->text.len;
        if (c == '"') {
            long line = r->line, column = r->column;
            for (;;) {
                c = csv_getc(r);
                if (c == EOF)
                    return gj_fail_at(e, line, column,
                                      "the quoted field opened here never ends (a quote inside "
                                      "it is written twice)");
                if (c == '"' && (c = csv_getc(r)) != '"')
                    break;
                buf_putc(&r->text, (char)c);
            }
            if (c != ',' && c != '\n' && c != '\r' && c != EOF)
                return gj_fail_at(e, r->line, r->column,
                                  "a character after a quoted field's closing quote (a quote "
                                  "inside it is written twice)");
        } else {
            while (c != ',' && c != '\n' && c != '\r' && c != EOF) {
                if (c == '"')
                    return gj_fail_at(e, r->line, r->column,
                                      "a quote inside a field not in quotes (quote the field and "
                                      "write the quote twice)");
                buf_putc(&r->text, (char)c);
                c = csv_getc(r);
            }
        }
        buf_putc(&r->text, '\0');
        if ((long)r->text.len > CSV_RECORD_MAX)
            return gj_fail_at(e, r->record_line, 0, "a record of more than %ld bytes",
                              CSV_RECORD_MAX);
        if (r->text.failed)
            return gj_fail_nomem(e);
        if (c == ',') {
            c = csv_getc(r);
            continue;
        }
        if (c == '\r' && csv_getc(r) != '\n')
            return gj_fail_at(e, r->line, r->column, "a carriage return not before a line feed");
        if (c == EOF && ferror(r->in))
            return gj_fail(e, GJ_INTERNAL, "cannot read the input");
        return 1;
    }
}

/* Field i of r's record. */
static const char *csv_field(const csv_in *r, int i)
{
    return r->text.data + r->at[i];
}

/* What an import found so far. */
typedef struct import_tally {
    long rows, fresh, there;
    double start, last;
} import_tally;

/* A whole field as a real in [lo, hi]: 0, or -1. */
static int field_real(const char *t, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (t[0] == '\0' || t[0] == ' ' || *end != '\0' || errno != 0 || !isfinite(v) || v < lo ||
        v > hi)
        return -1;
    *out = v;
    return 0;
}

/* A whole field as a count in [0, hi] (digits only): 0, or -1. */
static int field_count(const char *t, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (t[0] < '0' || t[0] > '9' || *end != '\0' || errno != 0 || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Check one row of r against the puzzle its id names and store it: 0, or
 * -1 with *e (bad_input "line N: Column: why" for a bad row; the store's
 * error else).  col[k] is column k's field; cfg holds the generator's limits. */
static int import_row(gj_store *s, const gj_config *cfg, const csv_in *r, const int *col,
                      import_tally *t, gj_error *e)
{
    long line = r->record_line;
    const char *f[NCOLS];
    for (int k = 0; k < NCOLS; k++)
        f[k] = csv_field(r, col[k]);
    const gj_game *g = games_find(f[COL_GAME], strlen(f[COL_GAME]));
    if (g == NULL) {
        char names[256];
        games_list(names, sizeof names);
        return gj_fail(e, GJ_BAD_INPUT, "line %ld: Game: unknown game '%.40s'; games: %s", line,
                       f[COL_GAME], names);
    }
    if (strlen(f[COL_ID]) >= STORE_ID_MAX)
        return gj_fail(e, GJ_BAD_INPUT, "line %ld: PuzzleId: longer than %d bytes", line,
                       STORE_ID_MAX - 1);
    long limits[GEN_NLIMITS];
    limits_of(cfg, g, limits);
    puzzle p;
    gj_error why;
    gj_error_clear(&why);
    if (puzzle_from_id(g, f[COL_ID], limits, &p, &why) != 0)
        return gj_fail(e, GJ_BAD_INPUT, "line %ld: PuzzleId: names no %s puzzle: %s", line, g->name,
                       why.message);
    store_puzzle sp = {.position = NULL};
    int rc = stored_puzzle_from(&p, &sp, e);
    puzzle_free(&p);
    if (rc != 0)
        return -1;
    char depth[16], difficulty[32];
    snprintf(depth, sizeof depth, "%d", sp.depth);
    snprintf(difficulty, sizeof difficulty, "%.4f", sp.difficulty);
    const struct {
        int col;
        const char *want;
    } same[] = {{COL_POSITION, sp.position}, {COL_MOVES, sp.solution},
                {COL_THEMES, sp.themes},     {COL_BAND, band_names[sp.band]},
                {COL_DEPTH, depth},          {COL_DIFFICULTY, difficulty}};
    for (size_t k = 0; rc == 0 && k < sizeof same / sizeof same[0]; k++)
        if (strcmp(f[same[k].col], same[k].want) != 0)
            rc = gj_fail(e, GJ_BAD_INPUT, "line %ld: %s: not the %s of the puzzle its id names",
                         line, col_names[same[k].col],
                         same[k].col == COL_MOVES ? "solution" : col_names[same[k].col]);
    if (rc == 0 &&
        field_real(f[COL_RATING], GLICKO_RATING_MIN, GLICKO_RATING_MAX, &sp.rating.rating) != 0)
        rc = gj_fail(e, GJ_BAD_INPUT,
                     "line %ld: Rating: expected a number from %g to %g, not '%.40s'", line,
                     GLICKO_RATING_MIN, GLICKO_RATING_MAX, f[COL_RATING]);
    if (rc == 0 && field_real(f[COL_RD], GLICKO_RD_MIN, GLICKO_RD_MAX, &sp.rating.rd) != 0)
        rc = gj_fail(e, GJ_BAD_INPUT,
                     "line %ld: RatingDeviation: expected a number from %g to %g, not '%.40s'",
                     line, GLICKO_RD_MIN, GLICKO_RD_MAX, f[COL_RD]);
    if (rc == 0 && field_real(f[COL_VOL], GLICKO_VOL_MIN, GLICKO_VOL_MAX, &sp.rating.vol) != 0)
        rc = gj_fail(e, GJ_BAD_INPUT,
                     "line %ld: Volatility: expected a number from %g to %g, not '%.40s'", line,
                     GLICKO_VOL_MIN, GLICKO_VOL_MAX, f[COL_VOL]);
    if (rc == 0 && field_count(f[COL_PLAYS], LONG_MAX, &sp.plays) != 0)
        rc = gj_fail(e, GJ_BAD_INPUT,
                     "line %ld: NbPlays: expected a whole number from 0, not "
                     "'%.40s'",
                     line, f[COL_PLAYS]);
    if (rc == 0 && field_count(f[COL_WINS], sp.plays, &sp.wins) != 0)
        rc = gj_fail(e, GJ_BAD_INPUT,
                     "line %ld: Wins: expected a whole number from 0 to NbPlays (%ld), not "
                     "'%.40s'",
                     line, sp.plays, f[COL_WINS]);
    bool added = false;
    if (rc == 0)
        rc = store_put(s, &sp, &added, e);
    store_puzzle_free(&sp);
    if (rc != 0)
        return -1;
    t->rows++;
    if (added)
        t->fresh++;
    else
        t->there++;
    return 0;
}

/* Read r's header into col (column k is field col[k]): 0, or -1 with *e
 * naming a column missing or named twice. */
static int import_header(csv_in *r, int col[NCOLS], gj_error *e)
{
    int rc = csv_record(r, e);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return gj_fail(e, GJ_BAD_INPUT, "line 1: no header: the input is empty");
    /* A byte order mark some editors put first is no part of the name. */
    char *first = r->text.data;
    if (strncmp(first, "\xEF\xBB\xBF", 3) == 0)
        memmove(first, first + 3, strlen(first + 3) + 1);
    for (int k = 0; k < NCOLS; k++)
        col[k] = -1;
    for (int i = 0; i < r->n; i++)
        for (int k = 0; k < NCOLS; k++) {
            if (strcmp(csv_field(r, i), col_names[k]) != 0)
                continue;
            if (col[k] >= 0)
                return gj_fail(e, GJ_BAD_INPUT, "line %ld: the column %s is named twice",
                               r->record_line, col_names[k]);
            col[k] = i;
        }
    for (int k = 0; k < NCOLS; k++)
        if (col[k] < 0)
            return gj_fail(e, GJ_BAD_INPUT,
                           "line %ld: no column %s: the header needs %s,%s,%s,%s,%s,%s,%s,%s,%s,"
                           "%s,%s,%s,%s",
                           r->record_line, col_names[k], col_names[0], col_names[1], col_names[2],
                           col_names[3], col_names[4], col_names[5], col_names[6], col_names[7],
                           col_names[8], col_names[9], col_names[10], col_names[11], col_names[12]);
    return 0;
}

/* One line on stderr of where an import stands. */
static void import_report(const import_tally *t, const char *how)
{
    double took = now_s() - t->start;
    fprintf(stderr,
            "gamejudge: puzzles import: %s%ld rows, %ld new, %ld stored already, %.1f rows/s\n",
            how, t->rows, t->fresh, t->there, took > 0 ? (double)t->rows / took : 0.0);
}

/* Import r's records after the header (`fields` fields, column k in
 * field col[k]) until the end or the first bad row: the exit status,
 * after a line on stderr when it is not 0, and a summary. */
static int import_rows(gj_store *s, csv_in *r, const int *col, int fields)
{
    gj_config cfg;
    config_defaults(&cfg);
    import_tally t = {.start = now_s()};
    t.last = t.start;
    gj_error e;
    gj_error_clear(&e);
    int rc = 0, more;
    while (rc == 0 && (more = csv_record(r, &e)) != 0) {
        if (more < 0)
            rc = -1;
        else if (r->n != fields)
            rc = gj_fail(&e, GJ_BAD_INPUT, "line %ld: %d fields where the header has %d",
                         r->record_line, r->n, fields);
        else
            rc = import_row(s, &cfg, r, col, &t, &e);
        if (rc == 0 && now_s() - t.last >= 1.0) {
            t.last = now_s();
            import_report(&t, "");
        }
    }
    if (rc == 0) {
        import_report(&t, "");
        return 0;
    }
    fprintf(stderr, "gamejudge: puzzles import: %s\n", e.message);
    char how[96];
    snprintf(how, sizeof how, "stopped at line %ld; before it ", r->record_line);
    import_report(&t, how);
    return e.kind == GJ_BAD_INPUT ? 2 : 1;
}

/* `gamejudge puzzles import`: the exit status. */
static int import(int argc, char **argv)
{
    cmd_opts o;
    int rc = read_opts("import", "store", true, argc, argv, &o);
    if (rc != 0)
        return rc;
    bool from_stdin = o.file == NULL || strcmp(o.file, "-") == 0;
    csv_in r = {.in = from_stdin ? stdin : fopen(o.file, "rb"), .line = 1};
    if (r.in == NULL) {
        fprintf(stderr, "gamejudge: puzzles import: cannot open %s: %s\n", o.file, strerror(errno));
        return 2;
    }
    buf_init(&r.text);
    int col[NCOLS];
    gj_error e;
    gj_error_clear(&e);
    gj_store *s = NULL;
    if (import_header(&r, col, &e) != 0) {
        fprintf(stderr, "gamejudge: puzzles import: %s\n", e.message);
        rc = e.kind == GJ_BAD_INPUT ? 2 : 1;
    } else if ((rc = open_store("import", o.store, &s)) == 0) {
        rc = import_rows(s, &r, col, r.n);
    }
    store_close(s);
    buf_free(&r.text);
    if (!from_stdin)
        fclose(r.in);
    return rc;
}

int puzzles_main(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puzzles_help(stdout);
            return 0;
        }
    if (argc < 1) {
        puzzles_help(stderr);
        return 2;
    }
    if (strcmp(argv[0], "fill") == 0)
        return fill(argc - 1, argv + 1);
    if (strcmp(argv[0], "export") == 0)
        return export(argc - 1, argv + 1);
    if (strcmp(argv[0], "import") == 0)
        return import(argc - 1, argv + 1);
    fprintf(stderr,
            "gamejudge: puzzles: unknown command '%s'; the commands are fill, export and "
            "import (see 'gamejudge puzzles --help')\n",
            argv[0]);
    return 2;
}
