/* measure.c - run a command RUNS times on one input and report the median.
 *
 *   measure RUNS INPUT OUTPUT PROGRAM [ARGS...]
 *
 * Each run is a fresh process (fork + exec) with stdin from INPUT and stdout
 * to OUTPUT (use /dev/null to discard), so the time is the whole process:
 * start-up, reading, solving, writing.  Prints one line:
 *   median_seconds min_seconds max_peak_rss_kib exit_status
 * Peak memory comes from wait4's rusage, the kernel's own high-water mark. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One run: returns the exit status (or 128 + signal) and fills the time and rss. */
static int run_once(char **argv, const char *in, const char *out, double *secs, long *rss)
{
    double start = now();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fi = open(in, O_RDONLY), fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fi < 0 || fo < 0 || dup2(fi, 0) < 0 || dup2(fo, 1) < 0)
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return -1;
    *secs = now() - start;
    *rss = ru.ru_maxrss;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fputs("usage: measure RUNS INPUT OUTPUT PROGRAM [ARGS...]\n", stderr);
        return 2;
    }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > 1000)
        return 2;
    double *t = malloc((size_t)runs * sizeof *t);
    long peak = 0;
    int worst = 0;
    if (t == NULL)
        return 1;
    for (int i = 0; i < runs; i++) {
        long rss = 0;
        int rc = run_once(argv + 4, argv[2], argv[3], &t[i], &rss);
        if (rc != 0)
            worst = rc;
        if (rss > peak)
            peak = rss;
    }
    qsort(t, (size_t)runs, sizeof *t, by_value);
    double median = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    printf("%.4f %.4f %ld %d\n", median, t[0], peak, worst);
    free(t);
    return 0;
}
