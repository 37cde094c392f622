/* harness.h - helpers shared by the Check unit tests of the solvers.
 *
 * Every helper goes through the public gj_game interface, exactly as the
 * server does, so a test exercises parse -> solve -> write end to end. */
#ifndef GJ_TEST_HARNESS_H
#define GJ_TEST_HARNESS_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"

typedef enum { IN_TEXT, IN_JSON } harness_input;
typedef enum { OUT_TEXT, OUT_JSON } harness_output;

/* Parse `in` as `how`, solve under the game's default limits (or `limits`
 * when not NULL), write as `out`.  Returns a malloc'd NUL-terminated answer,
 * or NULL with *e filled. */
char *harness_run(const gj_game *g, harness_input how, const char *in, size_t len,
                  harness_output out, const long *limits, gj_error *e);

/* Like harness_run with text in and text out, default limits, on a C string. */
char *harness_text(const gj_game *g, const char *in);

/* The error of a run that must fail (text input, default limits).  Fails the
 * current test when the run succeeds. */
gj_error harness_text_error(const gj_game *g, const char *in);
gj_error harness_json_error(const gj_game *g, const char *in);

/* The i-th game of games.def; fails the test past the last. */
const gj_game *harness_game(int i);

/* /analyze's answer (line_analyze, as the handler runs it) to the object
 * req under the default limits: malloc'd NUL-terminated text, or NULL with
 * *e filled. */
char *harness_analyze(const gj_game *g, const json_t *req, gj_error *e);

/* The analysis entry of s->moves[i], a move ranked on puzzle step s's
 * parsed position, as JSON (its "after" the diff): to json_decref. */
struct puzzle_step;
json_t *harness_step_entry(const struct puzzle_step *s, long i);

/* Whole file into a malloc'd NUL-terminated buffer, or NULL. */
char *harness_read_file(const char *path, size_t *len);

/* Directory holding the public test data (tests/data), from GJ_DATA_DIR. */
const char *harness_data_dir(void);

/* Deterministic generator (splitmix64) for the random cross-checks. */
uint64_t rng_next(uint64_t *state);
/* Uniform in [0, n), n > 0. */
uint64_t rng_below(uint64_t *state, uint64_t n);
/* value[0..count) = 1..count in an order drawn from *state (Fisher-Yates). */
void rng_shuffled(uint64_t *state, int *value, long count);

/* The position body[0..len) gives read by rd (game.h's gj_body_reader)
 * fed in pieces: piece 0 means the whole body in one feed (an empty body
 * too, when feed_empty), 1 one byte at a time, else random sizes up to
 * piece drawn from *rng.  The length announced at open is drawn too: none
 * (chunked), the true one, a false one shorter or longer, or one no memory
 * could hold, since it is a hint that must not change what is read.  NULL
 * with *e when the reader refuses. */
void *harness_read_fed(const gj_body_reader *rd, const char *body, size_t len, const long *lim,
                       size_t piece, int feed_empty, uint64_t *rng, gj_error *e);

/* One named test of a table-built suite. */
typedef struct harness_case {
    const char *name;
    const TTest *test;
} harness_case;

/* A suite with one test case per entry, each allowed `timeout` seconds (0:
 * Check's default, CK_DEFAULT_TIMEOUT or 4 s). */
Suite *harness_suite(const char *name, const harness_case *cases, size_t n, double timeout);

/* Add one test case per entry to `s`, with a timeout as harness_suite. */
void harness_add(Suite *s, const harness_case *cases, size_t n, double timeout);

/* The tag of the tests on positions near the limits, of the levels'
 * calibration and of the longest random sweeps (each program keeps a
 * quicker one), a few seconds each: `make test-unit`, the quick loop, runs
 * with CK_EXCLUDE_TAGS=large and leaves them to `make check`. */
#define HARNESS_LARGE "large"

/* harness_add, each test case tagged with `tags` (Check's, space separated). */
void harness_add_tagged(Suite *s, const harness_case *cases, size_t n, double timeout,
                        const char *tags);

/* Add a test case `name` running `test` once for each _i in [0, n): a table
 * of inputs, each its own test. */
void harness_add_loop(Suite *s, const char *name, const TTest *test, int n, double timeout);

/* Run every test of `s` (each in its own process), free it, and return the
 * exit status for main: 0 when all passed. */
int harness_main(Suite *s);

#endif
