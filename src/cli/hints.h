/*
 * hints.h - when nothing shows up (SPEC 5): after a run, name the likely
 * cause of an empty report from what the requests showed, and say when a
 * --group-by meta.NAME key was found in no request; before it, say when
 * the numbered parts of a shard set are given out of order.
 *
 * Ownership: reads the finished aggregate and the options; writes through
 * the message context (warnings: not with -q); allocates nothing it keeps.
 */
#ifndef SS_HINTS_H
#define SS_HINTS_H

#include "cli/options.h"
#include "metrics/aggregate.h"
#include "util/msg.h"

/*
 * Before a run: inputs named as the numbered parts of one set (the same
 * name but for the last number, part-2.jsonl.zst, part-10.jsonl.zst) that
 * come out of numeric order, as a shell glob lists unpadded numbers: say
 * so (SPEC 8.4), as the merged report follows the order given.
 */
void ss_hints_input_order(const struct ss_options *o, struct ss_msg *msg);

/*
 * SPEC 5: every input with at least one line of which no line is a
 * request of a known kind or a server line could not be read: it is
 * marked failed and named, with what it looks like. Returns how many.
 */
size_t ss_hints_unreadable(struct ss_agg *a, struct ss_msg *msg);

/* The hints a finished run calls for, if any. */
void ss_hints_after_run(const struct ss_agg *a, const struct ss_options *o,
			struct ss_msg *msg);

#endif
