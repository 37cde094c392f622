/* spec.h - the OpenAPI document (build/openapi.yaml, assembled from api/),
 * its HTML rendering (scripts/build-docs.mjs) and the playground page
 * (web/playground.html), compiled into the binary at build time. */
#ifndef GJ_SPEC_H
#define GJ_SPEC_H

#include <stddef.h>

extern const unsigned char gj_openapi_yaml[];
extern const size_t gj_openapi_yaml_len;
extern const unsigned char gj_docs_html[];
extern const size_t gj_docs_html_len;
extern const unsigned char gj_playground_html[];
extern const size_t gj_playground_html_len;

#endif
