/* json_out.c - appending a jansson value to a gj_buf (json_out.h). */
#include "json_out.h"

#include <stdlib.h>

void json_out_append(gj_buf *out, json_t *v, size_t flags)
{
    char *text = v ? json_dumps(v, flags) : NULL;
    if (text == NULL)
        out->failed = 1;
    else
        buf_puts(out, text);
    free(text);
    json_decref(v);
}
