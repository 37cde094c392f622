/* test_config.c - defaults, environment, flags (flags win), sizes and the
 * per-game limits, with the message for every kind of bad value. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "config.h"
#include "games.h"

static const char *const *fake_env;

static const char *lookup(const char *name)
{
    for (int i = 0; fake_env != NULL && fake_env[i] != NULL; i += 2)
        if (strcmp(fake_env[i], name) == 0)
            return fake_env[i + 1];
    return NULL;
}

static int load(gj_config *c, const char *const *env, const char *const *args, gj_error *e)
{
    int argc = 0;
    while (args != NULL && args[argc] != NULL)
        argc++;
    fake_env = env;
    config_defaults(c);
    return config_load(c, lookup, argc, (char **)args, e);
}

START_TEST(test_defaults)
{
    gj_config c;
    gj_error e;
    ck_assert_int_eq(load(&c, NULL, NULL, &e), 0);
    ck_assert_str_eq(c.host, "127.0.0.1");
    ck_assert_int_eq(c.port, 8080);
    ck_assert_int_eq(c.workers, sysconf(_SC_NPROCESSORS_ONLN));
    ck_assert_int_eq(c.queue, 64);
    ck_assert_int_eq(c.max_body, 64L << 20);
    ck_assert_int_eq(c.timeout, 30);
    ck_assert_int_eq(c.connection_memory, 16L << 10);
    ck_assert_int_eq(c.grace, 30);
    ck_assert_int_eq(c.log_json, 0);
    ck_assert_int_eq(c.judge_max_cases, 1000);
    ck_assert_int_eq(c.judge_max_bytes, 16L << 20);
    ck_assert_int_eq(c.max_query, 8L << 10);
    ck_assert_int_eq(c.cache_max_age, 86400);
    ck_assert_int_eq(c.generate_budget_ms, 2000);
    size_t n;
    const gj_game *const *games = games_all(&n);
    for (size_t i = 0; i < n; i++) {
        const long *lim = config_game_limits(&c, games[i]);
        ck_assert_ptr_nonnull(lim);
        for (int j = 0; j < games[i]->nlimits; j++)
            ck_assert_int_eq(lim[j], games[i]->limits[j].def);
    }
}
END_TEST

START_TEST(test_env_then_flags)
{
    gj_config c;
    gj_error e;
    const char *env[] = {"GAMEJUDGE_PORT",
                         "9000",
                         "GAMEJUDGE_WORKERS",
                         "3",
                         "GAMEJUDGE_HOST",
                         "::1",
                         "GAMEJUDGE_JUDGE_MAX_CASES",
                         "7",
                         "GAMEJUDGE_JUDGE_MAX_BYTES",
                         "5",
                         NULL};
    const char *args[] = {"--port", "9100", "--queue=5", "--max-body", "2K", "--judge-max-bytes",
                          "3K",     NULL};
    ck_assert_int_eq(load(&c, env, args, &e), 0);
    ck_assert_int_eq(c.port, 9100); /* flag wins */
    ck_assert_int_eq(c.workers, 3); /* env applies */
    ck_assert_str_eq(c.host, "::1");
    ck_assert_int_eq(c.queue, 5);
    ck_assert_int_eq(c.max_body, 2048);
    ck_assert_int_eq(c.judge_max_cases, 7);    /* env applies */
    ck_assert_int_eq(c.judge_max_bytes, 3072); /* flag wins, with a suffix */
}
END_TEST

static const struct {
    const char *flag, *value, *message;
} bad_values[] = {
    {"--port", "65536", "--port must be an integer from 0 to 65535, not '65536'"},
    {"--port", "80x", "--port must be an integer from 0 to 65535, not '80x'"},
    {"--workers", "0", "--workers must be an integer from 1 to 1024, not '0'"},
    {"--queue", "-1", "--queue must be an integer from 1 to 1000000, not '-1'"},
    {"--max-body", "5T",
     "--max-body must be a size in bytes (K/M/G allowed) from 1 to 4294967296, not '5T'"},
    {"--max-body", "8G",
     "--max-body must be a size in bytes (K/M/G allowed) from 1 to 4294967296, not '8G'"},
    {"--timeout", "", "--timeout must be an integer from 1 to 86400, not ''"},
    {"--host", "", "--host: the host must be 1 to 255 characters"},
    {"--limit", "grid-walk.rows=0", "--limit: grid-walk.rows must be an integer from 1 to"},
    {"--limit", "chess.n=3", "--limit: unknown game 'chess'"},
    {"--limit", "grid-walk.side=3", "--limit: grid-walk has no limit 'side' (it has: "},
    {"--limit", "grid-walk", "--limit: 'grid-walk' is not GAME.NAME=VALUE"},
    {"--grace", "3601", "--grace must be an integer from 0 to 3600, not '3601'"},
    {"--log-format", "xml", "--log-format must be 'text' or 'json', not 'xml'"},
    {"--memory-budget", "2T",
     "--memory-budget must be a size in bytes (K/M/G allowed) from 0 to 1099511627776, not '2T'"},
    {"--memory-budget", "-1", "--memory-budget must be a size in bytes"},
    {"--quota-rate", "-5", "--quota-rate must be an integer from 0 to 1000000000, not '-5'"},
    {"--quota-burst", "0", "--quota-burst must be an integer from 1 to 1000000000, not '0'"},
    {"--quota-clients", "0", "--quota-clients must be an integer from 1 to 10000000, not '0'"},
    {"--trusted-proxies", "10.0.0.0/8,proxy.local",
     "--trusted-proxies: 'proxy.local' is not an IP address or CIDR block"},
    {"--trusted-proxies", "127.0.0.1/40", "--trusted-proxies: '127.0.0.1/40' is not an IP"},
    {"--max-query", "100", "--max-query must be a size in bytes (K/M/G allowed) from 256 to"},
    {"--max-query", "9K", "--max-query (9216 bytes) must be at most half of --connection-memory"},
    {"--cache-max-age", "-1", "--cache-max-age must be an integer from 0 to 31536000, not '-1'"},
    {"--tls-cert", "", "--tls-cert: the file name must be 1 to 1023 characters"},
    {"--tls-cert", "cert.pem",
     "--tls-cert and --tls-key go together: --tls-cert is set but not "
     "--tls-key"},
    {"--tls-key", "key.pem",
     "--tls-cert and --tls-key go together: --tls-key is set but not "
     "--tls-cert"},
    {"--tls-priorities", "", "--tls-priorities: the priority string must be 1 to 511 characters"},
    {"--tls-priorities", "NORMAL",
     "--tls-priorities is for HTTPS: set --tls-cert and --tls-key too"},
    {"--admin-address", "127.0.0.1",
     "--admin-address must be HOST:PORT (or [IPV6]:PORT) with a "
     "port from 0 to 65535, not '127.0.0.1'"},
    {"--admin-address", ":9090", "--admin-address must be HOST:PORT"},
    {"--store", "mysql://db.example/gj",
     "--store must be none, sqlite:PATH, postgresql://... or postgres://..., not "
     "'mysql://db.example/gj'"},
    {"--store", "sqlite:", "--store must be none, sqlite:PATH, postgresql://"},
    {"--store", "SQLITE:x.db", "--store must be none, sqlite:PATH, postgresql://"},
    {"--store", "", "--store: the store's URL must be 1 to 1023 characters"},
    {"--rated-plays", "everyone", "--rated-plays must be 'keys' or 'anyone', not 'everyone'"},
    {"--rated-plays", "", "--rated-plays must be 'keys' or 'anyone', not ''"},
    {"--admin-address", "127.0.0.1:65536", "--admin-address must be HOST:PORT"},
    {"--admin-address", "127.0.0.1:", "--admin-address must be HOST:PORT"},
    {"--admin-address", "[::1]x:90", "--admin-address must be HOST:PORT"},
    {"--cors-origins", "https://a.example/",
     "--cors-origins: 'https://a.example/' is not an "
     "origin"},
    {"--cors-origins", "https://a.example,", "--cors-origins: '' is not an origin"},
    {"--cors-origins", "https://a.example, https://b.example",
     "--cors-origins: ' https://b.example' is not an origin"},
    {"--cors-origins", "*", "--cors-origins: '*' is not an origin"},
    {"--public-origin", "https://puzzles.example/",
     "--public-origin: 'https://puzzles.example/' is not an origin"},
    {"--public-origin", "https://a.example,https://b.example",
     "--public-origin: 'https://a.example,https://b.example' is not an origin"},
    {"--public-origin", "puzzles.example", "--public-origin: 'puzzles.example' is not an origin"},
    {"--judge-max-cases", "0", "--judge-max-cases must be an integer from 1 to 100000, not '0'"},
    {"--judge-max-bytes", "0",
     "--judge-max-bytes must be a size in bytes (K/M/G allowed) from 1 to 4294967296, not '0'"},
    {"--generate-budget-ms", "0",
     "--generate-budget-ms must be an integer from 1 to 600000, not '0'"},
};

START_TEST(test_query_bounds)
{
    gj_config c;
    gj_error e;
    /* --max-query may grow with --connection-memory, in either order. */
    const char *args[] = {"--max-query", "64K", "--connection-memory", "128K", "--cache-max-age",
                          "0",           NULL};
    ck_assert_int_eq(load(&c, NULL, args, &e), 0);
    ck_assert_int_eq(c.max_query, 64L << 10);
    ck_assert_int_eq(c.cache_max_age, 0);
    /* Half of the default --connection-memory (16K) is the most it may be alone. */
    const char *env[] = {"GAMEJUDGE_MAX_QUERY", "6K", "GAMEJUDGE_CACHE_MAX_AGE", "60", NULL};
    ck_assert_int_eq(load(&c, env, NULL, &e), 0);
    ck_assert_int_eq(c.max_query, 6L << 10);
    ck_assert_int_eq(c.cache_max_age, 60);
}
END_TEST

START_TEST(test_bad_values)
{
    gj_config c;
    gj_error e;
    const char *args[] = {bad_values[_i].flag, bad_values[_i].value, NULL};
    ck_assert_int_eq(load(&c, NULL, args, &e), -1);
    ck_assert_msg(strncmp(e.message, bad_values[_i].message, strlen(bad_values[_i].message)) == 0,
                  "got '%s'", e.message);
}
END_TEST

START_TEST(test_bad_env_and_usage)
{
    gj_config c;
    gj_error e;
    const char *env[] = {"GAMEJUDGE_TIMEOUT", "soon", NULL};
    ck_assert_int_eq(load(&c, env, NULL, &e), -1);
    ck_assert_str_eq(e.message, "GAMEJUDGE_TIMEOUT must be an integer from 1 to 86400, not 'soon'");

    const char *unknown[] = {"--colour", NULL};
    ck_assert_int_eq(load(&c, NULL, unknown, &e), -1);
    ck_assert_str_eq(e.message, "unknown option '--colour' (see --help)");

    const char *missing[] = {"--port", NULL};
    ck_assert_int_eq(load(&c, NULL, missing, &e), -1);
    ck_assert_str_eq(e.message, "--port needs a value");
}
END_TEST

START_TEST(test_logging_and_grace)
{
    gj_config c;
    gj_error e;
    const char *env[] = {"GAMEJUDGE_LOG_FORMAT", "json", "GAMEJUDGE_GRACE", "5", NULL};
    ck_assert_int_eq(load(&c, env, NULL, &e), 0);
    ck_assert_int_eq(c.log_json, 1);
    ck_assert_int_eq(c.grace, 5);
    const char *args[] = {"--log-format=text", "--grace", "0", NULL};
    ck_assert_int_eq(load(&c, env, args, &e), 0);
    ck_assert_int_eq(c.log_json, 0);
    ck_assert_int_eq(c.grace, 0);

    const char *pairs[80];
    char storage[2048];
    config_describe(&c, pairs, 80, storage, sizeof storage);
    int seen = 0;
    for (int i = 0; pairs[i] != NULL; i += 2) {
        if (strcmp(pairs[i], "grace") == 0)
            seen += strcmp(pairs[i + 1], "0") == 0;
        if (strcmp(pairs[i], "limits") == 0)
            seen += strstr(pairs[i + 1], "grid-walk.rows=100") != NULL;
    }
    ck_assert_int_eq(seen, 2);
}
END_TEST

/* The README's configuration table is the option table's: one row per
 * option, each with its flag, argument, variable and default as the row
 * says them, and no row for an option that is gone. */
START_TEST(test_readme_table_is_the_options)
{
    FILE *f = fopen("README.md", "rb");
    ck_assert_ptr_nonnull(f);
    static char readme[1 << 18];
    size_t len = fread(readme, 1, sizeof readme - 1, f);
    fclose(f);
    readme[len] = '\0';
    size_t n;
    const gj_option *opts = config_options(&n);
    for (size_t i = 0; i < n; i++) {
        char def[256], want[512];
        config_default_doc(&opts[i], 1, def, sizeof def);
        snprintf(want, sizeof want, "\n| `%s %s` | `%s` | %s | ", opts[i].flag, opts[i].arg,
                 opts[i].env, def);
        ck_assert_msg(strstr(readme, want) != NULL, "README.md has no row starting %s", want + 1);
        /* Every default reads back as a value of its option. */
        if (opts[i].def != NULL) {
            gj_config c;
            gj_error e;
            const char *args[] = {opts[i].flag, opts[i].def, NULL};
            if (strcmp(opts[i].flag, "--tls-priorities") != 0) /* needs a certificate too */
                ck_assert_msg(load(&c, NULL, args, &e) == 0, "%s %s: %s", opts[i].flag, opts[i].def,
                              e.message);
        }
    }
    size_t rows = 0;
    for (const char *p = readme; (p = strstr(p, "\n| `--")) != NULL; p++)
        rows++;
    ck_assert_uint_eq(rows, n);
}
END_TEST

START_TEST(test_limits)
{
    gj_config c;
    gj_error e;
    const char *env[] = {"GAMEJUDGE_LIMITS", "grid-walk.rows=500,grid-walk.cols=400", NULL};
    const char *args[] = {"--limit", "grid-walk.rows=1000", NULL};
    ck_assert_int_eq(load(&c, env, args, &e), 0);
    const long *lim = config_game_limits(&c, &game_grid_walk);
    ck_assert_int_eq(lim[0], 1000);
    ck_assert_int_eq(lim[1], 400);
    /* Other games keep their defaults. */
    ck_assert_int_eq(config_game_limits(&c, &game_prime_chocolate)[0], 2000);
}
END_TEST

START_TEST(test_sizes)
{
    long v;
    ck_assert_int_eq(config_parse_size("0", 0, 10, &v), 0);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(config_parse_size("64k", 0, 1L << 40, &v), 0);
    ck_assert_int_eq(v, 65536);
    ck_assert_int_eq(config_parse_size("3M", 0, 1L << 40, &v), 0);
    ck_assert_int_eq(v, 3L << 20);
    ck_assert_int_eq(config_parse_size("1G", 0, 1L << 40, &v), 0);
    ck_assert_int_eq(v, 1L << 30);
    ck_assert_int_eq(config_parse_size("1MB", 0, 1L << 40, &v), -1);
    ck_assert_int_eq(config_parse_size("K", 0, 1L << 40, &v), -1);
    ck_assert_int_eq(config_parse_size("-1", -5, 1L << 40, &v), -1);
    ck_assert_int_eq(config_parse_size("99999999999999999999", 0, 1L << 40, &v), -1);
    ck_assert_int_eq(config_parse_size("9999999999999G", 0, 1L << 62, &v), -1);
}
END_TEST

/* The TLS files, the admin address and the CORS list: set from the
 * environment and flags like every option, and off by default. */
START_TEST(test_edge_options)
{
    gj_config c;
    gj_error e;
    ck_assert_int_eq(load(&c, NULL, NULL, &e), 0);
    ck_assert_str_eq(c.tls_cert, "");
    ck_assert_str_eq(c.tls_key, "");
    ck_assert_int_eq(c.admin_port, -1);
    ck_assert_str_eq(c.cors_origins, "");

    const char *env[] = {"GAMEJUDGE_TLS_CERT",     "/etc/gj/cert.pem",        "GAMEJUDGE_TLS_KEY",
                         "/etc/gj/key.pem",        "GAMEJUDGE_ADMIN_ADDRESS", "0.0.0.0:9090",
                         "GAMEJUDGE_CORS_ORIGINS", "https://a.example",       NULL};
    const char *args[] = {"--cors-origins", "https://puzzles.example,http://127.0.0.1:3000",
                          "--admin-address=[::1]:0", NULL};
    ck_assert_int_eq(load(&c, env, args, &e), 0);
    ck_assert_str_eq(c.tls_cert, "/etc/gj/cert.pem");
    ck_assert_str_eq(c.tls_key, "/etc/gj/key.pem");
    ck_assert_str_eq(c.tls_priorities, ""); /* tls.h's default */
    ck_assert_str_eq(c.admin_host, "::1");  /* the flag wins over the variable */
    ck_assert_int_eq(c.admin_port, 0);
    ck_assert_str_eq(c.cors_origins, "https://puzzles.example,http://127.0.0.1:3000");

    const char *v4[] = {"--admin-address", "10.0.0.7:9090", NULL};
    ck_assert_int_eq(load(&c, NULL, v4, &e), 0);
    ck_assert_str_eq(c.admin_host, "10.0.0.7");
    ck_assert_int_eq(c.admin_port, 9090);

    /* The priority string is kept as given; GnuTLS judges it at start-up. */
    const char *prio[] = {"--tls-priorities", "NORMAL:-VERS-TLS1.0", NULL};
    ck_assert_int_eq(load(&c, env, prio, &e), 0);
    ck_assert_str_eq(c.tls_priorities, "NORMAL:-VERS-TLS1.0");
}
END_TEST

START_TEST(test_admission_options)
{
    gj_config c;
    gj_error e;
    ck_assert_int_eq(load(&c, NULL, NULL, &e), 0);
    ck_assert_int_gt(c.memory_budget, 0); /* half the machine's memory */
    ck_assert_int_eq(c.quota_rate, 0);    /* quotas off */
    ck_assert_int_eq(c.quota_burst, 10000);
    ck_assert_int_eq(c.quota_clients, 100000);
    ck_assert_str_eq(c.trusted_proxies, "");
    ck_assert_str_eq(c.api_keys, "");
    const char *env[] = {"GAMEJUDGE_MEMORY_BUDGET",
                         "2G",
                         "GAMEJUDGE_QUOTA_RATE",
                         "50",
                         "GAMEJUDGE_TRUSTED_PROXIES",
                         "10.0.0.0/8",
                         NULL};
    const char *args[] = {"--memory-budget",
                          "512M",
                          "--quota-burst=3000",
                          "--quota-clients",
                          "7",
                          "--trusted-proxies",
                          "127.0.0.1, ::1/128",
                          "--api-keys",
                          "/etc/gamejudge/keys",
                          NULL};
    ck_assert_int_eq(load(&c, env, args, &e), 0);
    ck_assert_int_eq(c.memory_budget, 512L << 20); /* flag wins */
    ck_assert_int_eq(c.quota_rate, 50);            /* env applies */
    ck_assert_int_eq(c.quota_burst, 3000);
    ck_assert_int_eq(c.quota_clients, 7);
    ck_assert_str_eq(c.trusted_proxies, "127.0.0.1, ::1/128");
    ck_assert_str_eq(c.api_keys, "/etc/gamejudge/keys"); /* read at start, not here */
    const char *off[] = {"--memory-budget", "0", NULL};
    ck_assert_int_eq(load(&c, NULL, off, &e), 0);
    ck_assert_int_eq(c.memory_budget, 0);
}
END_TEST

/* Two values each string option accepts (a checked option's must pass its
 * check): every OPT_STRING row of the table must be here, so a new string
 * option is tested as soon as it exists. */
static const struct {
    const char *flag, *one, *two;
} string_values[] = {
    {"--host", "::1", "0.0.0.0"},
    {"--trusted-proxies", "10.0.0.0/8", "127.0.0.1, ::1/128"},
    {"--api-keys", "/etc/gamejudge/keys", "keys.txt"},
    {"--tls-cert", "/etc/gj/cert.pem", "cert.pem"},
    {"--tls-key", "/etc/gj/key.pem", "key.pem"},
    {"--tls-priorities", "NORMAL", "SECURE256:-VERS-TLS1.2"},
    {"--cors-origins", "https://a.example", "https://b.example,http://127.0.0.1:3000"},
    {"--public-origin", "https://puzzles.example", "http://127.0.0.1:8080"},
    {"--store", "sqlite:/var/lib/gamejudge/store.db", "postgresql://gj@db.example/gamejudge"},
};

/* The TLS pair as flags, given first so that a TLS option alone still
 * loads (the two files go together, the priorities need them); a row's
 * own flag, given later, wins over them. */
#define TLS_PAIR "--tls-cert", "/base/cert.pem", "--tls-key", "/base/key.pem"

/* Option o's string in c. */
static const char *string_of(const gj_config *c, const gj_option *o)
{
    return (const char *)c + o->at;
}

/* What config_describe says of option `key` in c, or NULL. */
static const char *described(const gj_config *c, const char *key)
{
    static const char *pairs[128];
    static char storage[16384];
    config_describe(c, pairs, 128, storage, sizeof storage);
    for (int i = 0; pairs[i] != NULL; i += 2)
        if (strcmp(pairs[i], key) == 0)
            return pairs[i + 1];
    return NULL;
}

/* The store's URL and who may rate: the defaults, every kind of URL
 * taken, and a password never shown on the configuration line, nor in a
 * refusal. */
START_TEST(test_store_options)
{
    gj_config c;
    gj_error e;
    ck_assert_int_eq(load(&c, NULL, NULL, &e), 0);
    ck_assert_str_eq(c.store, "sqlite:data/gamejudge.db");
    ck_assert_int_eq(c.rated_plays_open, 0);
    ck_assert_str_eq(described(&c, "store"), "sqlite:data/gamejudge.db");
    ck_assert_str_eq(described(&c, "rated_plays"), "keys");
    static const char *const taken[] = {"none", "sqlite:gj.db", "sqlite:/a b/c.db",
                                        "postgresql://h/db",
                                        "postgres://u@h:5433/db?sslmode=require"};
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        const char *args[] = {"--store", taken[i], NULL};
        ck_assert_msg(load(&c, NULL, args, &e) == 0, "%s: %s", taken[i], e.message);
        ck_assert_str_eq(c.store, taken[i]);
    }
    const char *env[] = {"GAMEJUDGE_STORE", "postgresql://gj:s3cret@db.example:5432/gj",
                         "GAMEJUDGE_RATED_PLAYS", "anyone", NULL};
    ck_assert_int_eq(load(&c, env, NULL, &e), 0);
    ck_assert_str_eq(c.store, "postgresql://gj:s3cret@db.example:5432/gj");
    ck_assert_int_eq(c.rated_plays_open, 1);
    ck_assert_str_eq(described(&c, "store"), "postgresql://gj:***@db.example:5432/gj");
    ck_assert_str_eq(described(&c, "rated_plays"), "anyone");
    const char *keys[] = {"--rated-plays", "keys", NULL};
    ck_assert_int_eq(load(&c, env, keys, &e), 0);
    ck_assert_int_eq(c.rated_plays_open, 0);
    const char *bad[] = {"--store", "mysql://gj:s3cret@db.example/gj", NULL};
    ck_assert_int_eq(load(&c, NULL, bad, &e), -1);
    ck_assert_ptr_null(strstr(e.message, "s3cret"));
    ck_assert_ptr_nonnull(strstr(e.message, "--store"));
}
END_TEST

/* Every string option, by its row: its default, the variable then the flag
 * (the flag wins), what the configuration line shows, an empty value where
 * one is refused and a value one byte too long, each refusal naming where
 * the value came from and leaving the option as it was. */
START_TEST(test_string_options)
{
    size_t n, nvalues = sizeof string_values / sizeof string_values[0], strings = 0;
    const gj_option *opts = config_options(&n);
    for (size_t i = 0; i < n; i++) {
        const gj_option *o = &opts[i];
        if (o->kind != OPT_STRING)
            continue;
        strings++;
        size_t k = 0;
        while (k < nvalues && strcmp(string_values[k].flag, o->flag) != 0)
            k++;
        ck_assert_msg(k < nvalues, "string option %s has no values in string_values", o->flag);
        ck_assert_int_ge(o->lo, 0);
        ck_assert_int_le(o->lo, 1);
        ck_assert_int_gt(o->hi, 200);
        ck_assert_ptr_nonnull(o->what);
        gj_config c;
        gj_error e;

        ck_assert_int_eq(load(&c, NULL, NULL, &e), 0);
        ck_assert_str_eq(string_of(&c, o), o->def != NULL ? o->def : "");

        /* The first of a name is the one looked up: the row's own, then
         * the TLS pair's (so a TLS option alone still loads). */
        const char *env[] = {o->env,
                             string_values[k].one,
                             "GAMEJUDGE_TLS_CERT",
                             "/base/cert.pem",
                             "GAMEJUDGE_TLS_KEY",
                             "/base/key.pem",
                             NULL};
        ck_assert_msg(load(&c, env, NULL, &e) == 0, "%s: %s", o->env, e.message);
        ck_assert_str_eq(string_of(&c, o), string_values[k].one);
        const char *args[] = {o->flag, string_values[k].two, NULL};
        ck_assert_msg(load(&c, env, args, &e) == 0, "%s: %s", o->flag, e.message);
        ck_assert_str_eq(string_of(&c, o), string_values[k].two);
        if (o->key != NULL && o->show == NULL) {
            const char *shown = described(&c, o->key);
            ck_assert_ptr_nonnull(shown);
            ck_assert_str_eq(shown, string_values[k].two);
        }

        char want[300];
        if (o->lo == 1) {
            const char *empty[] = {o->flag, "", NULL};
            ck_assert_int_eq(load(&c, env, empty, &e), -1);
            snprintf(want, sizeof want, "%s: %s must be 1 to %ld characters", o->flag, o->what,
                     o->hi);
            ck_assert_str_eq(e.message, want);
            ck_assert_str_eq(string_of(&c, o), string_values[k].one);
        } else {
            const char *empty[] = {o->flag, "", NULL};
            ck_assert_msg(load(&c, env, empty, &e) == 0, "%s '': %s", o->flag, e.message);
            ck_assert_str_eq(string_of(&c, o), "");
            if (o->key != NULL && o->show == NULL)
                ck_assert_str_eq(described(&c, o->key), o->unset != NULL ? o->unset : "");
        }
        static char longer[8192];
        ck_assert_int_lt(o->hi + 1, (long)sizeof longer);
        memset(longer, 'a', (size_t)o->hi + 1);
        longer[o->hi + 1] = '\0';
        const char *too_long[] = {o->env, longer, NULL};
        ck_assert_int_eq(load(&c, too_long, NULL, &e), -1);
        if (o->lo == 1)
            snprintf(want, sizeof want, "%s: %s must be 1 to %ld characters", o->env, o->what,
                     o->hi);
        else
            snprintf(want, sizeof want, "%s: %s is longer than %ld characters", o->env, o->what,
                     o->hi);
        ck_assert_str_eq(e.message, want);
        ck_assert_str_eq(string_of(&c, o), o->def != NULL ? o->def : "");
    }
    ck_assert_uint_eq(strings, nvalues); /* no value for an option that is gone */
}
END_TEST

/* The string options without a check take any text of their lengths:
 * many lengths around the bounds and in between, from a fixed seed, each
 * kept exactly when the row's range allows it and refused otherwise. */
START_TEST(test_string_lengths)
{
    size_t n;
    const gj_option *opts = config_options(&n);
    uint64_t seed = 0x5eed0c0f;
    static char value[8192];
    for (size_t i = 0; i < n; i++) {
        const gj_option *o = &opts[i];
        if (o->kind != OPT_STRING || o->check != NULL)
            continue;
        for (int round = 0; round < 60; round++) {
            long len = round < 4 ? (long[]){0, 1, o->hi, o->hi + 1}[round]
                                 : (long)rng_below(&seed, (uint64_t)o->hi + 8);
            for (long j = 0; j < len; j++)
                value[j] = (char)(' ' + 1 + rng_below(&seed, 94)); /* printable, no space */
            value[len] = '\0';
            gj_config c;
            gj_error e;
            const char *args[] = {TLS_PAIR, o->flag, value, NULL};
            int rc = load(&c, NULL, args, &e);
            if (len >= o->lo && len <= o->hi) {
                ck_assert_msg(rc == 0, "%s, %ld characters: %s", o->flag, len, e.message);
                ck_assert_str_eq(string_of(&c, o), value);
            } else {
                ck_assert_msg(rc == -1, "%s took %ld characters", o->flag, len);
                ck_assert_msg(strstr(e.message, o->flag) == e.message, "%s", e.message);
            }
        }
    }
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *config_suite(void)
{
    const harness_case cases[] = {
        {"config", test_defaults},          {"config", test_env_then_flags},
        {"config", test_bad_env_and_usage}, {"config", test_limits},
        {"config", test_logging_and_grace}, {"config", test_sizes},
        {"config", test_query_bounds},      {"config", test_edge_options},
        {"config", test_admission_options}, {"config", test_readme_table_is_the_options},
        {"config", test_store_options},     {"config", test_string_options},
        {"config", test_string_lengths},
    };
    Suite *s = harness_suite("config", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "config", test_bad_values, (int)(sizeof bad_values / sizeof bad_values[0]),
                     0);
    return s;
}

int main(void)
{
    return harness_main(config_suite());
}
