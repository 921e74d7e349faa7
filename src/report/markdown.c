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

static void add_positions(struct ss_buf *out, const struct ss_pos_result *p)
{
	struct ss_grid g;

	ss_buf_addf(out, "\n### Acceptance by position (k=%u, ", p->k);
	ss_buf_add_u64_grouped(out, (uint64_t)p->steps);
	ss_buf_adds(out, p->steps == 1 ? " step)\n\n" : " steps)\n\n");
	ss_grid_init(&g);
	ss_grid_col(&g, "Position", true);
	ss_grid_col(&g, "Accepted", true);
	ss_grid_col(&g, "Rate", true);
	ss_grid_col(&g, "Conditional", true);
	for (uint32_t i = 0; i < p->k; i++) {
		ss_grid_begin(&g);
		ss_buf_addf(&g.text, "%u", i + 1);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		if (p->pos[i].accepted <= UINT64_MAX)
			ss_buf_add_u64_grouped(&g.text, (uint64_t)p->pos[i].accepted);
		else
			ss_buf_add_i128(&g.text, (__int128)p->pos[i].accepted);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_fixed0(&g.text, p->pos[i].rate * 100.0);
		ss_buf_addc(&g.text, '%');
		ss_grid_end(&g);
		ss_grid_begin(&g);
		if (p->pos[i].has_conditional) {
			ss_buf_add_fixed0(&g.text, p->pos[i].conditional * 100.0);
			ss_buf_addc(&g.text, '%');
		} else {
			ss_buf_adds(&g.text, "N/A");
		}
		ss_grid_end(&g);
	}
	ss_grid_markdown(out, &g);
	ss_grid_release(&g);

	ss_buf_addf(out, "\n### If the draft were shorter (k=%u)\n\n", p->k);
	ss_grid_init(&g);
	ss_grid_col(&g, "Draft length", true);
	ss_grid_col(&g, "Acceptance Length (tokens/step)", true);
	ss_grid_col(&g, "Draft Acceptance Rate (%)", true);
	if (p->has_cost)
		ss_grid_col(&g, "Speedup", true);
	for (uint32_t i = 0; i < p->k; i++) {
		ss_grid_begin(&g);
		ss_buf_addf(&g.text, "%u", i + 1);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_fixed2_grouped(&g.text, p->what_if[i].acceptance_length);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_fixed2_grouped(&g.text, p->what_if[i].draft_acceptance_rate);
		ss_grid_end(&g);
		if (p->has_cost) {
			ss_grid_begin(&g);
			ss_buf_add_fixed2_grouped(&g.text, p->what_if[i].speedup);
			ss_buf_addc(&g.text, 'x');
			ss_grid_end(&g);
		}
	}
	ss_grid_markdown(out, &g);
	ss_grid_release(&g);
	if (p->has_cost) {
		ss_buf_adds(out, "\nDraft cost ");
		ss_buf_add_double(out, p->draft_cost);
		if (p->suggested_k)
			ss_buf_addf(out, ": suggested k=%u.\n", p->suggested_k);
		else
			ss_buf_adds(out, ": no draft length pays at this cost.\n");
	}
}

/* A percentage cell, N/A when undefined. */
static void add_pct(struct ss_buf *b, bool has, double v)
{
	if (!has) {
		ss_buf_adds(b, "N/A");
		return;
	}
	ss_buf_add_fixed0(b, v * 100.0);
	ss_buf_addc(b, '%');
}

/* SPEC 7.9: acceptance per drafted token. */
static void add_drafted(struct ss_buf *out, const struct ss_drafted_result *d)
{
	struct ss_grid g;

	ss_buf_adds(out, "\n### Acceptance by position, per drafted token (");
	ss_buf_add_u64_grouped(out, d->requests);
	ss_buf_adds(out, d->requests == 1 ? " request, " : " requests, ");
	ss_buf_add_u128_grouped(out, d->steps);
	ss_buf_adds(out, d->steps == 1 ? " step)\n\n" : " steps)\n\n");
	ss_grid_init(&g);
	ss_grid_col(&g, "Position", true);
	ss_grid_col(&g, "Drafted", true);
	ss_grid_col(&g, "Accepted", true);
	ss_grid_col(&g, "Rate", true);
	ss_grid_col(&g, "Conditional", true);
	for (size_t i = 0; i < d->n; i++) {
		const struct ss_drafted_row *r = &d->rows[i];

		ss_grid_begin(&g);
		ss_buf_addf(&g.text, "%zu", i + 1);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_u128_grouped(&g.text, r->drafted);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_u128_grouped(&g.text, r->accepted);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		add_pct(&g.text, r->has_rate, r->rate);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		add_pct(&g.text, r->has_conditional, r->conditional);
		ss_grid_end(&g);
	}
	if (g.tab.ncells)
		ss_grid_markdown(out, &g);
	else
		ss_buf_adds(out, "No step drafted a token.\n");
	ss_grid_release(&g);
	ss_buf_adds(out, "\nA position counts only on the steps that drafted it (adaptive draft "
			 "lengths); Rate is accepted / drafted.\n");
}

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
	if (o->positions) {
		for (size_t i = 0; i < an->main.npos; i++)
			add_positions(out, &an->main.pos[i]);
		if (an->main.npos)
			ss_buf_adds(out, "\nThe shorter-draft figures are exact for chain drafters "
					 "(draft model, EAGLE/MTP chains, n-gram) and an estimate "
					 "for tree drafting.\n");
		if (an->main.drafted.present)
			add_drafted(out, &an->main.drafted);
	}
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
