/*
 * analysis_csv.c - SPEC 7's sections of the aggregate CSV, after 4.2's:
 * acceptance by position, the shorter-draft table and acceptance per
 * drafted token (sec_positions.c), the intervals (sec_intervals.c), then one
 * row per group and metric (and with --compare one row per group and
 * difference from the baseline), the windows over time, the outliers
 * (sec_windows.c, sec_outliers.c) and the definitions (sec_definitions.c).
 * CRLF, numbers %.2f, counts as integers, absent cells empty, as in 4.2.
 */
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

void ss_report_csv_analysis(struct ss_buf *out, const struct ss_agg *a,
			    const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o;

	if (!an || !an->any)
		return;
	o = an->opts;
	if (o->positions)
		ss_sec_positions_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->ci)
		ss_sec_intervals_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->group_by.n)
		ss_sec_groups_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->windows)
		ss_sec_windows_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->outliers)
		ss_sec_outliers_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->definitions)
		ss_sec_defs_csv(out, &(struct ss_report_ctx){a, an, false, false});
	if (o->speedup)
		ss_sec_speedup_csv(out, &(struct ss_report_ctx){a, an, false, false});
}
