/*
 * table.c - the console's accounting line (SPEC 4.3).
 */
#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"

void ss_report_accounting_line(struct ss_buf *out, const struct ss_agg *a, const char *prefix)
{
	bool first = true;

	ss_buf_adds(out, prefix);
	ss_buf_add_u64_grouped(out, a->total);
	ss_buf_adds(out, a->total == 1 ? " request" : " requests");
	for (int s = 0; s < SS_ST_COUNT; s++) {
		if (!a->status[s])
			continue;
		ss_buf_adds(out, first ? ": " : ", ");
		first = false;
		ss_buf_add_u64_grouped(out, a->status[s]);
		ss_buf_addc(out, ' ');
		ss_buf_adds(out, ss_status_label((enum ss_status)s));
	}
	ss_buf_addc(out, '\n');
}
