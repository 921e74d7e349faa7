/*
 * markdown.c - `-f markdown` (SPEC 9.2): the console's Spec Decode table,
 * histogram and accounting lines and, when asked for, SPEC 7's tables, as
 * GitHub-flavoured Markdown to paste into a pull request or an issue.
 * Numbers are printed as the console prints them.
 */
#include <stdio.h>
#include <string.h>

#include "report/analysis_text.h"
#include "report/bestk.h"
#include "report/escape.h"
#include "report/grid.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

static void add_groups(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	struct ss_grid g;
	struct ss_buf title = SS_BUF_INIT;

	/* the key names were typed (meta.NAME): escaped like the cells */
	ss_report_groups_title(&title, an);
	ss_buf_adds(out, "\n### ");
	ss_buf_add_md(out, title.data ? title.data : "", title.len);
	ss_buf_adds(out, "\n\n");
	out->failed |= title.failed;
	ss_buf_release(&title);
	ss_grid_init(&g);
	ss_report_groups_grid(&g, a, an, true);
	ss_grid_markdown(out, &g);
	ss_grid_release(&g);
	ss_buf_addc(out, '\n');
	ss_report_groups_legend(out, an, "");
	ss_bestk_line(out, a, an, "\n");
}

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
		add_groups(out, a, an);
	if (o->speedup)
		ss_sec_speedup_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->windows)
		ss_sec_windows_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->outliers)
		ss_sec_outliers_md(out, &(struct ss_report_ctx){a, an, true, false});
	if (o->definitions)
		ss_sec_defs_md(out, &(struct ss_report_ctx){a, an, true, false});
}
