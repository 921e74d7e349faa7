/*
 * unescape.h - decode the inside of a JSON string (escapes, \u sequences
 * and surrogate pairs) into a growable buffer.
 */
#ifndef SS_UNESCAPE_H
#define SS_UNESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/*
 * Unescape the inside of a JSON string (`raw`, `n` bytes) and append it to
 * `out`. false when the escapes are invalid or a raw control character
 * appears (then `out` may hold a part), or when memory ran out (then
 * out->failed is set).
 */
bool ss_json_unescape(const char *raw, size_t n, struct ss_buf *out);

#endif
