/*
 * analysis_text.c - SPEC 7 for people: the console's analysis sections in
 * their order (sec_*.c), and the `Spec Decode by KEY` table (also used by
 * the Markdown writer).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/analysis_text.h"
#include "report/bestk.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

void ss_report_add_level(struct ss_buf *b, double level)
{
	/* 95 -> "95", 99.5 -> "99.5": the shortest text that reads back */
	if (level == floor(level))
		ss_buf_add_i64(b, (int64_t)level);
	else
		ss_buf_add_double(b, level);
}

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

/* A delta: signed, %.2f grouped, `*` when its interval excludes 0. */
static void add_delta(struct ss_buf *b, const struct ss_delta *d)
{
	if (!d->has) {
		ss_buf_adds(b, "N/A");
		return;
	}
	if (d->delta >= 0)
		ss_buf_addc(b, '+');
	ss_buf_add_fixed2_grouped(b, d->delta);
	if (d->significant)
		ss_buf_addc(b, '*');
}

static void add_value(struct ss_buf *b, const struct ss_results *r, int m, bool p50)
{
	if (!r->has[m])
		ss_buf_adds(b, "N/A");
	else
		ss_buf_add_fixed2_grouped(b, p50 ? r->stats[m].p50 : r->stats[m].avg);
}

void ss_report_groups_grid(struct ss_grid *g, const struct ss_agg *a,
			   const struct ss_analysis *an, bool utf8)
{
	/* the rates' differences are percentage points, not percent */
	static const char *const u_heads[SS_BS_COUNT] = {"Δ AL", "Δ TWAL", "Δ DAR (pp)",
							 "Δ ODAR (pp)"};
	static const char *const a_heads[SS_BS_COUNT] = {"d AL", "d TWAL", "d DAR (pp)",
							 "d ODAR (pp)"};
	const struct ss_group_spec *spec = &an->opts->group_by;
	bool ci = an->opts->ci;

	for (size_t k = 0; k < spec->n; k++)
		ss_grid_col(g, spec->keys[k].name, false);
	/* on a narrow console the least read go first (tabular.h): the keys,
	 * AL avg and its difference stay */
	static const unsigned char d_prio[SS_BS_COUNT] = {0, 4, 2, 3};

	ss_grid_col(g, "requests", true);
	ss_grid_priority(g, 6);
	ss_grid_col(g, "with stats", true);
	ss_grid_priority(g, 2);
	ss_grid_col(g, "AL avg", true);
	ss_grid_col(g, "AL p50", true);
	ss_grid_priority(g, 5);
	if (ci) {
		ss_grid_col(g, "AL interval", true);
		ss_grid_priority(g, 1);
	}
	ss_grid_col(g, "TWAL", true);
	ss_grid_priority(g, 4);
	ss_grid_col(g, "DAR avg (%)", true);
	ss_grid_priority(g, 2);
	ss_grid_col(g, "ODAR (%)", true);
	ss_grid_priority(g, 3);
	if (ss_bestk_column(an))
		ss_grid_col(g, "exp. speedup", true);
	if (an->has_baseline)
		for (int k = 0; k < SS_BS_COUNT; k++) {
			ss_grid_col(g, utf8 ? u_heads[k] : a_heads[k], true);
			ss_grid_priority(g, d_prio[k]);
		}
	ss_sec_speedup_grid_cols(g, an);

	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_group *gr = &a->group[id];
		const struct ss_kv *key = ss_group_table_key(&a->groups, id);

		for (size_t k = 0; k < spec->n; k++) {
			ss_grid_begin(g);
			ss_kv_add_text(&g->text, &key[k]);
			ss_grid_end(g);
		}
		ss_grid_begin(g);
		ss_buf_add_u64_grouped(&g->text, gr->total);
		ss_grid_end(g);
		ss_grid_begin(g);
		ss_buf_add_u64_grouped(&g->text, gr->status[SS_ST_OK]);
		ss_grid_end(g);
		ss_grid_begin(g);
		add_value(&g->text, &gr->res, SS_M_ACCEPTANCE_LENGTH, false);
		ss_grid_end(g);
		ss_grid_begin(g);
		add_value(&g->text, &gr->res, SS_M_ACCEPTANCE_LENGTH, true);
		ss_grid_end(g);
		if (ci) {
			const struct ss_set_analysis *ga = &an->group[id];

			ss_grid_begin(g);
			if (ga->has_ci[SS_BS_AL]) {
				ss_buf_add_fixed2_grouped(&g->text, ga->lo[SS_BS_AL]);
				ss_buf_adds(&g->text, utf8 ? "–" : "-");
				ss_buf_add_fixed2_grouped(&g->text, ga->hi[SS_BS_AL]);
			} else {
				ss_buf_adds(&g->text, "N/A");
			}
			ss_grid_end(g);
		}
		ss_grid_begin(g);
		add_value(&g->text, &gr->res, SS_M_TOKEN_WEIGHTED_AL, false);
		ss_grid_end(g);
		ss_grid_begin(g);
		add_value(&g->text, &gr->res, SS_M_DRAFT_ACCEPTANCE_RATE, false);
		ss_grid_end(g);
		ss_grid_begin(g);
		add_value(&g->text, &gr->res, SS_M_OVERALL_DAR, false);
		ss_grid_end(g);
		if (ss_bestk_column(an)) {
			double sp;

			ss_grid_begin(g);
			if (ss_bestk_speedup(a, an, id, &sp)) {
				ss_buf_add_fixed2_grouped(&g->text, sp);
				ss_buf_addc(&g->text, 'x');
			} else {
				ss_buf_adds(&g->text, "N/A");
			}
			ss_grid_end(g);
		}
		if (!an->has_baseline)
			continue;
		for (int k = 0; k < SS_BS_COUNT; k++) {
			ss_grid_begin(g);
			if (ss_analysis_is_baseline(an, id))
				ss_buf_adds(&g->text, k == 0 ? "baseline" : "");
			else if (ss_analysis_partner(an, id, &(size_t){0}))
				add_delta(&g->text, &an->group[id].vs[k]);
			else
				ss_buf_adds(&g->text, k == 0 ? "no baseline" : "");
			ss_grid_end(g);
		}
		ss_sec_speedup_grid_cells(g, an, id);
	}
}

/* The legend under the group table. */
void ss_report_groups_legend(struct ss_buf *out, const struct ss_analysis *an, const char *prefix)
{
	const struct ss_analysis_opts *o = an->opts;

	ss_buf_adds(out, prefix);
	ss_buf_adds(out, "AL: Acceptance Length; TWAL: Token-Weighted Acceptance Length; "
			 "DAR: Draft Acceptance Rate; ODAR: Overall Draft Acceptance Rate");
	if (o->ci) {
		ss_buf_adds(out, "; AL interval: the ");
		ss_report_add_level(out, o->level);
		ss_buf_adds(out, "% bootstrap interval of AL avg");
	}
	if (ss_bestk_column(an))
		ss_buf_adds(out, "; exp. speedup: TWAL / (1 + C k), the speedup over no speculation "
				 "this acceptance implies at draft cost C (--draft-cost, else the "
				 "group's measured Draft Cost)");
	if (an->has_baseline) {
		ss_buf_adds(out, "; differences against the baseline (pp: percentage points)");
		if (o->ci) {
			ss_buf_adds(out, ", * where the ");
			ss_report_add_level(out, o->level);
			ss_buf_adds(out, "% interval of the difference excludes 0");
		} else {
			/* issue 34: say once what a * would need */
			ss_buf_adds(out, "; which differences are significant needs --ci "
					 "(e.g. --ci 95)");
		}
	}
	ss_sec_speedup_legend(out, an);
	ss_buf_addc(out, '\n');
}

void ss_report_groups_title(struct ss_buf *b, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	ss_buf_adds(b, "Spec Decode by ");
	for (size_t k = 0; k < spec->n; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_buf_adds(b, spec->keys[k].name);
	}
}

void ss_report_text_groups(struct ss_buf *out, const struct ss_agg *a,
			   const struct ss_analysis *an, bool utf8, bool color)
{
	struct ss_grid g;
	struct ss_buf title = SS_BUF_INIT;

	if (a->groups.n == 0)
		return;
	ss_grid_init(&g);
	ss_report_groups_grid(&g, a, an, utf8);
	ss_report_groups_title(&title, an);
	if (title.failed) {
		out->failed = true;
	} else {
		ss_buf_addc(out, '\n');
		struct ss_buf legend = SS_BUF_INIT;

		ss_grid_box(out, &g, title.data, utf8, color);
		/* prose, wrapped at the console's width as the table fits it */
		ss_report_groups_legend(&legend, an, "");
		ss_bestk_line(&legend, a, an, "");
		out->failed |= legend.failed;
		for (size_t at = 0, nl; at < legend.len; at = nl + 1) {
			nl = at;
			while (nl < legend.len && legend.data[nl] != '\n')
				nl++;
			ss_tab_wrap(out, legend.data + at, nl - at, "  ");
		}
		ss_buf_release(&legend);
	}
	ss_buf_release(&title);
	ss_grid_release(&g);
}
