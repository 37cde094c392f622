/* game_loop.c - a game's own cost for one tiny request, in process: the
 * parse, solve and write POST /solve runs for the same body and answer
 * format (solve.h's solve_position), in a loop, with no HTTP around it.
 * Issue 34's target for a tiny request is the bare server's CPU plus this
 * plus a quarter of the bare server's; bench/tiny.sh prints it.
 *
 *   game_loop GAME FILE [SECONDS]
 *
 * Runs for SECONDS (default 1) after a tenth of that as warm-up, and prints
 * "GAME US" on stdout: the process's CPU time over the timed calls, in
 * microseconds per call.  The body is read as judge text and answered as
 * text, as wrk's requests of bench/post.lua are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games.h"
#include "solve.h"

/* The process's CPU time in seconds. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall-clock seconds, for the loop's length. */
static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The whole file, with the NUL guard the daemon's body has; exits on error. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            char *more = realloc(buf, cap + 1);
            if (more == NULL)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "game_loop: out of memory\n");
        exit(1);
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Solve the body once as the daemon would; exits when it fails. */
static void one(const gj_game *g, const long *limits, const char *body, size_t len)
{
    gj_buf out;
    solve_timing t;
    gj_error e;
    buf_init(&out);
    if (solve_position(g, limits, MEDIA_TEXT, body, len, MEDIA_TEXT, &out, &t, &e) != 0) {
        fprintf(stderr, "game_loop: %s: %s\n", g->name, e.message);
        exit(1);
    }
    buf_free(&out);
}

/* Times the game's loop over the file and prints its CPU per call. */
int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: game_loop GAME FILE [SECONDS]\n");
        return 2;
    }
    const gj_game *g = games_find(argv[1], strlen(argv[1]));
    if (g == NULL) {
        fprintf(stderr, "game_loop: unknown game '%s'\n", argv[1]);
        return 2;
    }
    double seconds = argc > 3 ? atof(argv[3]) : 1.0;
    size_t len;
    char *body = read_all(argv[2], &len);
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    for (double end = wall_seconds() + seconds / 10; wall_seconds() < end;)
        one(g, limits, body, len);
    long calls = 0;
    double start = cpu_seconds(), end = wall_seconds() + seconds;
    while (calls % 64 != 0 || wall_seconds() < end) {
        one(g, limits, body, len);
        calls++;
    }
    printf("%s %.3f\n", g->name, (cpu_seconds() - start) * 1e6 / (double)calls);
    free(body);
    return 0;
}
