/* routes.h - the route table: a row per endpoint (router.h says what a row
 * holds), in the order `serve --help` lists them.
 *
 * Adding an endpoint is one row here and one handler (endpoints.h). */
#ifndef GJ_ROUTES_H
#define GJ_ROUTES_H

#include <stddef.h>

#include "router.h"

/* The whole table. */
const route_row *routes_table(size_t *count);

/* router_match against this table (for `serve --help` and the tests). */
void routes_match(const char *method, const char *path, route_match *m);

#endif
