/* config.h - reading the service configuration (settings.h), once, at
 * start-up: one row per option (gj_option).
 *
 * Values come from built-in defaults, then GAMEJUDGE_* environment
 * variables, then command-line flags (flags win).  After config_load the
 * struct is read-only and shared by every thread. */
#ifndef GJ_CONFIG_H
#define GJ_CONFIG_H

#include <stddef.h>

#include "error.h"
#include "game.h"
#include "settings.h"

/* How an option's value is read. */
typedef enum opt_kind {
    OPT_INTEGER, /* a whole number in [lo, hi], into the long at `at` */
    OPT_BYTES,   /* a size in bytes, K/M/G allowed, in [lo, hi], into the long at `at` */
    OPT_STRING,  /* text of lo to hi bytes that `check` (if any) accepts, copied into the char
                  * array at `at` */
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
    long lo, hi;      /* OPT_INTEGER, OPT_BYTES: the range; OPT_STRING: of its length */
    size_t at;        /* OPT_INTEGER, OPT_BYTES, OPT_STRING: offsetof the field in gj_config */
    const char *what; /* OPT_STRING: the value as its errors name it ("the host") */
    int (*check)(const char *value, const char *origin, gj_error *e); /* OPT_STRING, or NULL */
    const char *unset; /* OPT_STRING: what the configuration line shows for ""; NULL: "" */
    int (*read)(gj_config *c, const char *value, const char *origin, gj_error *e); /* OPT_CUSTOM */
    /* What the configuration line shows: an OPT_CUSTOM row with a key has
     * one, an OPT_STRING row may (else its text, or `unset`). */
    const char *(*show)(const gj_config *c, char *buf, size_t cap);
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

/* Append the effective configuration as key, value string pairs (for the
 * start-up log): pairs[] gets at most cap entries, NULL-terminated; the
 * strings live in `storage` (at least 1 KiB). */
void config_describe(const gj_config *c, const char **pairs, size_t cap, char *storage,
                     size_t storage_cap);

/* Parse "123", "64K", "64M", "1G" (binary multiples) into bytes. */
int config_parse_size(const char *s, long lo, long hi, long *out);

#endif
