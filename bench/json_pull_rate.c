/* json_pull_rate.c - the chunk-fed JSON reader (json_pull.h) against
 * jansson's tree (jin_load_object) on one body: values per second and peak
 * memory, run by hand.
 *
 *   build/bench/json_pull_rate FILE [ROUNDS]      (default 5 rounds)
 *
 * FILE is a body such as `build/bench/gen matrix 2000 1 SEED json` writes
 * (31 MB).  Each round runs, in this order, each in a fresh child process
 * so its peak resident set is its own: "tree" reads the file whole and
 * loads it with jin_load_object (then walks nothing: the tree is the
 * cost); "pull" reads it whole and feeds it to a jpull in 64 KiB pieces,
 * counting the events; "stream" feeds the jpull from read() in 64 KiB
 * pieces without ever holding the body, as a body arriving over HTTP
 * would.  The parse is timed (not the file's read, except for "stream",
 * whose reads are its feeding), and the peak is getrusage's ru_maxrss.
 * Printed: per mode the median seconds, values (or events) per second and
 * peak over the body's size, then pull / tree of the medians and of each
 * round's ratio, which is the figure to read on a shared machine. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "json_in.h"
#include "json_pull.h"

#define PIECE      65536
#define MAX_ROUNDS 50

enum { TREE, PULL, STREAM, MODES };
static const char *const mode_name[MODES] = {"tree", "pull", "stream"};

/* Seconds on the monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The consumer: counts the events. */
static int count(void *ctx, const jpull_event *ev, gj_error *e)
{
    (void)ev;
    (void)e;
    (*(long *)ctx)++;
    return JPULL_GO;
}

/* The whole file, malloc'd, or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    struct stat st;
    char *p = NULL;
    if (fstat(fileno(f), &st) == 0 && (p = malloc((size_t)st.st_size + 1)) != NULL)
        *len = fread(p, 1, (size_t)st.st_size, f);
    fclose(f);
    return p;
}

/* Values in jansson's tree (the events json_pull gives but the ends and
 * keys: counted apart), walked with a stack of arrays and objects. */
static long tree_values(json_t *root)
{
    long n = 0;
    json_t **stack = malloc(4096 * sizeof *stack);
    size_t top = 0;
    if (stack == NULL)
        return -1;
    stack[top++] = root;
    while (top > 0) {
        json_t *v = stack[--top];
        n++;
        if (json_is_array(v)) {
            for (size_t i = 0; i < json_array_size(v) && top < 4096; i++) {
                json_t *x = json_array_get(v, i);
                if (json_is_array(x) || json_is_object(x))
                    stack[top++] = x;
                else
                    n++;
            }
        } else if (json_is_object(v)) {
            const char *k;
            json_t *x;
            json_object_foreach(v, k, x)
            {
                if ((json_is_array(x) || json_is_object(x)) && top < 4096)
                    stack[top++] = x;
                else
                    n++;
            }
        }
    }
    free(stack);
    return n;
}

/* One mode in this process: prints "seconds count peak_kb" to fd. */
static int run(int mode, const char *path, int fd)
{
    double t0 = 0, t1 = 0;
    long n = 0;
    gj_error e;
    if (mode == STREAM) {
        int in = open(path, O_RDONLY);
        char *piece = malloc(PIECE);
        jpull *jp = jpull_new(count, &n);
        if (in < 0 || piece == NULL || jp == NULL)
            return 1;
        t0 = now();
        ssize_t got;
        while ((got = read(in, piece, PIECE)) > 0)
            if (jpull_feed(jp, piece, (size_t)got, &e) != 0)
                break;
        if (got != 0 || jpull_end(jp, &e) != 0)
            return fprintf(stderr, "stream: %s\n", e.message), 1;
        t1 = now();
        jpull_free(jp);
    } else {
        size_t len = 0;
        char *body = slurp(path, &len);
        if (body == NULL)
            return 1;
        t0 = now();
        if (mode == TREE) {
            json_t *root = jin_load_object(body, len, NULL, &e);
            if (root == NULL)
                return fprintf(stderr, "tree: %s\n", e.message), 1;
            t1 = now();
            n = tree_values(root);
            json_decref(root);
        } else {
            jpull *jp = jpull_new(count, &n);
            for (size_t at = 0; at < len; at += PIECE)
                if (jpull_feed(jp, body + at, len - at < PIECE ? len - at : PIECE, &e) != 0)
                    return fprintf(stderr, "pull: %s\n", e.message), 1;
            if (jpull_end(jp, &e) != 0)
                return fprintf(stderr, "pull: %s\n", e.message), 1;
            t1 = now();
            jpull_free(jp);
        }
        free(body);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    dprintf(fd, "%.6f %ld %ld\n", t1 - t0, n, ru.ru_maxrss);
    return 0;
}

/* Sort helper for doubles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n doubles (sorted in place). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Run the rounds, each mode in a child, and print the table. */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [ROUNDS]\n", argv[0]);
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 5;
    struct stat st;
    if (stat(argv[1], &st) != 0)
        return perror(argv[1]), 1;
    double secs[MODES][MAX_ROUNDS], peak[MODES][MAX_ROUNDS], ratio[MAX_ROUNDS];
    long counted[MODES] = {0};
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < MODES; m++) {
            int fds[2];
            if (pipe(fds) != 0)
                return 1;
            pid_t pid = fork();
            if (pid == 0) {
                close(fds[0]);
                _exit(run(m, argv[1], fds[1]));
            }
            close(fds[1]);
            char line[128] = "";
            ssize_t got = read(fds[0], line, sizeof line - 1);
            close(fds[0]);
            int status;
            waitpid(pid, &status, 0);
            long kb = 0;
            if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
                sscanf(line, "%lf %ld %ld", &secs[m][r], &counted[m], &kb) != 3) {
                fprintf(stderr, "%s failed\n", mode_name[m]);
                return 1;
            }
            peak[m][r] = (double)kb * 1024;
        }
    for (int r = 0; r < rounds; r++)
        ratio[r] = secs[PULL][r] / secs[TREE][r];
    double body = (double)st.st_size;
    printf("body %.1f MB, %d rounds; tree counts values, pull and stream events\n\n", body / 1e6,
           rounds);
    printf("| reader | median s | million per s | peak RSS / body |\n|---|---|---|---|\n");
    double med[MODES];
    for (int m = 0; m < MODES; m++) {
        med[m] = median(secs[m], rounds);
        printf("| %s | %.3f | %.1f | %.2f |\n", mode_name[m], med[m], counted[m] / med[m] / 1e6,
               median(peak[m], rounds) / body);
    }
    printf("\npull / tree: %.2f of the medians, %.2f the median of the rounds' ratios\n",
           med[PULL] / med[TREE], median(ratio, rounds));
    return 0;
}
