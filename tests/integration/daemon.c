/* daemon.c - child-process control for the integration tests. */
#include "daemon.h"

#include "client.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *daemon_binary(void)
{
    const char *bin = getenv("GJ_BIN");
    return bin ? bin : "build/gamejudge";
}

const char *daemon_spec(void)
{
    static char path[4096];
    const char *spec = getenv("GJ_SPEC");
    if (spec != NULL)
        return spec;
    const char *bin = daemon_binary();
    const char *slash = strrchr(bin, '/');
    int dir = slash != NULL ? (int)(slash - bin + 1) : 0;
    snprintf(path, sizeof path, "%.*sopenapi.yaml", dir, bin);
    return path;
}

/* Read one line from fd within `ms` milliseconds. */
static int read_line(int fd, char *line, size_t cap, int ms)
{
    size_t n = 0;
    while (n + 1 < cap) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, ms) <= 0)
            return -1;
        ssize_t got = read(fd, line + n, 1);
        if (got <= 0)
            return -1;
        if (line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
    return 0;
}

void daemon_start(test_daemon *d, const char *const *extra)
{
    const char *argv[64] = {daemon_binary(), "serve", "--host", "127.0.0.1", "--port", "0"};
    int argc = 6;
    bool store = false;
    for (int i = 0; extra != NULL && extra[i] != NULL && argc < 61; i++) {
        argv[argc++] = extra[i];
        store |= strncmp(extra[i], "--store", 7) == 0;
    }
    /* A test that names no store gets none: stateless, as every test was
     * before the store, and nothing left behind in the working directory. */
    if (!store) {
        argv[argc++] = "--store";
        argv[argc++] = "none";
    }
    argv[argc] = NULL;

    memset(d, 0, sizeof *d);
    int out[2];
    ck_assert_int_eq(pipe(out), 0);
    snprintf(d->log, sizeof d->log, "/tmp/gj-daemon-XXXXXX");
    int log = mkstemp(d->log);
    ck_assert_int_ge(log, 0);
    d->pid = fork();
    ck_assert_int_ge(d->pid, 0);
    if (d->pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        execv(argv[0], (char *const *)argv);
        perror("execv");
        _exit(127);
    }
    close(out[1]);
    close(log);
    char line[256];
    int rc = read_line(out[0], line, sizeof line, 10000);
    const char *colon = strrchr(line, ':');
    int https = strncmp(line, "listening on https://127.0.0.1:", 31) == 0;
    ck_assert_msg(rc == 0, "the daemon did not print its address");
    ck_assert_msg((https || strncmp(line, "listening on http://127.0.0.1:", 30) == 0) && colon,
                  "unexpected first line: %s", line);
    d->port = (unsigned)atoi(colon + 1);
    ck_assert_uint_gt(d->port, 0);
    snprintf(d->base, sizeof d->base, "http%s://127.0.0.1:%u", https ? "s" : "", d->port);
    snprintf(d->direct, sizeof d->direct, "%s", d->base);
    for (int i = 6; i < argc; i++)
        if (strncmp(argv[i], "--admin-address", 15) == 0) {
            rc = read_line(out[0], line, sizeof line, 10000);
            colon = strrchr(line, ':');
            ck_assert_msg(rc == 0 && strncmp(line, "admin listening on http://", 26) == 0 && colon,
                          "no admin address line: %s", rc == 0 ? line : "(none)");
            d->admin_port = (unsigned)atoi(colon + 1);
            snprintf(d->admin, sizeof d->admin, "http://127.0.0.1:%u", d->admin_port);
        }
    close(out[0]);
    /* The proxy speaks plain HTTP to the daemon: an HTTPS one goes without. */
    const char *contract = getenv("GJ_CONTRACT");
    if (contract != NULL && strcmp(contract, "1") == 0 && !https)
        daemon_start_proxy(d);
}

/* A port free on 127.0.0.1 right now (bound, read, released). */
static unsigned free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static int port_open(unsigned port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

/* prism proxy <the built document> -> the daemon, on a free port. */
void daemon_start_proxy(test_daemon *d)
{
    unsigned port = free_port();
    char upstream[64], port_arg[16];
    snprintf(upstream, sizeof upstream, "http://127.0.0.1:%u", d->port);
    snprintf(port_arg, sizeof port_arg, "%u", port);
    d->proxy_pid = fork();
    ck_assert_int_ge(d->proxy_pid, 0);
    if (d->proxy_pid == 0) {
        int log = open(d->log, O_WRONLY | O_APPEND);
        dup2(log, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        execl("node_modules/.bin/prism", "prism", "proxy", daemon_spec(), upstream, "-h",
              "127.0.0.1", "-p", port_arg, (char *)NULL);
        perror("exec prism (run npm ci?)");
        _exit(127);
    }
    for (int i = 0; i < 3000 && !port_open(port); i++) {
        ck_assert_msg(waitpid(d->proxy_pid, NULL, WNOHANG) == 0, "the contract proxy died");
        struct timespec tick = {0, 10 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    ck_assert_msg(port_open(port), "the contract proxy did not start within 30 s");
    snprintf(d->base, sizeof d->base, "http://127.0.0.1:%u", port);
}

int daemon_alive(const test_daemon *d)
{
    return d->pid > 0 && waitpid(d->pid, NULL, WNOHANG) == 0;
}

/* Read all of fd into a malloc'd string. */
static char *slurp(int fd);

char *daemon_log(const test_daemon *d)
{
    FILE *f = fopen(d->log, "r");
    ck_assert_msg(f != NULL, "no daemon log %s", d->log);
    char *s = slurp(fileno(f));
    fclose(f);
    return s;
}

char *daemon_wait_log(const test_daemon *d, const char *needle)
{
    for (int i = 0; i < 1000; i++) { /* 10 s: the access log waits up to 1 s (log.h) */
        char *log = daemon_log(d);
        if (log != NULL && strstr(log, needle) != NULL)
            return log;
        free(log);
        struct timespec tick = {0, 10 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    return NULL;
}

int daemon_stop(test_daemon *d)
{
    if (d->proxy_pid > 0) {
        kill(d->proxy_pid, SIGTERM);
        waitpid(d->proxy_pid, NULL, 0);
        d->proxy_pid = 0;
    }
    if (d->pid <= 0)
        return -1;
    unlink(d->log);
    kill(d->pid, SIGTERM);
    int status = 0;
    for (int waited = 0; waited < 3000; waited++) {
        pid_t r = waitpid(d->pid, &status, WNOHANG);
        if (r == d->pid) {
            d->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        struct timespec tick = {0, 10 * 1000 * 1000};
        nanosleep(&tick, NULL);
    }
    kill(d->pid, SIGKILL);
    waitpid(d->pid, &status, 0);
    d->pid = 0;
    return -1;
}

static char *slurp(int fd)
{
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    ssize_t got;
    while (s != NULL && (got = read(fd, s + n, cap - n - 1)) > 0) {
        n += (size_t)got;
        if (cap - n < 2) {
            char *more = realloc(s, cap * 2);
            if (more == NULL) {
                free(s);
                return NULL;
            }
            s = more;
            cap *= 2;
        }
    }
    if (s != NULL)
        s[n] = '\0';
    return s;
}

int run_cli(const char *const *args, const char *in, size_t in_len, char **out, char **err)
{
    const char *argv[32] = {daemon_binary()};
    int argc = 1;
    for (int i = 0; args[i] != NULL && argc < 31; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;

    /* stdin from a temporary file so large inputs cannot deadlock a pipe. */
    char path[] = "/tmp/gj-cli-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    ck_assert_int_eq(write(fd, in, in_len), (ssize_t)in_len);
    lseek(fd, 0, SEEK_SET);
    char opath[] = "/tmp/gj-out-XXXXXX", epath[] = "/tmp/gj-err-XXXXXX";
    int ofd = mkstemp(opath), efd = mkstemp(epath);
    unlink(opath);
    unlink(epath);

    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd, STDIN_FILENO);
        dup2(ofd, STDOUT_FILENO);
        dup2(efd, STDERR_FILENO);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    lseek(ofd, 0, SEEK_SET);
    lseek(efd, 0, SEEK_SET);
    *out = slurp(ofd);
    *err = slurp(efd);
    close(fd);
    close(ofd);
    close(efd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

double daemon_metric(const test_daemon *d, const char *series)
{
    char url[96], line[256];
    snprintf(url, sizeof url, "%s/metrics", d->admin_port ? d->admin : d->direct);
    http_call c = {"GET", url, NULL, NULL, 0, 0};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 200, "GET %s: %ld", url, r.status);
    snprintf(line, sizeof line, "\n%s ", series); /* the sample, not its # HELP */
    const char *at = strstr(r.body, line);
    double v = at != NULL ? strtod(at + strlen(line), NULL) : -1;
    http_reply_free(&r);
    return v;
}
