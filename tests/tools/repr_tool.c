/*
 * repr_tool.c - reads doubles (any strtod syntax, e.g. C99 hex floats), one
 * a line, and writes each as ss_buf_add_double writes it. Used by
 * tests/cli/test_repr.py to compare with Python's repr().
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/numfmt.h"

int main(void)
{
	char line[128];
	struct ss_buf b = SS_BUF_INIT;

	while (fgets(line, sizeof(line), stdin)) {
		ss_buf_reset(&b);
		ss_buf_add_double(&b, strtod(line, NULL));
		if (b.failed)
			return 1;
		puts(b.data);
	}
	ss_buf_release(&b);
	return fflush(stdout) != 0;
}
