/* main.c - the gamejudge command: `serve` runs the HTTP service, `solve`
 * answers one position from stdin like a contest judge would, `puzzles`
 * fills, exports and imports the store's pool (puzzles_cmd.h).
 *
 * Exit status: 0 success; 1 the service could not start or failed; 2 a
 * usage error or (solve) bad input, with one line on stderr saying why. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "app.h"
#include "buf.h"
#include "config.h"
#include "games.h"
#include "grant.h"
#include "log.h"
#include "puzzles_cmd.h"
#include "routes.h"
#include "solve.h"

#ifndef GJ_VERSION
#define GJ_VERSION "0.0.0"
#endif

/* `gamejudge --version`. */
static void print_version(void)
{
    printf("gamejudge %s\n", GJ_VERSION);
}

/* The commands, for --help and for a usage error. */
static void print_usage(FILE *out)
{
    fputs("usage: gamejudge serve [options]       run the HTTP service\n"
          "       gamejudge solve GAME [options]  answer one position read from stdin\n"
          "       gamejudge puzzles fill|export|import [options]\n"
          "                                       the store's pool of puzzles: make them,\n"
          "                                       write them as CSV, read them back\n"
          "       gamejudge healthcheck [PORT]    exit 0 when 127.0.0.1:PORT answers\n"
          "                                       GET /healthz with 200 (PORT defaults to\n"
          "                                       GAMEJUDGE_ADMIN_ADDRESS's port, then\n"
          "                                       GAMEJUDGE_PORT, then 8080)\n"
          "       gamejudge --help | --version\n"
          "\n"
          "See 'gamejudge serve --help', 'gamejudge solve --help' and\n"
          "'gamejudge puzzles --help'.\n",
          out);
}

/* "games: ..." from the registry. */
static void print_games(FILE *out)
{
    char names[256];
    games_list(names, sizeof names);
    fprintf(out, "games: %s\n", names);
}

/* Every game's limits with their defaults and largest values. */
static void print_limits(FILE *out)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    fputs("\nlimits (GAME.NAME: default, largest allowed):\n", out);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < games[i]->nlimits; j++) {
            const gj_limit_def *d = &games[i]->limits[j];
            fprintf(out, "  %s.%s: %ld, %ld  (%s)\n", games[i]->name, d->name, d->def, d->max,
                    d->doc);
        }
}

/* `serve --help`: the routes (from the route table), the options, the limits. */
static void print_serve_help(void)
{
    size_t n;
    const gj_option *opts = config_options(&n);
    size_t nroutes;
    const route_row *routes = routes_table(&nroutes);
    puts("usage: gamejudge serve [options]\n\n"
         "Serve the routes below.  Prints 'listening on http://HOST:PORT' once ready.\n"
         "SIGTERM or SIGINT stops accepting, answers every request already received,\n"
         "and exits 0.\n\n"
         "routes:");
    for (size_t i = 0; i < nroutes; i++) {
        char left[64];
        /* "GET, HEAD" lists HEAD for the Allow header; GET says it here. */
        const route_row *r = &routes[i];
        snprintf(left, sizeof left, "%.*s %s%s%s%s", (int)strcspn(r->allow, ","), r->allow, r->path,
                 r->per_game ? "<game>" : "",
                 r->suffix == NULL || r->game_suffix ? ""
                 : r->per_game                       ? "/<id>"
                                                     : "<id>",
                 r->suffix != NULL ? r->suffix : "");
        static const char *const where[] = {[ON_PUBLIC] = "",
                                            [ON_BOTH] = " (also on --admin-address)",
                                            [ON_ADMIN] = " (only on --admin-address when set)"};
        printf("  %-28s %s%s\n", left, routes[i].doc, where[routes[i].listener]);
    }
    puts("\noptions (each also read from its environment variable; flags win):");
    for (size_t i = 0; i < n; i++) {
        char left[64], def[160];
        snprintf(left, sizeof left, "%s %s", opts[i].flag, opts[i].arg);
        config_default_doc(&opts[i], 0, def, sizeof def);
        printf("  %-28s %-28s %s (default %s)\n", left, opts[i].env, opts[i].help, def);
    }
    printf("  %-28s %-28s %s\n", "--help", "", "this text");
    printf("  %-28s %-28s %s\n", "--version", "", "the version");
    print_limits(stdout);
}

/* `solve --help`. */
static void print_solve_help(void)
{
    puts("usage: gamejudge solve GAME [--json] [--timing] [--limit GAME.NAME=V[,...]]\n\n"
         "Read one position of GAME from stdin (judge format, or its JSON twin when the\n"
         "input starts with '{') and write the answer to stdout: the judge output, or\n"
         "the JSON answer of the HTTP API with --json.  Bad input: one line on stderr\n"
         "naming the line and the problem, exit status 2.  --timing: after the answer,\n"
         "one line on stderr with the parse, solve and write times in milliseconds, as\n"
         "the service's Server-Timing header gives them.\n");
    print_games(stdout);
    print_limits(stdout);
}

/* 1 when `flag` is among the arguments. */
static int wants(int argc, char **argv, const char *flag)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], flag) == 0)
            return 1;
    return 0;
}

/* ---- serve ------------------------------------------------------------ */

/* The environment, as config_load reads it. */
static const char *env_lookup(const char *name)
{
    return getenv(name);
}

/* `gamejudge serve`: configure, start the application, serve until SIGTERM
 * or SIGINT, drain; the exit status. */
static int serve(int argc, char **argv)
{
    gj_config cfg;
    gj_error e;
    /* A body's JSON tree is charged to the memory budget as it is built,
     * wherever a job parses it (grant.h); jansson's allocator is the
     * process's, so it is set before anything allocates or starts a thread. */
    gj_grant_count_jansson();
    config_defaults(&cfg);
    if (config_load(&cfg, env_lookup, argc, argv, &e) != 0) {
        fprintf(stderr, "gamejudge: %s\n", e.message);
        return 2;
    }

    log_init(cfg.log_json ? LOG_JSON : LOG_TEXT);
    /* Access lines buffered as nginx's buffer=64k flush=1s (log.h: none is lost on a stop). */
    log_buffer((size_t)64 << 10, 1000);
    const char *settings[80];
    char storage[2048];
    config_describe(&cfg, settings, 80, storage, sizeof storage);
    log_event("info", "configuration", settings);

    /* Block the stop signals before any thread starts so that only sigwait
     * below sees them; a write to a closed socket must not kill us. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    gj_app *app = app_start(&cfg, &e);
    if (app == NULL) {
        fprintf(stderr, "gamejudge: %s\n", e.message);
        return 1;
    }
    int bracket = strchr(cfg.host, ':') != NULL;
    printf("listening on %s://%s%s%s:%u\n", cfg.tls_cert[0] ? "https" : "http", bracket ? "[" : "",
           cfg.host, bracket ? "]" : "", app_port(app));
    if (cfg.admin_port >= 0) {
        bracket = strchr(cfg.admin_host, ':') != NULL;
        printf("admin listening on http://%s%s%s:%u\n", bracket ? "[" : "", cfg.admin_host,
               bracket ? "]" : "", app_admin_port(app));
    }
    fflush(stdout);

    int sig = 0;
    sigwait(&stop, &sig);
    const char *why[] = {"signal", sig == SIGINT ? "SIGINT" : "SIGTERM", NULL};
    log_event("info", "draining", why);
    int idle = app_stop(app);
    const char *how[] = {"in_time", idle ? "yes" : "no:grace-expired", NULL};
    log_event(idle ? "info" : "warn", "stopped", how);
    log_stop();
    return 0;
}

/* ---- solve -------------------------------------------------------------- */

/* All of `in` in a malloc'd buffer with a NUL guard after len bytes;
 * NULL when it cannot be read or held. */
static char *read_all(FILE *in, size_t *len)
{
    gj_buf b;
    buf_init(&b);
    for (;;) {
        if (buf_reserve(&b, 1 << 16) != 0)
            break;
        size_t got = fread(b.data + b.len, 1, b.cap - b.len, in);
        b.len += got;
        if (got == 0)
            break;
    }
    if (b.failed || ferror(in)) {
        buf_free(&b);
        return NULL;
    }
    buf_putc(&b, '\0'); /* a guard; not part of the input */
    if (b.failed) {
        buf_free(&b);
        return NULL;
    }
    b.len--;
    return buf_take(&b, len);
}

/* An environment for `solve`: only GAMEJUDGE_LIMITS is read. */
static const char *limits_only(const char *name)
{
    return strcmp(name, "GAMEJUDGE_LIMITS") == 0 ? getenv(name) : NULL;
}

/* `gamejudge solve GAME`: one position from stdin, its answer to stdout;
 * the exit status (2 for bad input or usage). */
static int solve(int argc, char **argv)
{
    if (argc < 1 || argv[0][0] == '-') {
        fputs("gamejudge: solve needs a GAME (see 'gamejudge solve --help')\n", stderr);
        return 2;
    }
    const gj_game *g = games_find(argv[0], strlen(argv[0]));
    if (g == NULL) {
        fprintf(stderr, "gamejudge: unknown game '%s'; ", argv[0]);
        print_games(stderr);
        return 2;
    }

    gj_config cfg;
    gj_error e;
    int json_out = 0, timing = 0, rest = 0;
    char *limit_args[64];
    config_defaults(&cfg);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json_out = 1;
        } else if (strcmp(argv[i], "--timing") == 0) {
            timing = 1;
        } else if ((strcmp(argv[i], "--limit") == 0 && i + 1 < argc) ||
                   strncmp(argv[i], "--limit=", 8) == 0) {
            if (rest + 2 > 64) {
                fputs("gamejudge: too many --limit options\n", stderr);
                return 2;
            }
            limit_args[rest++] = argv[i];
            if (argv[i][7] == '\0')
                limit_args[rest++] = argv[++i];
        } else {
            fprintf(stderr, "gamejudge: unknown solve option '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (config_load(&cfg, limits_only, rest, limit_args, &e) != 0) {
        fprintf(stderr, "gamejudge: %s\n", e.message);
        return 2;
    }

    size_t len;
    char *in = read_all(stdin, &len);
    if (in == NULL) {
        fputs("gamejudge: cannot read stdin (out of memory or a read error)\n", stderr);
        return 1;
    }
    gj_buf out;
    solve_timing t;
    buf_init(&out);
    int rc = solve_position(g, config_game_limits(&cfg, g), solve_sniff_input(in, len), in, len,
                            json_out ? MEDIA_JSON : MEDIA_TEXT, &out, &t, &e);
    free(in);
    if (rc != 0) {
        fprintf(stderr, "gamejudge: %s: %s\n", g->name, e.message);
        buf_free(&out);
        return e.kind == GJ_BAD_INPUT ? 2 : 1;
    }
    if (json_out)
        buf_putc(&out, '\n');
    int write_failed = fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0;
    buf_free(&out);
    if (write_failed) {
        fputs("gamejudge: cannot write the answer to stdout\n", stderr);
        return 1;
    }
    if (timing)
        fprintf(stderr, "parse;dur=%.3f, solve;dur=%.3f, write;dur=%.3f\n", t.parse_ms, t.solve_ms,
                t.write_ms);
    return 0;
}

/* ---- healthcheck --------------------------------------------------------- */

/* A container's HEALTHCHECK without curl in the image: one GET /healthz to
 * the local daemon over a plain socket, a 3-second budget.  With
 * GAMEJUDGE_ADMIN_ADDRESS it asks the admin listener, which speaks plain
 * HTTP even when the public port speaks HTTPS. */
static int healthcheck(int argc, char **argv)
{
    const char *admin = getenv("GAMEJUDGE_ADMIN_ADDRESS");
    const char *admin_port = admin ? strrchr(admin, ':') : NULL;
    const char *port_text = argc > 0     ? argv[0]
                            : admin_port ? admin_port + 1
                                         : getenv("GAMEJUDGE_PORT");
    long port = port_text ? strtol(port_text, NULL, 10) : 8080;
    if (port < 1 || port > 65535) {
        fprintf(stderr, "gamejudge: healthcheck: bad port '%s'\n", port_text);
        return 2;
    }
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct timeval limit = {3, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    static const char request[] = "GET /healthz HTTP/1.1\r\nHost: localhost\r\n"
                                  "Connection: close\r\n\r\n";
    char reply[64] = "";
    int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
             write(fd, request, sizeof request - 1) == (ssize_t)(sizeof request - 1) &&
             read(fd, reply, sizeof reply - 1) >= 12 && strncmp(reply, "HTTP/1.1 200", 12) == 0;
    if (fd >= 0)
        close(fd);
    if (!ok)
        fprintf(stderr, "gamejudge: healthcheck: 127.0.0.1:%ld did not answer 200\n", port);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0 || wants(argc - 2, argv + 2, "--version")) {
        print_version();
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "serve") == 0) {
        if (wants(argc - 2, argv + 2, "--help")) {
            print_serve_help();
            return 0;
        }
        return serve(argc - 2, argv + 2);
    }
    if (strcmp(cmd, "solve") == 0) {
        if (wants(argc - 2, argv + 2, "--help")) {
            print_solve_help();
            return 0;
        }
        return solve(argc - 2, argv + 2);
    }
    if (strcmp(cmd, "puzzles") == 0)
        return puzzles_main(argc - 2, argv + 2);
    if (strcmp(cmd, "healthcheck") == 0)
        return healthcheck(argc - 2, argv + 2);
    fprintf(stderr, "gamejudge: unknown command '%s'\n", cmd);
    print_usage(stderr);
    return 2;
}
