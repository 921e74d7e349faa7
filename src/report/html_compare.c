/*
 * html_compare.c - the answer that opens the HTML page under --compare
 * (SPEC 9.1): the key figures of the baseline and of each other group
 * side by side, with their differences and whether each is significant,
 * in a sentence per group and a table, before any pooled figure.
 */
#include <string.h>

#include "report/analysis_text.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/report_int.h"

/* The key figures side by side, and the unit of each one's difference. */
static const struct {
	int stat;        /* SS_BS_* */
	int metric;      /* SS_M_* */
	const char *head, *delta_head;
} figures[] = {
	{SS_BS_AL, SS_M_ACCEPTANCE_LENGTH, "AL avg", "&Delta; AL"},
	{SS_BS_TWAL, SS_M_TOKEN_WEIGHTED_AL, "TWAL", "&Delta; TWAL"},
	{SS_BS_DAR, SS_M_DRAFT_ACCEPTANCE_RATE, "DAR avg (%)", "&Delta; DAR (pp)"},
	{SS_BS_ODAR, SS_M_OVERALL_DAR, "ODAR (%)", "&Delta; ODAR (pp)"},
};
#define NFIGURES (sizeof(figures) / sizeof(figures[0]))

/* Group `id`'s key values, escaped: "a.jsonl, 4". */
static void add_label(struct ss_buf *b, const struct ss_agg *a, size_t id)
{
	const struct ss_kv *kv = ss_group_table_key(&a->groups, id);
	struct ss_buf v = SS_BUF_INIT;

	for (size_t k = 0; k < a->groups.nkeys; k++) {
		if (k)
			ss_buf_adds(&v, ", ");
		ss_kv_add_text(&v, &kv[k]);
	}
	ss_buf_add_htmls(b, v.data ? v.data : "");
	if (v.failed)
		b->failed = true;
	ss_buf_release(&v);
}

static void add_signed(struct ss_buf *b, double v)
{
	if (v > 0)
		ss_buf_addc(b, '+');
	ss_buf_add_fixed2(b, v);
}

/* "B: acceptance length 2.92 against 2.75, +0.17 (95% interval of the
 * difference 0.13 to 0.20): significant." */
static void sentence(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		     size_t id)
{
	size_t pb = an->baseline;
	bool partner = ss_analysis_partner(an, id, &pb);
	const struct ss_results *r = &a->group[id].res, *base = &a->group[pb].res;
	const struct ss_delta *d = &an->group[id].vs[SS_BS_AL];

	ss_buf_adds(b, "<li><strong>");
	add_label(b, a, id);
	ss_buf_adds(b, "</strong>: ");
	if (!partner) {
		ss_buf_adds(b, "no baseline group with the same other keys.</li>\n");
		return;
	}
	if (!d->has) {
		ss_buf_adds(b, "no acceptance length to compare (a side without stats).</li>\n");
		return;
	}
	ss_buf_adds(b, "acceptance length ");
	ss_buf_add_fixed2(b, r->stats[SS_M_ACCEPTANCE_LENGTH].avg);
	ss_buf_adds(b, " against ");
	ss_buf_add_fixed2(b, base->stats[SS_M_ACCEPTANCE_LENGTH].avg);
	ss_buf_adds(b, ", <strong>");
	add_signed(b, d->delta);
	ss_buf_adds(b, "</strong> tokens per step");
	if (d->has_ci) {
		ss_buf_adds(b, " (");
		ss_report_add_level(b, an->opts->level);
		ss_buf_adds(b, "% interval of the difference ");
		ss_buf_add_fixed2(b, d->lo);
		ss_buf_adds(b, " to ");
		ss_buf_add_fixed2(b, d->hi);
		ss_buf_adds(b, d->significant ? "): <strong>significant</strong>"
					      : "): not significant, the interval holds 0");
	}
	ss_buf_adds(b, ".</li>\n");
}

/* A figure of group `id`, with its interval under it. */
static void figure_cell(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			size_t id, size_t f)
{
	const struct ss_results *r = &a->group[id].res;
	const struct ss_set_analysis *g = &an->group[id];
	int s = figures[f].stat, m = figures[f].metric;

	ss_buf_adds(b, "<td>");
	if (r->has[m])
		ss_buf_add_fixed2(b, r->stats[m].avg);
	else
		ss_buf_adds(b, "N/A");
	if (g->has_ci[s]) {
		ss_buf_adds(b, "<br><span class=\"note\">");
		ss_buf_add_fixed2(b, g->lo[s]);
		ss_buf_adds(b, "&ndash;");
		ss_buf_add_fixed2(b, g->hi[s]);
		ss_buf_adds(b, "</span>");
	}
	ss_buf_adds(b, "</td>");
}

static void delta_cell(struct ss_buf *b, const struct ss_analysis *an, size_t id, size_t f)
{
	const struct ss_delta *d = &an->group[id].vs[figures[f].stat];

	ss_buf_adds(b, "<td>");
	if (ss_analysis_is_baseline(an, id)) {
		ss_buf_adds(b, f == 0 ? "baseline" : "");
	} else if (d->has) {
		ss_buf_adds(b, d->significant ? "<strong>" : "");
		add_signed(b, d->delta);
		ss_buf_adds(b, d->significant ? "*</strong>" : "");
		if (d->has_ci) {
			ss_buf_adds(b, "<br><span class=\"note\">");
			ss_buf_add_fixed2(b, d->lo);
			ss_buf_adds(b, " to ");
			ss_buf_add_fixed2(b, d->hi);
			ss_buf_adds(b, "</span>");
		}
	}
	ss_buf_adds(b, "</td>");
}

static void row(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an, size_t id)
{
	ss_buf_adds(b, "<tr><td class=\"name\">");
	add_label(b, a, id);
	ss_buf_adds(b, "</td><td>");
	ss_buf_add_u64_grouped(b, a->group[id].status[SS_ST_OK]);
	ss_buf_adds(b, "</td>");
	for (size_t f = 0; f < NFIGURES; f++) {
		figure_cell(b, a, an, id, f);
		delta_cell(b, an, id, f);
	}
	ss_buf_adds(b, "</tr>\n");
}

void ss_html_compare(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	if (!an || !an->has_baseline || an->baseline >= a->groups.n)
		return;
	ss_buf_adds(b, "<section id=\"answer\">\n<h2>Against the baseline ");
	add_label(b, a, an->baseline);
	ss_buf_adds(b, "</h2>\n<ul>\n");
	for (size_t i = 0; i < a->groups.n; i++)
		if (!ss_analysis_is_baseline(an, a->group_order[i]))
			sentence(b, a, an, a->group_order[i]);
	ss_buf_adds(b, "</ul>\n<p class=\"note\">Each group's key figures (requests with stats; "
		    "under each figure its ");
	if (an->opts->ci) {
		ss_report_add_level(b, an->opts->level);
		ss_buf_adds(b, "% bootstrap interval) and their differences from the baseline (under "
			    "each, the interval of the difference; <strong>bold*</strong>: the interval "
			    "excludes 0). ");
	} else {
		ss_buf_adds(b, "interval) and their differences from the baseline. ");
	}
	ss_buf_adds(b, "The rates' differences are percentage points (pp).</p>\n"
		    "<div class=\"tw\"><table class=\"groups\">\n<caption>Key figures and "
		    "differences from the baseline</caption>\n"
		    "<thead><tr><th class=\"l\">Group</th><th>With stats</th>");
	for (size_t f = 0; f < NFIGURES; f++) {
		ss_buf_adds(b, "<th>");
		ss_buf_adds(b, figures[f].head);
		ss_buf_adds(b, "</th><th>");
		ss_buf_adds(b, figures[f].delta_head);
		ss_buf_adds(b, "</th>");
	}
	ss_buf_adds(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->groups.n; i++)
		if (ss_analysis_is_baseline(an, a->group_order[i]))
			row(b, a, an, a->group_order[i]);
	for (size_t i = 0; i < a->groups.n; i++)
		if (!ss_analysis_is_baseline(an, a->group_order[i]))
			row(b, a, an, a->group_order[i]);
	ss_buf_adds(b, "</tbody>\n</table>\n</div>\n<p class=\"note\">Every figure from here "
		    "on pools the requests of all groups together (");
	ss_buf_add_u64_grouped(b, a->groups.n);
	ss_buf_adds(b, " groups): it describes no one of them. The groups' own figures are in "
		    "the section of the groups, below.</p>\n</section>\n");
}
