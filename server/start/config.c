/* config.c - defaults, environment and flags for `gamejudge serve`.
 *
 * Every numeric option has a range and every string option a length range
 * (and, for a list, a check); anything outside it, or not a number, is
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
#include "generate.h"
#include "store.h"
#include "tls.h"

/* Readers of the options that are neither numbers nor strings, the checks
 * of the strings that have one, and what the configuration line shows
 * where the value alone would not do; defined below the table. */
static int read_log_format(gj_config *c, const char *value, const char *origin, gj_error *e);
static int read_limits(gj_config *c, const char *value, const char *origin, gj_error *e);
static int read_admin(gj_config *c, const char *value, const char *origin, gj_error *e);
static int check_proxies(const char *value, const char *origin, gj_error *e);
static int check_store(const char *value, const char *origin, gj_error *e);
static int read_rated_plays(gj_config *c, const char *value, const char *origin, gj_error *e);
static const char *show_store(const gj_config *c, char *buf, size_t cap);
static const char *show_rated_plays(const gj_config *c, char *buf, size_t cap);
static const char *show_log_format(const gj_config *c, char *buf, size_t cap);
static const char *show_tls_priorities(const gj_config *c, char *buf, size_t cap);
static const char *show_admin(const gj_config *c, char *buf, size_t cap);
static long online_cpus(void);
static long io_threads_default(void);

/* A number option: its kind, range and the long it sets. */
#define NUMBER(k, field, low, high)                                                                \
    .kind = (k), .lo = (low), .hi = (high), .at = offsetof(gj_config, field)
/* A string option, as redis's createStringConfig: the char array it fills,
 * its least length (0 or 1; the most is the array's), the value as its
 * errors name it, its check (NULL: any text) and what the configuration
 * line shows when it is empty (NULL: ""). */
#define STRING(field, least, noun, chk, empty)                                                     \
    .kind = OPT_STRING, .lo = (least), .hi = (long)sizeof(((gj_config *)0)->field) - 1,            \
    .at = offsetof(gj_config, field), .what = (noun), .check = (chk), .unset = (empty)
/* A custom option: its reader and what the configuration line shows. */
#define CUSTOM(r, s) .kind = OPT_CUSTOM, .read = (r), .show = (s)
/* A number macro spelled as the string a default is written in, so a
 * default shared with the solvers (generate.h) is written once. */
#define SPELLED(n)  SPELLED_(n)
#define SPELLED_(n) #n

/* Every option of `serve`, one row each, as redis's config table: the flag,
 * the variable, the default (read as a value of the option), the range,
 * the string's place and check, or the reader, where it goes and what the
 * start-up line calls it.  --help, the
 * parser, the configuration line and the README's table (checked by
 * test_config) all come from here. */
static const gj_option options[] = {
    {"--host", "GAMEJUDGE_HOST", "H", "address to bind", "127.0.0.1", NULL, "host",
     STRING(host, 1, "the host", NULL, NULL)},
    {"--port", "GAMEJUDGE_PORT", "P", "TCP port, 0 picks a free one", "8080", NULL, "port",
     NUMBER(OPT_INTEGER, port, 0, 65535)},
    {"--workers", "GAMEJUDGE_WORKERS", "N", "solver threads", NULL, "online CPUs", "workers",
     NUMBER(OPT_INTEGER, workers, 1, 1024), .compute = online_cpus},
    {"--queue", "GAMEJUDGE_QUEUE", "N", "solves waiting for a worker before 503", "64", NULL,
     "queue", NUMBER(OPT_INTEGER, queue, 1, 1000000)},
    {"--max-body", "GAMEJUDGE_MAX_BODY", "BYTES", "largest request body, suffix K/M/G allowed",
     "64M", NULL, "max_body", NUMBER(OPT_BYTES, max_body, 1, 1L << 32)},
    {"--timeout", "GAMEJUDGE_TIMEOUT", "S", "seconds a connection may stay idle", "30", NULL,
     "timeout", NUMBER(OPT_INTEGER, timeout, 1, 86400)},
    {"--io-threads", "GAMEJUDGE_IO_THREADS", "N", "HTTP polling threads", NULL, "online CPUs",
     "io_threads", NUMBER(OPT_INTEGER, io_threads, 1, 64), .compute = io_threads_default},
    {"--connection-memory", "GAMEJUDGE_CONNECTION_MEMORY", "BYTES",
     "HTTP header memory per connection", "16K", NULL, "connection_memory",
     NUMBER(OPT_BYTES, connection_memory, 8L << 10, 16L << 20)},
    {"--grace", "GAMEJUDGE_GRACE", "S", "seconds a stop waits for requests in progress", "30", NULL,
     "grace", NUMBER(OPT_INTEGER, grace, 0, 3600)},
    {"--request-timeout", "GAMEJUDGE_REQUEST_TIMEOUT", "S",
     "seconds from a request's start to its answer, queue included; slower clients are cut off, "
     "later solves get 503",
     "60", NULL, "request_timeout", NUMBER(OPT_INTEGER, request_timeout, 1, 86400)},
    {"--max-connections", "GAMEJUDGE_MAX_CONNECTIONS", "N", "open connections at once", "1024",
     NULL, "max_connections", NUMBER(OPT_INTEGER, max_connections, 1, 65536)},
    {"--max-connections-per-ip", "GAMEJUDGE_MAX_CONNECTIONS_PER_IP", "N",
     "open connections from one address, 0 for no limit", "256", NULL, "max_connections_per_ip",
     NUMBER(OPT_INTEGER, max_connections_per_ip, 0, 65536)},
    {"--cache-bytes", "GAMEJUDGE_CACHE_BYTES", "BYTES",
     "memory for cached answers, 0 turns the cache off", "64M", NULL, "cache_bytes",
     NUMBER(OPT_BYTES, cache_bytes, 0, 1L << 40)},
    {"--batch-max-items", "GAMEJUDGE_BATCH_MAX_ITEMS", "N", "positions one POST /batch may carry",
     "100", NULL, "batch_max_items", NUMBER(OPT_INTEGER, batch_max_items, 1, 100000)},
    {"--judge-max-cases", "GAMEJUDGE_JUDGE_MAX_CASES", "N",
     "cases one POST /judge test set may carry", "1000", NULL, "judge_max_cases",
     NUMBER(OPT_INTEGER, judge_max_cases, 1, 100000)},
    {"--judge-max-bytes", "GAMEJUDGE_JUDGE_MAX_BYTES", "BYTES",
     "a test set's inputs and outputs together, suffix K/M/G allowed", "16M", NULL,
     "judge_max_bytes", NUMBER(OPT_BYTES, judge_max_bytes, 1, 1L << 32)},
    {"--max-query", "GAMEJUDGE_MAX_QUERY", "BYTES",
     "longest query of GET /solve and GET /analyze, 414 past it; at most --connection-memory/2",
     "8K", NULL, "max_query", NUMBER(OPT_BYTES, max_query, 256, 8L << 20)},
    {"--cache-max-age", "GAMEJUDGE_CACHE_MAX_AGE", "S",
     "seconds caches may keep a GET answer (Cache-Control max-age)", "86400", NULL, "cache_max_age",
     NUMBER(OPT_INTEGER, cache_max_age, 0, 31536000)},
    {"--generate-budget-ms", "GAMEJUDGE_GENERATE_BUDGET_MS", "MS",
     "most milliseconds one POST /generate may search", SPELLED(GEN_BUDGET_CEILING_DEFAULT_MS),
     NULL, "generate_budget_ms", NUMBER(OPT_INTEGER, generate_budget_ms, 1, 600000)},
    {"--log-format", "GAMEJUDGE_LOG_FORMAT", "F", "access log lines as text or json", "text", NULL,
     "log_format", CUSTOM(read_log_format, show_log_format)},
    {"--limit", "GAMEJUDGE_LIMITS", "GAME.NAME=V,...",
     "raise or lower a game's size limit, e.g. grid-walk.rows=1000", NULL,
     "the original problems' limits", NULL, CUSTOM(read_limits, NULL)},
    {"--memory-budget", "GAMEJUDGE_MEMORY_BUDGET", "BYTES",
     "memory requests may hold at once, each charged its expected peak (3x a text body or a "
     "JSON one read with no tree, 8x other JSON); past it 503; 0 for no bound",
     NULL, "half the machine's memory (or cgroup limit)", "memory_budget",
     NUMBER(OPT_BYTES, memory_budget, 0, 1L << 40), .compute = budget_default_bytes},
    {"--quota-rate", "GAMEJUDGE_QUOTA_RATE", "MS",
     "worker milliseconds per second each client may use, past it 429; 0 turns the quotas off", "0",
     "`0` (off)", "quota_rate", NUMBER(OPT_INTEGER, quota_rate, 0, 1000000000L)},
    {"--quota-burst", "GAMEJUDGE_QUOTA_BURST", "MS", "worker milliseconds a client may use at once",
     "10000", NULL, "quota_burst", NUMBER(OPT_INTEGER, quota_burst, 1, 1000000000L)},
    {"--quota-clients", "GAMEJUDGE_QUOTA_CLIENTS", "N",
     "clients whose budgets are kept; idle full ones are dropped first", "100000", NULL,
     "quota_clients", NUMBER(OPT_INTEGER, quota_clients, 1, 10000000L)},
    {"--trusted-proxies", "GAMEJUDGE_TRUSTED_PROXIES", "LIST",
     "addresses or CIDRs (comma-separated) whose X-Forwarded-For names the client", NULL, "none",
     "trusted_proxies", STRING(trusted_proxies, 0, "the list", check_proxies, NULL)},
    {"--api-keys", "GAMEJUDGE_API_KEYS", "FILE",
     "API keys, one 'KEY RATE_MS BURST_MS' a line, sent as X-Api-Key", NULL, "none", "api_keys",
     STRING(api_keys, 1, "the file name", NULL, NULL)},
    {"--tls-cert", "GAMEJUDGE_TLS_CERT", "FILE",
     "PEM certificate (chain): serve HTTPS; needs --tls-key", NULL, "none (HTTP)", "tls",
     STRING(tls_cert, 1, "the file name", NULL, "off")},
    {"--tls-key", "GAMEJUDGE_TLS_KEY", "FILE", "PEM private key of --tls-cert, unencrypted", NULL,
     "none", NULL, STRING(tls_key, 1, "the file name", NULL, NULL)},
    {"--tls-priorities", "GAMEJUDGE_TLS_PRIORITIES", "STRING",
     "GnuTLS priority string: the TLS versions and ciphers HTTPS offers ('" TLS_DEFAULT_PRIORITIES
     "'); needs --tls-cert",
     NULL, "TLS 1.2 and 1.3, AEAD ciphers with ECDHE", "tls_priorities",
     STRING(tls_priorities, 1, "the priority string", NULL, NULL), .show = show_tls_priorities},
    {"--admin-address", "GAMEJUDGE_ADMIN_ADDRESS", "HOST:PORT",
     "plain-HTTP listener for /metrics, /healthz, /readyz; /metrics then only there", NULL, "none",
     "admin_address", CUSTOM(read_admin, show_admin)},
    {"--cors-origins", "GAMEJUDGE_CORS_ORIGINS", "LIST",
     "origins whose pages may call the API, e.g. https://puzzles.example", NULL, "none (CORS off)",
     "cors_origins", STRING(cors_origins, 0, "the list", cors_check_list, "none")},
    {"--public-origin", "GAMEJUDGE_PUBLIC_ORIGIN", "ORIGIN",
     "where visitors reach the service, e.g. https://puzzles.example: the playground's puzzle "
     "links name their pictures there",
     NULL, "the request's Host when it is a plain host[:port]", "public_origin",
     STRING(public_origin, 0, "the origin", cors_check_origin, "none")},
    {"--store", "GAMEJUDGE_STORE", "URL",
     "the puzzle store: sqlite:PATH (a file; its folder is made), postgresql://... (shared by "
     "replicas) or none (stateless: the routes that learn from plays answer 404)",
     STORE_URL_DEFAULT, NULL, "store", STRING(store, 1, "the store's URL", check_store, NULL),
     .show = show_store},
    {"--rated-plays", "GAMEJUDGE_RATED_PLAYS", "WHO",
     "who may send a player to be rated: keys (a client holding an --api-keys key: the site's "
     "backend) or anyone (any visitor can move ratings)",
     "keys", NULL, "rated_plays", CUSTOM(read_rated_plays, show_rated_plays)},
};

#define NOPTIONS (sizeof options / sizeof options[0])

const gj_option *config_options(size_t *count)
{
    *count = NOPTIONS;
    return options;
}

void config_default_doc(const gj_option *o, int markdown, char *out, size_t cap)
{
    if (o->def_doc == NULL) {
        snprintf(out, cap, markdown ? "`%s`" : "%s", o->def ? o->def : "");
        return;
    }
    size_t n = 0;
    for (const char *p = o->def_doc; *p != '\0' && n + 1 < cap; p++)
        if (markdown || *p != '`')
            out[n++] = *p;
    out[n] = '\0';
}

/* The long an integer or size row sets in c. */
static long *number_at(gj_config *c, const gj_option *o)
{
    return (long *)(void *)((char *)c + o->at);
}

/* The char array (o->hi + 1 bytes) a string row sets in c. */
static char *string_at(gj_config *c, const gj_option *o)
{
    return (char *)c + o->at;
}

/* The online CPUs, the default of --workers: at least 1. */
static long online_cpus(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? cpus : 1;
}

/* The default of --io-threads: one polling thread per online CPU, within
 * the option's range (bench/NOTES.md: on 2 CPUs, 2 threads answered tiny
 * solves 10-25% faster than 1, in the same runs). */
static long io_threads_default(void)
{
    long cpus = online_cpus();
    return cpus < 64 ? cpus : 64;
}

static int apply(gj_config *c, const gj_option *o, const char *value, const char *origin,
                 gj_error *e);

void config_defaults(gj_config *c)
{
    size_t ngames;
    const gj_game *const *games = games_all(&ngames);
    gj_error e;
    memset(c, 0, sizeof *c);
    c->admin_port = -1; /* no --admin-address: no admin listener */
    for (size_t i = 0; i < NOPTIONS; i++) {
        const gj_option *o = &options[i];
        if (o->compute != NULL)
            *number_at(c, o) = o->compute();
        else if (o->def != NULL && apply(c, o, o->def, o->flag, &e) != 0)
            abort(); /* a default its own reader refuses: a bug in the table (test_config) */
    }
    for (size_t i = 0; i < ngames && i < GJ_MAX_GAMES; i++)
        game_default_limits(games[i], c->limits[i]);
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

/* --log-format: text or json. */
static int read_log_format(gj_config *c, const char *value, const char *origin, gj_error *e)
{
    if (strcmp(value, "text") != 0 && strcmp(value, "json") != 0)
        return gj_fail(e, GJ_BAD_INPUT, "%s must be 'text' or 'json', not '%s'", origin, value);
    c->log_json = strcmp(value, "json") == 0;
    return 0;
}

/* --limit: GAME.NAME=V items, applied in order. */
static int read_limits(gj_config *c, const char *value, const char *origin, gj_error *e)
{
    return apply_limits(c, value, origin, e);
}

/* --trusted-proxies: a list client_id.h can parse. */
static int check_proxies(const char *value, const char *origin, gj_error *e)
{
    return proxies_parse(value, origin, NULL, e);
}

/* --store: none, sqlite:PATH with a path, or a PostgreSQL URL; whether the
 * store can be reached is found at start-up (store_open). */
static int check_store(const char *value, const char *origin, gj_error *e)
{
    if (strcmp(value, "none") == 0 || strncmp(value, "postgresql://", 13) == 0 ||
        strncmp(value, "postgres://", 11) == 0 ||
        (strncmp(value, "sqlite:", 7) == 0 && value[7] != '\0'))
        return 0;
    char shown[160];
    store_redact(value, shown, sizeof shown);
    return gj_fail(e, GJ_BAD_INPUT,
                   "%s must be none, sqlite:PATH, postgresql://... or postgres://..., not '%s'",
                   origin, shown);
}

/* --rated-plays: keys or anyone. */
static int read_rated_plays(gj_config *c, const char *value, const char *origin, gj_error *e)
{
    if (strcmp(value, "keys") != 0 && strcmp(value, "anyone") != 0)
        return gj_fail(e, GJ_BAD_INPUT, "%s must be 'keys' or 'anyone', not '%s'", origin, value);
    c->rated_plays_open = strcmp(value, "anyone") == 0;
    return 0;
}

/* The configuration line's store, its password never shown. */
static const char *show_store(const gj_config *c, char *buf, size_t cap)
{
    store_redact(c->store, buf, cap);
    return buf;
}

/* The configuration line's --rated-plays. */
static const char *show_rated_plays(const gj_config *c, char *buf, size_t cap)
{
    (void)buf;
    (void)cap;
    return c->rated_plays_open ? "anyone" : "keys";
}

/* --admin-address: HOST:PORT. */
static int read_admin(gj_config *c, const char *value, const char *origin, gj_error *e)
{
    return apply_admin(c, value, origin, e);
}

/* The configuration line's log format. */
static const char *show_log_format(const gj_config *c, char *buf, size_t cap)
{
    (void)buf;
    (void)cap;
    return c->log_json ? "json" : "text";
}

/* The configuration line's priority string in force (off without TLS). */
static const char *show_tls_priorities(const gj_config *c, char *buf, size_t cap)
{
    (void)buf;
    (void)cap;
    return !c->tls_cert[0]        ? "off"
           : c->tls_priorities[0] ? c->tls_priorities
                                  : TLS_DEFAULT_PRIORITIES;
}

/* The configuration line's admin listener: HOST:PORT, or none. */
static const char *show_admin(const gj_config *c, char *buf, size_t cap)
{
    if (c->admin_port < 0)
        return "none";
    snprintf(buf, cap, "%s:%ld", c->admin_host, c->admin_port);
    return buf;
}

/* A string row's value, its length and its check passed, into its array:
 * 0, or -1 with e naming origin and leaving the array as it was.  A file
 * name is only kept here; the file is read at start-up (tls.h,
 * admission.c), where a missing one is named. */
static int apply_string(gj_config *c, const gj_option *o, const char *value, const char *origin,
                        gj_error *e)
{
    size_t len = strlen(value);
    if (o->lo > 0 && (len < (size_t)o->lo || len > (size_t)o->hi))
        return gj_fail(e, GJ_BAD_INPUT, "%s: %s must be %ld to %ld characters", origin, o->what,
                       o->lo, o->hi);
    if (len > (size_t)o->hi)
        return gj_fail(e, GJ_BAD_INPUT, "%s: %s is longer than %ld characters", origin, o->what,
                       o->hi);
    if (o->check != NULL && o->check(value, origin, e) != 0)
        return -1;
    memcpy(string_at(c, o), value, len + 1);
    return 0;
}

/* Set option o from value: 0, or -1 with e naming origin (the flag or
 * variable the value came from) and what is accepted. */
static int apply(gj_config *c, const gj_option *o, const char *value, const char *origin,
                 gj_error *e)
{
    if (o->kind == OPT_CUSTOM)
        return o->read(c, value, origin, e);
    if (o->kind == OPT_STRING)
        return apply_string(c, o, value, origin, e);
    int bytes = o->kind == OPT_BYTES;
    int bad = bytes ? config_parse_size(value, o->lo, o->hi, number_at(c, o))
                    : parse_long(value, o->lo, o->hi, number_at(c, o));
    if (bad)
        return gj_fail(e, GJ_BAD_INPUT, "%s must be %s from %ld to %ld, not '%s'", origin,
                       bytes ? "a size in bytes (K/M/G allowed)" : "an integer", o->lo, o->hi,
                       value);
    return 0;
}

/* The option arg names, as "--flag" (*inline_value NULL: the value is the next argument)
 * or "--flag=value" (*inline_value points past '='); -1 when none. */
static int find_flag(const char *arg, const char **inline_value)
{
    for (int i = 0; i < (int)NOPTIONS; i++) {
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
    for (size_t i = 0; lookup != NULL && i < NOPTIONS; i++) {
        const char *v = lookup(options[i].env);
        if (v != NULL && apply(c, &options[i], v, options[i].env, e) != 0)
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
        if (apply(c, &options[opt], value, options[opt].flag, e) != 0)
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
    size_t n = 0, used = 0;
    if (cap < 2 * (NOPTIONS + 1) + 1)
        return;
    for (size_t i = 0; i < NOPTIONS && used < storage_cap; i++) {
        const gj_option *o = &options[i];
        if (o->key == NULL)
            continue;
        char *at = storage + used;
        const char *v = at;
        if (o->show != NULL)
            v = o->show(c, at, storage_cap - used);
        else if (o->kind == OPT_STRING)
            v = o->unset != NULL && *string_at((gj_config *)c, o) == '\0'
                    ? o->unset
                    : string_at((gj_config *)c, o);
        else
            snprintf(at, storage_cap - used, "%ld", *number_at((gj_config *)c, o));
        if (v == at)
            used += strlen(at) + 1;
        pairs[n++] = o->key;
        pairs[n++] = v;
    }
    pairs[n++] = "limits";
    pairs[n++] = storage + used;
    size_t ngames, start = used;
    const gj_game *const *games = games_all(&ngames);
    if (used < storage_cap)
        storage[used] = '\0';
    for (size_t i = 0; i < ngames && used < storage_cap; i++)
        for (int j = 0; j < games[i]->nlimits && used < storage_cap; j++)
            used += (size_t)snprintf(storage + used, storage_cap - used, "%s%s.%s=%ld",
                                     used > start ? "," : "", games[i]->name,
                                     games[i]->limits[j].name, c->limits[i][j]);
    pairs[n] = NULL;
}
