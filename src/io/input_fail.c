/*
 * input_fail.c - a failed input reported once, its name kept (input_fail.h).
 */
#include "io/input_fail.h"

#include <stdarg.h>

#include "util/alloc.h"

enum ss_next ss_fail_input(struct ss_msg *msg, char **slot, char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ss_msg_verror(msg, fmt, ap);
	va_end(ap);
	ss_free(*slot);
	*slot = name;
	return name ? SS_NEXT_FAILED : SS_NEXT_FATAL;
}
