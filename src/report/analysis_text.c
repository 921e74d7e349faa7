/*
 * analysis_text.c - SPEC 7 for people: the console's analysis sections in
 * their order (sec_*.c).
 */
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

void ss_report_text_analysis(struct ss_buf *out, const struct ss_agg *a,
			     const struct ss_analysis *an, bool utf8)
{
	const struct ss_analysis_opts *o = an->opts;

	if (o->positions)
		ss_sec_positions_text(out, &(struct ss_report_ctx){a, an, utf8, false});
	if (o->ci && a->main.ok)
		ss_sec_intervals_text(out, &(struct ss_report_ctx){a, an, utf8, false});
	if (o->windows)
		ss_sec_windows_text(out, &(struct ss_report_ctx){a, an, utf8, false});
}
