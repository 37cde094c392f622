/* settings.h - the service configuration every layer reads.
 *
 * Filled once at start-up (start/config.c reads the options into it) and
 * read-only after that, shared by every thread.  Only the values live
 * here; how each is read, checked and shown lives with its option row. */
#ifndef GJ_SETTINGS_H
#define GJ_SETTINGS_H

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
    char public_origin[256];                  /* where visitors reach the service, an exact
                                               * origin (link previews); "" = unknown */
    char store[GJ_PATH_MAX];                  /* the puzzle store's URL (store.h), or "none" */
    int rated_plays_open;                     /* --rated-plays anyone: a client without an API
                                               * key may send "player" (and move ratings) */
    long limits[GJ_MAX_GAMES][GJ_MAX_LIMITS]; /* per game, registry order */
} gj_config;

/* The limits in force for game g, NULL for a game outside the registry. */
const long *config_game_limits(const gj_config *c, const gj_game *g);

#endif
