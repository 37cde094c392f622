/* catalog.h - the body of GET /games: every game with the limits in force
 * and an example input in both forms.  Built once at start-up. */
#ifndef GJ_CATALOG_H
#define GJ_CATALOG_H

#include <stddef.h>

#include "settings.h"

/* A malloc'd JSON document, or NULL when memory is short. */
char *catalog_render(const gj_config *cfg, size_t *len);

#endif
