/* test_cancel.c - the cancel flag (solvers/base/cancel.h) and each game's
 * checks of it: a flag raised before a solve that is large enough to reach
 * a check makes the solve fail with GJ_CANCELLED, and the same position
 * solves normally with nothing bound. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cancel.h"
#include "games.h"
#include "harness.h"

START_TEST(test_unbound_never_cancels)
{
    gj_error e;
    gj_error_clear(&e);
    gj_cancel_bind(NULL);
    ck_assert_int_eq(gj_cancel_check(&e), 0);
    ck_assert_int_eq(e.kind, GJ_OK);
}
END_TEST

START_TEST(test_raise_keeps_first_reason)
{
    gj_cancel c;
    gj_error e;
    gj_error_clear(&e);
    gj_cancel_init(&c, 0);
    gj_cancel_bind(&c);
    ck_assert_int_eq(gj_cancel_check(&e), 0);
    ck_assert_int_eq(gj_cancel_reason_of(&c), GJ_CANCEL_NONE);
    gj_cancel_raise(&c, GJ_CANCEL_GONE);
    gj_cancel_raise(&c, GJ_CANCEL_DEADLINE);
    ck_assert_int_eq(gj_cancel_reason_of(&c), GJ_CANCEL_GONE);
    ck_assert_int_eq(gj_cancel_check(&e), -1);
    ck_assert_int_eq(e.kind, GJ_CANCELLED);
    ck_assert_ptr_nonnull(strstr(e.message, "closed its connection"));
    gj_cancel_bind(NULL);
    gj_error_clear(&e);
    ck_assert_int_eq(gj_cancel_check(&e), 0); /* unbound again: the flag no longer applies */
}
END_TEST

START_TEST(test_deadline)
{
    gj_cancel past, future;
    gj_error e;
    gj_error_clear(&e);
    gj_cancel_init(&future, gj_cancel_now_ns() + 3600ull * 1000000000ull);
    gj_cancel_bind(&future);
    ck_assert_int_eq(gj_cancel_check(&e), 0);
    gj_cancel_init(&past, gj_cancel_now_ns() - 1);
    gj_cancel_bind(&past);
    ck_assert_int_eq(gj_cancel_check(&e), -1);
    ck_assert_int_eq(e.kind, GJ_CANCELLED);
    ck_assert_int_eq(gj_cancel_reason_of(&past), GJ_CANCEL_DEADLINE);
    ck_assert_ptr_nonnull(strstr(e.message, "deadline"));
    gj_cancel_bind(NULL);
}
END_TEST

/* ---- inputs large enough to reach a check (fixed seeds) -------------- */

static unsigned long long seed;

/* splitmix64: the tests' inputs are the same on every run. */
static unsigned long long next_random(void)
{
    unsigned long long z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A 400 x 400 permutation: 160000 values, past the walk's 65536 between checks. */
static void matrix_input(gj_buf *b)
{
    long n = 400, nn = n * n;
    long *v = malloc((size_t)nn * sizeof *v);
    for (long i = 0; i < nn; i++)
        v[i] = i + 1;
    for (long i = nn - 1; i > 0; i--) {
        long j = (long)(next_random() % (unsigned long long)(i + 1)), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    buf_put_long(b, n);
    buf_puts(b, " 3\n");
    for (long i = 0; i < nn; i++) {
        buf_put_long(b, v[i]);
        buf_putc(b, (i + 1) % n == 0 ? '\n' : ' ');
    }
    free(v);
}

/* 50000 distinct shortcuts (x, y) = (i, 2i + 1) and 50000 queries. */
static void nim_input(gj_buf *b)
{
    long n = 50000;
    buf_put_long(b, n);
    buf_putc(b, ' ');
    buf_put_long(b, n);
    buf_putc(b, '\n');
    for (long i = 0; i < n; i++) {
        buf_put_long(b, i);
        buf_putc(b, ' ');
        buf_put_long(b, 2 * i + 1);
        buf_putc(b, '\n');
    }
    for (long i = 0; i < n; i++) {
        buf_put_long(b, (long)(next_random() % 100000));
        buf_putc(b, ' ');
        buf_put_long(b, (long)(next_random() % 100000));
        buf_putc(b, '\n');
    }
}

/* A 300 x 300 bar with a few squares eaten: past the 64 rows between checks. */
static void chocolate_input(gj_buf *b)
{
    long n = 300;
    buf_put_long(b, n);
    buf_putc(b, '\n');
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++)
            buf_putc(b, next_random() % 100 == 0 ? 'X' : '-');
        buf_putc(b, '\n');
    }
}

/* Two 10 x 10 boards: C(20, 10) = 184756 states, past the 65536 between checks. */
static void chess_input(gj_buf *b)
{
    buf_puts(b, "10 10\n");
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 10; i++)
            for (int j = 0; j < 10; j++) {
                buf_put_long(b, (long)(next_random() % 100001));
                buf_putc(b, j == 9 ? '\n' : ' ');
            }
}

/* Parse `in` for g with its largest limits and solve it with `flag` bound
 * (NULL: none): the solve's return, *e its error. */
static int solve_with(const gj_game *g, const gj_buf *in, gj_cancel *flag, gj_error *e)
{
    long lim[GJ_MAX_LIMITS];
    for (int i = 0; i < g->nlimits; i++)
        lim[i] = g->limits[i].max;
    gj_error_clear(e);
    void *pos = g->parse_text(in->data, in->len, lim, e);
    ck_assert_msg(pos != NULL, "%s: %s", g->name, e->message);
    gj_cancel_bind(flag);
    int rc = g->solve(pos, e);
    gj_cancel_bind(NULL);
    g->free_position(pos);
    return rc;
}

/* The game's solve stops on a raised flag and runs without one. */
static void check_game_cancels(const char *name, void (*make)(gj_buf *))
{
    const gj_game *g = games_find(name, strlen(name));
    ck_assert_ptr_nonnull(g);
    gj_buf in;
    buf_init(&in);
    seed = 42;
    make(&in);
    ck_assert(!in.failed);
    gj_cancel flag;
    gj_error e;
    gj_cancel_init(&flag, 0);
    gj_cancel_raise(&flag, GJ_CANCEL_GONE);
    ck_assert_int_eq(solve_with(g, &in, &flag, &e), -1);
    ck_assert_int_eq(e.kind, GJ_CANCELLED);
    ck_assert_int_eq(solve_with(g, &in, NULL, &e), 0);
    gj_cancel_init(&flag, gj_cancel_now_ns() - 1); /* a deadline already passed */
    ck_assert_int_eq(solve_with(g, &in, &flag, &e), -1);
    ck_assert_int_eq(e.kind, GJ_CANCELLED);
    ck_assert_int_eq(gj_cancel_reason_of(&flag), GJ_CANCEL_DEADLINE);
    buf_free(&in);
}

START_TEST(test_matrix_game_cancels)
{
    check_game_cancels("matrix-game", matrix_input);
}
END_TEST

START_TEST(test_nim_shortcuts_cancels)
{
    check_game_cancels("nim-shortcuts", nim_input);
}
END_TEST

START_TEST(test_prime_chocolate_cancels)
{
    check_game_cancels("prime-chocolate", chocolate_input);
}
END_TEST

START_TEST(test_staircase_chess_cancels)
{
    check_game_cancels("staircase-chess", chess_input);
}
END_TEST

/* A small position never reaches a check: a raised flag changes nothing
 * (so a tiny solve that started just before its deadline still answers). */
START_TEST(test_small_solve_ignores_flag)
{
    const gj_game *g = games_find("staircase-chess", strlen("staircase-chess"));
    gj_buf in;
    buf_init(&in);
    buf_puts(&in, g->example_text);
    gj_cancel flag;
    gj_error e;
    gj_cancel_init(&flag, 0);
    gj_cancel_raise(&flag, GJ_CANCEL_GONE);
    ck_assert_int_eq(solve_with(g, &in, &flag, &e), 0);
    buf_free(&in);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *cancel_suite(void)
{
    const harness_case cases[] = {
        {"flag", test_unbound_never_cancels},
        {"flag", test_raise_keeps_first_reason},
        {"flag", test_deadline},
        {"games", test_matrix_game_cancels},
        {"games", test_nim_shortcuts_cancels},
        {"games", test_prime_chocolate_cancels},
        {"games", test_staircase_chess_cancels},
        {"games", test_small_solve_ignores_flag},
    };
    return harness_suite("cancel", cases, sizeof cases / sizeof cases[0], 60);
}

int main(void)
{
    return harness_main(cancel_suite());
}
