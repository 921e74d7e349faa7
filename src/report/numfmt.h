/*
 * numfmt.h - numbers as the outputs print them, independent of the locale.
 *
 * Depends on the JSON shim (json/json.h): ss_buf_add_double() finds the
 * shortest digits that read back to the double by reading candidates back
 * with the shim's correctly rounded number reader (simdjson's, as exact as
 * strtod and without its locale). Digits otherwise come from integer
 * arithmetic or from printf's %e and %f (which round correctly in glibc),
 * with the radix character placed here.
 *
 * Ownership: every function appends to a buffer the caller owns and keeps
 * nothing; an allocation failure shows in its `failed` flag (util/buf.h).
 */
#ifndef SS_NUMFMT_H
#define SS_NUMFMT_H

#include "util/buf.h"

/*
 * A double as Python's repr() writes it: the shortest text that reads back
 * to the same double; `8.0` for an integral value; exponent form from 1e16
 * up and below 1e-4 (`1e+16`, `1e-05`). Non-finite values: `null`.
 */
void ss_buf_add_double(struct ss_buf *b, double v);

/* A 128-bit integer in decimal. */
void ss_buf_add_i128(struct ss_buf *b, __int128 v);

/*
 * The fixed-point formats below round the binary value correctly (half to
 * even on exact ties), as Python's `%` formatting does; `inf`, `-inf` and
 * `nan` are written as Python writes them. The locale is never consulted.
 */

/* `%.2f` (for CSV). */
void ss_buf_add_fixed2(struct ss_buf *b, double v);

/* `%.2f` with `,` thousands separators (for the console). */
void ss_buf_add_fixed2_grouped(struct ss_buf *b, double v);

/* `%.0f` (console histogram percentages). */
void ss_buf_add_fixed0(struct ss_buf *b, double v);

/* An unsigned count with `,` thousands separators (`1,000`). */
void ss_buf_add_u64_grouped(struct ss_buf *b, uint64_t v);
/* The same for a count of up to 128 bits (past 2^64-1: digits ungrouped). */
void ss_buf_add_u128_grouped(struct ss_buf *b, unsigned __int128 v);

/* A user's confidence level as the shortest text: 95, 99.5. */
void ss_report_add_level(struct ss_buf *b, double level);

#endif
