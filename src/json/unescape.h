/*
 * unescape.h - decode the inside of a JSON string (escapes, \u sequences
 * and surrogate pairs) into a growable buffer the caller owns.
 */
#ifndef SS_UNESCAPE_H
#define SS_UNESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/*
 * Unescape the inside of a JSON string (`raw`, `n` bytes) and append it to
 * `out`. A lone surrogate escape (\ud800 without its pair) gives U+FFFD,
 * as jq reads it. false when an escape is invalid or a raw control
 * character appears (then `out` may hold a part), or when memory ran out
 * (then out->failed is set).
 */
bool ss_json_unescape(const char *raw, size_t n, struct ss_buf *out);

#endif
