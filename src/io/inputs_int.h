/*
 * inputs_int.h - private to the input front end (inputs.c, container.c):
 * the one way an input fails.
 */
#ifndef SS_INPUTS_INT_H
#define SS_INPUTS_INT_H

#include "io/inputs.h"
#include "util/msg.h"

/*
 * Report a failed input: print the message (printf-style) through `msg`,
 * and record `name` (allocated, taken over; NULL when its copy failed) in
 * *slot, freeing what was there. Returns SS_NEXT_FAILED, or SS_NEXT_FATAL
 * when `name` is NULL (out of memory).
 */
enum ss_next ss_fail_input(struct ss_msg *msg, char **slot, char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
