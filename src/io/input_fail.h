/*
 * input_fail.h - the one way an input fails, shared by the input front end
 * (inputs.c) and the archive reader (container.c): the message is printed
 * and the failed input's name is kept for the caller.
 *
 * Ownership: the name given is taken over and lives in the caller's slot
 * until the next failure replaces it (or the slot's owner frees it).
 */
#ifndef SS_INPUT_FAIL_H
#define SS_INPUT_FAIL_H

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
