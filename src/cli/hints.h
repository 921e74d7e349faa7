/*
 * hints.h - when nothing shows up (SPEC 5): after a run, name the likely
 * cause of an empty report from what the requests showed, and say when a
 * --group-by meta.NAME key was found in no request.
 *
 * Ownership: reads the finished aggregate and the options; writes through
 * the message context (warnings: not with -q); allocates nothing it keeps.
 */
#ifndef SS_HINTS_H
#define SS_HINTS_H

#include "cli/options.h"
#include "metrics/aggregate.h"
#include "util/msg.h"

/* The hints a finished run calls for, if any. */
void ss_hints_after_run(const struct ss_agg *a, const struct ss_options *o,
			struct ss_msg *msg);

#endif
