/*
 * markdown.c - `-f markdown` (SPEC 9.2): the console's Spec Decode table,
 * histogram and accounting lines and, when asked for, SPEC 7's tables, as
 * GitHub-flavoured Markdown to paste into a pull request or an issue.
 * Numbers are printed as the console prints them.
 */
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

void ss_report_md_body(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o = an && an->any ? an->opts : NULL;

	ss_sec_results_md(out, &(struct ss_report_ctx){a, an, true, false});
	ss_sec_read_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (!o)
		return;
	if (o->positions)
		ss_sec_positions_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->ci && a->main.ok)
		ss_sec_intervals_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->group_by.n && a->groups.n)
		ss_sec_groups_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->speedup)
		ss_sec_speedup_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->windows)
		ss_sec_windows_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->outliers)
		ss_sec_outliers_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->definitions)
		ss_sec_defs_md(out, &(struct ss_report_ctx){a, an, true, false});
}
