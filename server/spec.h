/* spec.h - api/openapi.yaml, compiled into the binary at build time. */
#ifndef GJ_SPEC_H
#define GJ_SPEC_H

#include <stddef.h>

extern const char gj_openapi_yaml[];
extern const size_t gj_openapi_yaml_len;

#endif
