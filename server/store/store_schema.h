/* store_schema.h - the store's schema, one text for both engines, as the
 * list of migrations that build it: migration v (1-based) takes a store
 * from schema v - 1 to v.  store.c applies the ones a store lacks in one
 * transaction and records the version in gj_meta ("schema").  A migration
 * is never edited once released; a change to the schema is a new one and
 * STORE_SCHEMA_VERSION (store.h) counts them. */
#ifndef GJ_STORE_SCHEMA_H
#define GJ_STORE_SCHEMA_H

/* The statements of migration v + 1 at [v], each list ended by NULL, and
 * the migrations ended by NULL: as many as STORE_SCHEMA_VERSION (store.h),
 * which store.c checks. */
extern const char *const *const store_migrations[];

#endif
