/* config.h - the service configuration, read once at start-up.
 *
 * Values come from built-in defaults, then GAMEJUDGE_* environment
 * variables, then command-line flags (flags win).  After config_load the
 * struct is read-only and shared by every thread. */
#ifndef GJ_CONFIG_H
#define GJ_CONFIG_H

#include <stddef.h>

#include "error.h"
#include "game.h"
#include "games.h"

#define GJ_MAX_GAMES GAMES_COUNT /* one limits row per game of games.def */
#define GJ_PATH_MAX  1024

typedef struct gj_config {
    char host[256];
    long port;                                /* 0 = any free port */
    long workers;                             /* solver threads */
    long queue;                               /* jobs waiting for a worker */
    long max_body;                            /* bytes */
    long timeout;                             /* seconds of connection inactivity */
    long io_threads;                          /* libmicrohttpd polling threads */
    long connection_memory;                   /* bytes libmicrohttpd may use per connection */
    long grace;                               /* seconds a stop waits for requests in progress */
    long request_timeout;                     /* seconds a request may take, queue included */
    long max_connections;                     /* open connections at once */
    long max_connections_per_ip;              /* from one client address; 0 = no limit */
    long cache_bytes;                         /* result cache budget; 0 = off */
    long batch_max_items;                     /* items in one POST /batch */
    long judge_max_cases;                     /* cases in one POST /judge test set */
    long judge_max_bytes;                     /* their inputs and outputs together */
    long max_query;                           /* bytes of a GET solve's or analysis's query */
    long cache_max_age;                       /* seconds in a GET answer's Cache-Control */
    long generate_budget_ms;                  /* ceiling on a POST /generate's budget_ms */
    int log_json;                             /* access log as JSON lines instead of text */
    long memory_budget;                       /* bytes requests may hold at once; 0 = no bound */
    long quota_rate;                          /* worker ms per second per client; 0 = off */
    long quota_burst;                         /* worker ms a client's bucket holds */
    long quota_clients;                       /* clients the quota table keeps */
    char trusted_proxies[1024];               /* addresses/CIDRs whose X-Forwarded-For counts */
    char api_keys[GJ_PATH_MAX];               /* the API keys file, "" for none */
    char tls_cert[GJ_PATH_MAX];               /* PEM certificate for HTTPS; "" = HTTP */
    char tls_key[GJ_PATH_MAX];                /* its PEM key; set with tls_cert or not */
    char tls_priorities[512];                 /* GnuTLS priority string; "" = tls.h's default */
    char admin_host[256];                     /* the admin listener's address */
    long admin_port;                          /* -1 = no admin listener, 0 = any port */
    char cors_origins[2048];                  /* exact origins, comma-separated; "" = off */
    long limits[GJ_MAX_GAMES][GJ_MAX_LIMITS]; /* per game, registry order */
} gj_config;

/* How an option's value is read. */
typedef enum opt_kind {
    OPT_INTEGER, /* a whole number in [lo, hi], into the long at `at` */
    OPT_BYTES,   /* a size in bytes, K/M/G allowed, in [lo, hi], into the long at `at` */
    OPT_CUSTOM,  /* by the row's own `read` */
} opt_kind;

/* One option of `serve`: everything about it in one row (config.c). */
typedef struct gj_option {
    const char *flag;    /* "--port" */
    const char *env;     /* "GAMEJUDGE_PORT" */
    const char *arg;     /* "P" */
    const char *help;    /* one line for --help, the default left out */
    const char *def;     /* the default, read as a value of the option; NULL: none or computed */
    const char *def_doc; /* the default as --help and the README say it; NULL: `def` */
    const char *key;     /* its name in the start-up configuration line; NULL: not shown */
    opt_kind kind;
    long lo, hi; /* OPT_INTEGER, OPT_BYTES: the range */
    size_t at;   /* OPT_INTEGER, OPT_BYTES: offsetof the long in gj_config */
    int (*read)(gj_config *c, const char *value, const char *origin, gj_error *e); /* OPT_CUSTOM */
    const char *(*show)(const gj_config *c, char *buf, size_t cap); /* OPT_CUSTOM with a key */
    long (*compute)(void); /* a default that depends on the machine, instead of `def` */
} gj_option;

/* The default of option o into out: as the README's table says it
 * (markdown: "`64M`", "online CPUs"), or as --help does (no backticks). */
void config_default_doc(const gj_option *o, int markdown, char *out, size_t cap);

const gj_option *config_options(size_t *count);

void config_defaults(gj_config *c);

/* Apply environment (getenv-like lookup, NULL for none) then argv (the
 * arguments after "serve").  Returns 0, or -1 with a message naming the flag
 * or variable and the accepted range. */
int config_load(gj_config *c, const char *(*lookup)(const char *name), int argc, char **argv,
                gj_error *e);

/* The limits in force for a game (registry order index). */
const long *config_game_limits(const gj_config *c, const gj_game *g);

/* Append the effective configuration as key, value string pairs (for the
 * start-up log): pairs[] gets at most cap entries, NULL-terminated; the
 * strings live in `storage` (at least 1 KiB). */
void config_describe(const gj_config *c, const char **pairs, size_t cap, char *storage,
                     size_t storage_cap);

/* Parse "123", "64K", "64M", "1G" (binary multiples) into bytes. */
int config_parse_size(const char *s, long lo, long hi, long *out);

#endif
