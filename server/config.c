/* config.c - defaults, environment and flags for `gamejudge serve`.
 *
 * Every numeric option has a range; anything outside it, or not a number, is
 * refused with a message naming where it came from, so a typo in a
 * deployment fails at start-up rather than running with a surprise. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "client_id.h"
#include "cors.h"
#include "games.h"
#include "tls.h"

enum {
    OPT_HOST,
    OPT_PORT,
    OPT_WORKERS,
    OPT_QUEUE,
    OPT_MAX_BODY,
    OPT_TIMEOUT,
    OPT_IO_THREADS,
    OPT_CONN_MEMORY,
    OPT_GRACE,
    OPT_REQUEST_TIMEOUT,
    OPT_MAX_CONNECTIONS,
    OPT_MAX_PER_IP,
    OPT_CACHE_BYTES,
    OPT_BATCH_MAX_ITEMS,
    OPT_JUDGE_MAX_CASES,
    OPT_JUDGE_MAX_BYTES,
    OPT_GENERATE_BUDGET_MS,
    OPT_LOG_FORMAT,
    OPT_LIMIT,
    OPT_MEMORY_BUDGET,
    OPT_QUOTA_RATE,
    OPT_QUOTA_BURST,
    OPT_QUOTA_CLIENTS,
    OPT_TRUSTED_PROXIES,
    OPT_API_KEYS,
    OPT_TLS_CERT,
    OPT_TLS_KEY,
    OPT_TLS_PRIORITIES,
    OPT_ADMIN_ADDRESS,
    OPT_CORS_ORIGINS,
    OPT_MAX_QUERY,
    OPT_CACHE_MAX_AGE,
    OPT_COUNT
};

static const gj_option options[OPT_COUNT] = {
    [OPT_HOST] = {"--host", "GAMEJUDGE_HOST", "H", "address to bind (default 127.0.0.1)"},
    [OPT_PORT] = {"--port", "GAMEJUDGE_PORT", "P", "TCP port, 0 picks a free one (default 8080)"},
    [OPT_WORKERS] = {"--workers", "GAMEJUDGE_WORKERS", "N",
                     "solver threads (default: online CPUs)"},
    [OPT_QUEUE] = {"--queue", "GAMEJUDGE_QUEUE", "N",
                   "solves waiting for a worker before 503 (default 64)"},
    [OPT_MAX_BODY] = {"--max-body", "GAMEJUDGE_MAX_BODY", "BYTES",
                      "largest request body, suffix K/M/G allowed (default 64M)"},
    [OPT_TIMEOUT] = {"--timeout", "GAMEJUDGE_TIMEOUT", "S",
                     "seconds a connection may stay idle (default 30)"},
    [OPT_IO_THREADS] = {"--io-threads", "GAMEJUDGE_IO_THREADS", "N",
                        "HTTP polling threads (default 1)"},
    [OPT_CONN_MEMORY] = {"--connection-memory", "GAMEJUDGE_CONNECTION_MEMORY", "BYTES",
                         "HTTP header memory per connection (default 32K)"},
    [OPT_GRACE] = {"--grace", "GAMEJUDGE_GRACE", "S",
                   "seconds a stop waits for requests in progress (default 30)"},
    [OPT_REQUEST_TIMEOUT] = {"--request-timeout", "GAMEJUDGE_REQUEST_TIMEOUT", "S",
                             "seconds from a request's start to its answer, queue included; "
                             "slower clients are cut off, later solves get 503 (default 60)"},
    [OPT_MAX_CONNECTIONS] = {"--max-connections", "GAMEJUDGE_MAX_CONNECTIONS", "N",
                             "open connections at once (default 1024)"},
    [OPT_MAX_PER_IP] = {"--max-connections-per-ip", "GAMEJUDGE_MAX_CONNECTIONS_PER_IP", "N",
                        "open connections from one address, 0 for no limit (default 256)"},
    [OPT_CACHE_BYTES] = {"--cache-bytes", "GAMEJUDGE_CACHE_BYTES", "BYTES",
                         "memory for cached answers, 0 turns the cache off (default 64M)"},
    [OPT_BATCH_MAX_ITEMS] = {"--batch-max-items", "GAMEJUDGE_BATCH_MAX_ITEMS", "N",
                             "positions one POST /batch may carry (default 100)"},
    [OPT_JUDGE_MAX_CASES] = {"--judge-max-cases", "GAMEJUDGE_JUDGE_MAX_CASES", "N",
                             "cases one POST /judge test set may carry (default 1000)"},
    [OPT_JUDGE_MAX_BYTES] = {"--judge-max-bytes", "GAMEJUDGE_JUDGE_MAX_BYTES", "BYTES",
                             "a test set's inputs and outputs together, suffix K/M/G allowed "
                             "(default 16M)"},
    [OPT_GENERATE_BUDGET_MS] = {"--generate-budget-ms", "GAMEJUDGE_GENERATE_BUDGET_MS", "MS",
                                "most milliseconds one POST /generate may search (default 2000)"},
    [OPT_LOG_FORMAT] = {"--log-format", "GAMEJUDGE_LOG_FORMAT", "text|json",
                        "access log lines as text or JSON (default text)"},
    [OPT_LIMIT] = {"--limit", "GAMEJUDGE_LIMITS", "GAME.NAME=V[,...]",
                   "raise or lower a game's size limit, e.g. grid-walk.rows=1000"},
    [OPT_MEMORY_BUDGET] = {"--memory-budget", "GAMEJUDGE_MEMORY_BUDGET", "BYTES",
                           "memory requests may hold at once, each charged its expected peak "
                           "(3x a text body, 8x JSON); past it 503; 0 for no bound (default: "
                           "half the machine's memory or cgroup limit)"},
    [OPT_QUOTA_RATE] = {"--quota-rate", "GAMEJUDGE_QUOTA_RATE", "MS",
                        "worker milliseconds per second each client may use, past it 429; 0 "
                        "turns the quotas off (default 0)"},
    [OPT_QUOTA_BURST] = {"--quota-burst", "GAMEJUDGE_QUOTA_BURST", "MS",
                         "worker milliseconds a client may use at once (default 10000)"},
    [OPT_QUOTA_CLIENTS] = {"--quota-clients", "GAMEJUDGE_QUOTA_CLIENTS", "N",
                           "clients whose budgets are kept; idle full ones are dropped first "
                           "(default 100000)"},
    [OPT_TRUSTED_PROXIES] = {"--trusted-proxies", "GAMEJUDGE_TRUSTED_PROXIES", "LIST",
                             "addresses or CIDRs (comma-separated) whose X-Forwarded-For names "
                             "the client (default none)"},
    [OPT_API_KEYS] = {"--api-keys", "GAMEJUDGE_API_KEYS", "FILE",
                      "API keys, one 'KEY RATE_MS BURST_MS' a line, sent as X-Api-Key "
                      "(default none)"},
    [OPT_TLS_CERT] = {"--tls-cert", "GAMEJUDGE_TLS_CERT", "FILE",
                      "PEM certificate (chain): serve HTTPS; needs --tls-key (default: HTTP)"},
    [OPT_TLS_KEY] = {"--tls-key", "GAMEJUDGE_TLS_KEY", "FILE",
                     "PEM private key of --tls-cert, unencrypted"},
    [OPT_TLS_PRIORITIES] = {"--tls-priorities", "GAMEJUDGE_TLS_PRIORITIES", "STRING",
                            "GnuTLS priority string: the TLS versions and ciphers HTTPS offers "
                            "(default: TLS 1.2 and 1.3, AEAD ciphers, forward secrecy: "
                            "'" TLS_DEFAULT_PRIORITIES "')"},
    [OPT_ADMIN_ADDRESS] = {"--admin-address", "GAMEJUDGE_ADMIN_ADDRESS", "HOST:PORT",
                           "plain-HTTP listener for /metrics, /healthz, /readyz; /metrics then "
                           "only there (default: none)"},
    [OPT_CORS_ORIGINS] = {"--cors-origins", "GAMEJUDGE_CORS_ORIGINS", "ORIGIN[,...]",
                          "origins whose pages may call the API, e.g. https://puzzles.example "
                          "(default: none)"},
    [OPT_MAX_QUERY] = {"--max-query", "GAMEJUDGE_MAX_QUERY", "BYTES",
                       "longest query of GET /solve and GET /analyze, 414 past it; below "
                       "--connection-memory/2 (default 8K)"},
    [OPT_CACHE_MAX_AGE] = {"--cache-max-age", "GAMEJUDGE_CACHE_MAX_AGE", "S",
                           "seconds caches may keep a GET answer (Cache-Control max-age, "
                           "default 86400)"},
};

const gj_option *config_options(size_t *count)
{
    *count = OPT_COUNT;
    return options;
}

void config_defaults(gj_config *c)
{
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    memset(c, 0, sizeof *c);
    snprintf(c->host, sizeof c->host, "127.0.0.1");
    c->port = 8080;
    c->workers = cpus > 0 ? cpus : 1;
    c->queue = 64;
    c->max_body = 64L << 20;
    c->timeout = 30;
    c->io_threads = 1;
    c->connection_memory = 32L << 10;
    c->grace = 30;
    c->request_timeout = 60;
    c->max_connections = 1024;
    c->max_connections_per_ip = 256;
    c->cache_bytes = 64L << 20;
    c->batch_max_items = 100;
    c->memory_budget = budget_default_bytes();
    c->quota_burst = 10000;
    c->quota_clients = 100000;
    c->admin_port = -1;
    c->judge_max_cases = 1000;
    c->judge_max_bytes = 16L << 20;
    c->max_query = 8L << 10;
    c->cache_max_age = 86400;
    c->generate_budget_ms = 2000;
    for (size_t i = 0; i < ngames && i < GJ_MAX_GAMES; i++)
        games_default_limits(games[i], c->limits[i]);
}

const long *config_game_limits(const gj_config *c, const gj_game *g)
{
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    for (size_t i = 0; i < ngames && i < GJ_MAX_GAMES; i++)
        if (games[i] == g)
            return c->limits[i];
    return NULL;
}

/* A whole decimal integer within [lo, hi] into *out: 0, or -1 leaving *out alone. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int config_parse_size(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || v < 0)
        return -1;
    int shift = 0;
    switch (*end) {
    case '\0':
        break;
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    default:
        return -1;
    }
    if (shift != 0 && end[1] != '\0')
        return -1;
    if (v > (LONG_MAX >> shift))
        return -1;
    v <<= shift;
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* One "game.name=value" item of --limit. */
static int apply_limit(gj_config *c, const char *item, size_t len, const char *origin, gj_error *e)
{
    char text[128];
    if (len >= sizeof text)
        return gj_fail(e, GJ_BAD_INPUT, "%s: limit '%.40s...' is too long", origin, item);
    memcpy(text, item, len);
    text[len] = '\0';
    char *dot = strchr(text, '.'), *eq = strchr(text, '=');
    if (dot == NULL || eq == NULL || eq < dot)
        return gj_fail(e, GJ_BAD_INPUT, "%s: '%s' is not GAME.NAME=VALUE", origin, text);
    *dot = '\0';
    *eq = '\0';
    const gj_game *g = games_find(text, strlen(text));
    if (g == NULL)
        return gj_fail(e, GJ_BAD_INPUT, "%s: unknown game '%s'", origin, text);
    long *values = (long *)config_game_limits(c, g);
    for (int i = 0; i < g->nlimits; i++) {
        const gj_limit_def *d = &g->limits[i];
        if (strcmp(d->name, dot + 1) != 0)
            continue;
        if (parse_long(eq + 1, d->min, d->max, &values[i]) != 0)
            return gj_fail(e, GJ_BAD_INPUT,
                           "%s: %s.%s must be an integer from %ld to %ld, not '%s'", origin,
                           g->name, d->name, d->min, d->max, eq + 1);
        return 0;
    }
    char names[160] = "";
    for (int i = 0; i < g->nlimits; i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", g->limits[i].name);
    }
    return gj_fail(e, GJ_BAD_INPUT, "%s: %s has no limit '%s' (it has: %s)", origin, g->name,
                   dot + 1, names);
}

/* Apply a comma-separated --limit list in order (empty items skipped): 0, or -1 with e
 * set at the first bad item, the items before it staying applied. */
static int apply_limits(gj_config *c, const char *value, const char *origin, gj_error *e)
{
    while (*value != '\0') {
        size_t len = strcspn(value, ",");
        if (len > 0 && apply_limit(c, value, len, origin, e) != 0)
            return -1;
        value += len;
        if (*value == ',')
            value++;
    }
    return 0;
}

/* A file name into dst (PATH_MAX-sized): 0, or -1 when empty or too long.
 * The file itself is read at start-up (tls.h), where a missing one is named. */
static int apply_path(char *dst, const char *value, const char *origin, gj_error *e)
{
    if (*value == '\0' || strlen(value) >= GJ_PATH_MAX)
        return gj_fail(e, GJ_BAD_INPUT, "%s: the file name must be 1 to %d characters", origin,
                       GJ_PATH_MAX - 1);
    snprintf(dst, GJ_PATH_MAX, "%s", value);
    return 0;
}

/* "HOST:PORT" or "[V6]:PORT" into the admin host and port: 0, or -1 naming
 * origin and the form expected. */
static int apply_admin(gj_config *c, const char *value, const char *origin, gj_error *e)
{
    const char *colon = strrchr(value, ':');
    const char *host = value;
    size_t hlen = colon ? (size_t)(colon - value) : 0;
    if (hlen >= 2 && value[0] == '[' && value[hlen - 1] == ']') {
        host++;
        hlen -= 2;
    }
    long port;
    if (colon == NULL || hlen == 0 || hlen >= sizeof c->admin_host ||
        memchr(host, ']', hlen) != NULL || parse_long(colon + 1, 0, 65535, &port) != 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "%s must be HOST:PORT (or [IPV6]:PORT) with a port from 0 to 65535, "
                       "not '%s'",
                       origin, value);
    memcpy(c->admin_host, host, hlen);
    c->admin_host[hlen] = '\0';
    c->admin_port = port;
    return 0;
}

/* Set option opt from value: 0, or -1 with e naming origin (the flag or variable the value
 * came from) and what is accepted. */
static int apply(gj_config *c, int opt, const char *value, const char *origin, gj_error *e)
{
    static const struct {
        long lo, hi;
        int size;
    } range[OPT_COUNT] = {
        [OPT_PORT] = {0, 65535, 0},
        [OPT_WORKERS] = {1, 1024, 0},
        [OPT_QUEUE] = {1, 1000000, 0},
        [OPT_MAX_BODY] = {1, 1L << 32, 1},
        [OPT_TIMEOUT] = {1, 86400, 0},
        [OPT_IO_THREADS] = {1, 64, 0},
        [OPT_CONN_MEMORY] = {8L << 10, 16L << 20, 1},
        [OPT_GRACE] = {0, 3600, 0},
        [OPT_REQUEST_TIMEOUT] = {1, 86400, 0},
        [OPT_MAX_CONNECTIONS] = {1, 65536, 0},
        [OPT_MAX_PER_IP] = {0, 65536, 0},
        [OPT_CACHE_BYTES] = {0, 1L << 40, 1},
        [OPT_BATCH_MAX_ITEMS] = {1, 100000, 0},
        [OPT_MEMORY_BUDGET] = {0, 1L << 40, 1},
        [OPT_QUOTA_RATE] = {0, 1000000000L, 0},
        [OPT_QUOTA_BURST] = {1, 1000000000L, 0},
        [OPT_QUOTA_CLIENTS] = {1, 10000000L, 0},
        [OPT_JUDGE_MAX_CASES] = {1, 100000, 0},
        [OPT_JUDGE_MAX_BYTES] = {1, 1L << 32, 1},
        [OPT_MAX_QUERY] = {256, 8L << 20, 1},
        [OPT_CACHE_MAX_AGE] = {0, 31536000, 0},
        [OPT_GENERATE_BUDGET_MS] = {1, 600000, 0},
    };
    long *target[OPT_COUNT] = {
        [OPT_PORT] = &c->port,
        [OPT_WORKERS] = &c->workers,
        [OPT_QUEUE] = &c->queue,
        [OPT_MAX_BODY] = &c->max_body,
        [OPT_TIMEOUT] = &c->timeout,
        [OPT_IO_THREADS] = &c->io_threads,
        [OPT_CONN_MEMORY] = &c->connection_memory,
        [OPT_GRACE] = &c->grace,
        [OPT_REQUEST_TIMEOUT] = &c->request_timeout,
        [OPT_MAX_CONNECTIONS] = &c->max_connections,
        [OPT_MAX_PER_IP] = &c->max_connections_per_ip,
        [OPT_CACHE_BYTES] = &c->cache_bytes,
        [OPT_BATCH_MAX_ITEMS] = &c->batch_max_items,
        [OPT_MEMORY_BUDGET] = &c->memory_budget,
        [OPT_QUOTA_RATE] = &c->quota_rate,
        [OPT_QUOTA_BURST] = &c->quota_burst,
        [OPT_QUOTA_CLIENTS] = &c->quota_clients,
        [OPT_JUDGE_MAX_CASES] = &c->judge_max_cases,
        [OPT_JUDGE_MAX_BYTES] = &c->judge_max_bytes,
        [OPT_MAX_QUERY] = &c->max_query,
        [OPT_CACHE_MAX_AGE] = &c->cache_max_age,
        [OPT_GENERATE_BUDGET_MS] = &c->generate_budget_ms,
    };

    if (opt == OPT_HOST) {
        if (*value == '\0' || strlen(value) >= sizeof c->host)
            return gj_fail(e, GJ_BAD_INPUT, "%s: the host must be 1 to %zu characters", origin,
                           sizeof c->host - 1);
        snprintf(c->host, sizeof c->host, "%s", value);
        return 0;
    }
    if (opt == OPT_LIMIT)
        return apply_limits(c, value, origin, e);
    if (opt == OPT_API_KEYS) /* the file is read at start (admission.c) */
        return apply_path(c->api_keys, value, origin, e);
    if (opt == OPT_TRUSTED_PROXIES) {
        if (strlen(value) >= sizeof c->trusted_proxies)
            return gj_fail(e, GJ_BAD_INPUT, "%s: at most %zu characters", origin,
                           sizeof c->trusted_proxies - 1);
        if (proxies_parse(value, origin, NULL, e) != 0)
            return -1;
        snprintf(c->trusted_proxies, sizeof c->trusted_proxies, "%s", value);
        return 0;
    }
    if (opt == OPT_TLS_CERT || opt == OPT_TLS_KEY)
        return apply_path(opt == OPT_TLS_CERT ? c->tls_cert : c->tls_key, value, origin, e);
    if (opt == OPT_TLS_PRIORITIES) { /* GnuTLS checks the string at start-up (tls.h) */
        if (*value == '\0' || strlen(value) >= sizeof c->tls_priorities)
            return gj_fail(e, GJ_BAD_INPUT, "%s: the priority string must be 1 to %zu characters",
                           origin, sizeof c->tls_priorities - 1);
        snprintf(c->tls_priorities, sizeof c->tls_priorities, "%s", value);
        return 0;
    }
    if (opt == OPT_ADMIN_ADDRESS)
        return apply_admin(c, value, origin, e);
    if (opt == OPT_CORS_ORIGINS) {
        if (strlen(value) >= sizeof c->cors_origins)
            return gj_fail(e, GJ_BAD_INPUT, "%s: the list is longer than %zu characters", origin,
                           sizeof c->cors_origins - 1);
        if (cors_check_list(value, origin, e) != 0)
            return -1;
        snprintf(c->cors_origins, sizeof c->cors_origins, "%s", value);
        return 0;
    }
    if (opt == OPT_LOG_FORMAT) {
        if (strcmp(value, "text") != 0 && strcmp(value, "json") != 0)
            return gj_fail(e, GJ_BAD_INPUT, "%s must be 'text' or 'json', not '%s'", origin, value);
        c->log_json = strcmp(value, "json") == 0;
        return 0;
    }
    int bad = range[opt].size ? config_parse_size(value, range[opt].lo, range[opt].hi, target[opt])
                              : parse_long(value, range[opt].lo, range[opt].hi, target[opt]);
    if (bad)
        return gj_fail(e, GJ_BAD_INPUT, "%s must be %s from %ld to %ld, not '%s'", origin,
                       range[opt].size ? "a size in bytes (K/M/G allowed)" : "an integer",
                       range[opt].lo, range[opt].hi, value);
    return 0;
}

/* The option arg names, as "--flag" (*inline_value NULL: the value is the next argument)
 * or "--flag=value" (*inline_value points past '='); -1 when none. */
static int find_flag(const char *arg, const char **inline_value)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        size_t n = strlen(options[i].flag);
        if (strncmp(arg, options[i].flag, n) != 0)
            continue;
        if (arg[n] == '\0') {
            *inline_value = NULL;
            return i;
        }
        if (arg[n] == '=') {
            *inline_value = arg + n + 1;
            return i;
        }
    }
    return -1;
}

int config_load(gj_config *c, const char *(*lookup)(const char *name), int argc, char **argv,
                gj_error *e)
{
    for (int i = 0; lookup != NULL && i < OPT_COUNT; i++) {
        const char *v = lookup(options[i].env);
        if (v != NULL && apply(c, i, v, options[i].env, e) != 0)
            return -1;
    }
    for (int a = 0; a < argc; a++) {
        const char *value;
        int opt = find_flag(argv[a], &value);
        if (opt < 0)
            return gj_fail(e, GJ_BAD_INPUT, "unknown option '%s' (see --help)", argv[a]);
        if (value == NULL) {
            if (a + 1 >= argc)
                return gj_fail(e, GJ_BAD_INPUT, "%s needs a value", options[opt].flag);
            value = argv[++a];
        }
        if (apply(c, opt, value, options[opt].flag, e) != 0)
            return -1;
    }
    if ((c->tls_cert[0] == '\0') != (c->tls_key[0] == '\0'))
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-cert and --tls-key go together: %s is set but not %s",
                       c->tls_cert[0] ? "--tls-cert" : "--tls-key",
                       c->tls_cert[0] ? "--tls-key" : "--tls-cert");
    /* Priorities on a plain-HTTP port would be ignored: most likely the
     * certificate was meant to be set too. */
    if (c->tls_priorities[0] != '\0' && c->tls_cert[0] == '\0')
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-priorities is for HTTPS: set --tls-cert and --tls-key too");
    /* libmicrohttpd reads the request line into the connection's memory
     * and answers a line that does not fit with its own 414, before any of
     * ours: keep --max-query where our 414 (JSON, naming the bound) is the
     * one a client meets, with room left for the headers. */
    if (c->max_query > c->connection_memory / 2)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--max-query (%ld bytes) must be at most half of --connection-memory "
                       "(%ld bytes), which also holds the request line and headers",
                       c->max_query, c->connection_memory);
    return 0;
}

void config_describe(const gj_config *c, const char **pairs, size_t cap, char *storage,
                     size_t storage_cap)
{
    const struct {
        const char *key;
        long value;
    } numbers[] = {{"port", c->port},
                   {"workers", c->workers},
                   {"queue", c->queue},
                   {"max_body", c->max_body},
                   {"timeout", c->timeout},
                   {"io_threads", c->io_threads},
                   {"connection_memory", c->connection_memory},
                   {"grace", c->grace},
                   {"request_timeout", c->request_timeout},
                   {"max_connections", c->max_connections},
                   {"max_connections_per_ip", c->max_connections_per_ip},
                   {"cache_bytes", c->cache_bytes},
                   {"batch_max_items", c->batch_max_items},
                   {"memory_budget", c->memory_budget},
                   {"quota_rate", c->quota_rate},
                   {"quota_burst", c->quota_burst},
                   {"quota_clients", c->quota_clients},
                   {"admin_port", c->admin_port},
                   {"judge_max_cases", c->judge_max_cases},
                   {"judge_max_bytes", c->judge_max_bytes},
                   {"max_query", c->max_query},
                   {"cache_max_age", c->cache_max_age},
                   {"generate_budget_ms", c->generate_budget_ms}};
    size_t n = 0, used = 0;
    const size_t nnum = sizeof numbers / sizeof numbers[0];
    if (cap < 2 * (nnum + 9) + 1)
        return;
    pairs[n++] = "host";
    pairs[n++] = c->host;
    pairs[n++] = "trusted_proxies";
    pairs[n++] = c->trusted_proxies;
    pairs[n++] = "api_keys";
    pairs[n++] = c->api_keys; /* the file's path, never its keys */
    pairs[n++] = "log_format";
    pairs[n++] = c->log_json ? "json" : "text";
    pairs[n++] = "tls";
    pairs[n++] = c->tls_cert[0] ? c->tls_cert : "off";
    pairs[n++] = "tls_priorities";
    pairs[n++] = !c->tls_cert[0]        ? "off"
                 : c->tls_priorities[0] ? c->tls_priorities
                                        : TLS_DEFAULT_PRIORITIES;
    pairs[n++] = "admin_host";
    pairs[n++] = c->admin_port >= 0 ? c->admin_host : "none";
    pairs[n++] = "cors_origins";
    pairs[n++] = c->cors_origins[0] ? c->cors_origins : "none";
    for (size_t i = 0; i < nnum && used < storage_cap; i++) {
        pairs[n++] = numbers[i].key;
        pairs[n++] = storage + used;
        used += (size_t)snprintf(storage + used, storage_cap - used, "%ld", numbers[i].value) + 1;
    }
    pairs[n++] = "limits";
    pairs[n++] = storage + used;
    size_t ngames, start = used;
    const gj_game *const *games = games_all(&ngames);
    storage[used] = '\0';
    for (size_t i = 0; i < ngames && used < storage_cap; i++)
        for (int j = 0; j < games[i]->nlimits && used < storage_cap; j++)
            used += (size_t)snprintf(storage + used, storage_cap - used, "%s%s.%s=%ld",
                                     used > start ? "," : "", games[i]->name,
                                     games[i]->limits[j].name, c->limits[i][j]);
    pairs[n] = NULL;
}
