/*
 * sec_groups_page.c - the page's part of SPEC 7.3-7.4 that sec_groups.c
 * does not hold: the answer that opens the HTML page under --compare
 * (SPEC 9.1, issue 34 item 3): before any pooled figure, a sentence per
 * group; the key figures of the baseline and of each other group side by
 * side (cards, with each difference and whether it is significant); the
 * groups' acceptance by position in one chart and their shorter-draft
 * curves in another; the one table of the figures and their differences.
 * Then each group's own position and shorter-draft charts, side by side.
 *
 * Groups are shown baselines first, then the others, each in key order.
 * Past SIDE_MAX groups the cards and the charts of each group give way to
 * the table (and the overlaid charts draw the first MAX_OVERLAY groups).
 */
#include "report/section.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/tabular.h"
#include "util/alloc.h"

/* Groups shown side by side (cards, charts of their own). */
#define SIDE_MAX 6
/* Groups drawn in the overlaid charts. */
#define MAX_OVERLAY 8
/* Rows of one group's position table. */
#define MAX_ROWS 64

/* The key figures side by side, and the unit of each one's difference. */
static const struct {
	int stat;        /* SS_BS_* */
	int metric;      /* SS_M_* */
	const char *head, *delta_head, *delta_html, *card;
	int decimals;
	const char *suffix, *dsuffix;
} figures[] = {
	{SS_BS_AL, SS_M_ACCEPTANCE_LENGTH, "AL avg", "\xCE\x94 AL", "&Delta; AL",
	 "Acceptance length", 2, "", ""},
	{SS_BS_TWAL, SS_M_TOKEN_WEIGHTED_AL, "TWAL", "\xCE\x94 TWAL", "&Delta; TWAL",
	 "Token-weighted AL", 2, "", ""},
	{SS_BS_DAR, SS_M_DRAFT_ACCEPTANCE_RATE, "DAR avg (%)", "\xCE\x94 DAR (pp)",
	 "&Delta; DAR (pp)", NULL, 2, "", ""},
	{SS_BS_ODAR, SS_M_OVERALL_DAR, "ODAR (%)", "\xCE\x94 ODAR (pp)", "&Delta; ODAR (pp)",
	 "Overall draft acceptance", 1, "%", " pp"},
};
#define NFIGURES (sizeof(figures) / sizeof(figures[0]))

/* The groups in the order shown: baselines first, then the others, each
 * in key order; with their short labels (what all share cut). */
struct shown {
	size_t n, *id;
	const char **lab;     /* by position in `id` */
	struct ss_buf *store; /* a->groups.n of them */
	const char **klab;    /* by key order */
	struct ss_buf axis;
};

static void shown_release(struct shown *s, size_t ngroups)
{
	if (s->store)
		for (size_t i = 0; i < ngroups; i++)
			ss_buf_release(&s->store[i]);
	ss_free(s->store);
	ss_free(s->klab);
	ss_free(s->lab);
	ss_free(s->id);
	ss_buf_release(&s->axis);
}

static bool shown_fill(struct shown *s, const struct ss_agg *a, const struct ss_analysis *an)
{
	size_t n = a->groups.n;

	memset(s, 0, sizeof(*s));
	ss_buf_init(&s->axis);
	s->id = ss_calloc(n, sizeof(*s->id));
	s->lab = ss_calloc(n, sizeof(*s->lab));
	s->klab = ss_calloc(n, sizeof(*s->klab));
	s->store = ss_calloc(n, sizeof(*s->store));
	if (!s->id || !s->lab || !s->klab || !s->store)
		return false;
	ss_sec_groups_labels(a, an, s->store, s->klab, &s->axis);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (ss_analysis_is_baseline(an, a->group_order[i]) == (pass == 0)) {
				s->lab[s->n] = s->klab[i];
				s->id[s->n++] = a->group_order[i];
			}
	return !s->axis.failed;
}

/* Group `id`'s full label, escaped. */
static void add_label(struct ss_buf *b, const struct ss_agg *a, size_t id)
{
	struct ss_buf v = SS_BUF_INIT;

	ss_sec_groups_label(&v, a, id);
	ss_buf_add_htmls(b, v.data ? v.data : "");
	if (v.failed)
		b->failed = true;
	ss_buf_release(&v);
}

static void add_signed(struct ss_buf *b, double v, int decimals)
{
	if (v > 0)
		ss_buf_addc(b, '+');
	ss_chart_add_fixed(b, v, decimals);
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
	add_signed(b, d->delta, 2);
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

/* The draft length of group `id` drawn for it: the one with the most
 * steps (NULL: none). */
static const struct ss_pos_result *busiest(const struct ss_set_analysis *g)
{
	const struct ss_pos_result *best = NULL;

	for (size_t i = 0; i < g->npos; i++)
		if (g->pos[i].defined && (!best || g->pos[i].steps > best->steps))
			best = &g->pos[i];
	return best;
}

/* -- the cards, side by side ------------------------------------------------ */

static void card(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		 size_t id, size_t f)
{
	const struct ss_results *r = &a->group[id].res;
	const struct ss_set_analysis *g = &an->group[id];
	const struct ss_delta *d = &g->vs[figures[f].stat];
	int s = figures[f].stat, m = figures[f].metric, dec = figures[f].decimals;

	ss_buf_adds(b, "<div class=\"card\"><span class=\"l\">");
	ss_buf_adds(b, figures[f].card);
	ss_buf_adds(b, "</span><span class=\"v\">");
	if (r->has[m]) {
		ss_chart_add_fixed(b, r->stats[m].avg, dec);
		ss_buf_adds(b, figures[f].suffix);
	} else {
		ss_buf_adds(b, "N/A");
	}
	ss_buf_adds(b, "</span>");
	if (g->has_ci[s]) {
		ss_buf_adds(b, "<span class=\"ci\">");
		ss_chart_add_fixed(b, g->lo[s], dec);
		ss_buf_adds(b, "&ndash;");
		ss_chart_add_fixed(b, g->hi[s], dec);
		ss_buf_adds(b, "</span>");
	}
	if (!ss_analysis_is_baseline(an, id) && d->has) {
		ss_buf_adds(b, d->significant ? "<span class=\"d sig\">&Delta; "
					      : "<span class=\"d\">&Delta; ");
		add_signed(b, d->delta, dec);
		ss_buf_adds(b, figures[f].dsuffix);
		ss_buf_adds(b, d->significant ? "*" : "");
		ss_buf_adds(b, "</span>");
	}
	ss_buf_adds(b, "</div>\n");
}

/* "k = 4 · suggested k' = 3 (1.74×)" for group `g`, or nothing. */
static void k_note(struct ss_buf *b, const struct ss_set_analysis *g)
{
	const struct ss_pos_result *p = busiest(g);

	if (!p)
		return;
	ss_buf_addf(b, "<p class=\"note\">k = %u", (unsigned)p->k);
	if (p->has_cost && p->suggested_k) {
		ss_buf_addf(b, " &middot; suggested k&prime; = %u (", (unsigned)p->suggested_k);
		ss_buf_add_fixed2(b, p->what_if[p->suggested_k - 1].speedup);
		ss_buf_adds(b, "&times;)");
	} else if (p->has_cost) {
		ss_buf_adds(b, " &middot; no draft length pays at this cost");
	}
	ss_buf_adds(b, "</p>\n");
}

static void group_head(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		       size_t id)
{
	ss_buf_adds(b, "<h3>");
	if (ss_analysis_is_baseline(an, id))
		ss_buf_adds(b, "<span class=\"tag\">baseline</span> ");
	add_label(b, a, id);
	ss_buf_adds(b, "</h3>\n");
}

static void cards(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		  const struct shown *s)
{
	ss_buf_adds(b, "<div class=\"side\">\n");
	for (size_t i = 0; i < s->n; i++) {
		size_t id = s->id[i];

		ss_buf_adds(b, "<div class=\"grp\">\n");
		group_head(b, a, an, id);
		k_note(b, &an->group[id]);
		ss_buf_adds(b, "<div class=\"cards\">\n");
		for (size_t f = 0; f < NFIGURES; f++)
			if (figures[f].card)
				card(b, a, an, id, f);
		ss_buf_adds(b, "<div class=\"card\"><span class=\"l\">Requests with stats</span>"
			    "<span class=\"v\">");
		ss_buf_add_u64_grouped(b, a->group[id].status[SS_ST_OK]);
		ss_buf_adds(b, "</span><span class=\"ci\">of ");
		ss_buf_add_u64_grouped(b, a->group[id].total);
		ss_buf_adds(b, "</span></div>\n</div>\n</div>\n");
	}
	ss_buf_adds(b, "</div>\n");
}

/* -- the groups' curves in one chart ------------------------------------ */

/* The series of the overlaid charts: up to MAX_OVERLAY groups with a
 * draft length, each its busiest k; names "b (k=4)" when the drawn k
 * differ. */
struct overlay {
	size_t n, gi[MAX_OVERLAY];
	const struct ss_pos_result *p[MAX_OVERLAY];
	char name[MAX_OVERLAY][160];
	double *x, *rate, *tau;
	size_t maxk, skipped;
};

static bool overlay_fill(struct overlay *o, const struct ss_analysis *an, const struct shown *s)
{
	bool same_k = true;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_pos_result *p = busiest(&an->group[s->id[i]]);

		if (!p)
			continue;
		if (o->n == MAX_OVERLAY) {
			o->skipped++;
			continue;
		}
		same_k &= o->n == 0 || p->k == o->p[0]->k;
		o->gi[o->n] = i;
		o->p[o->n++] = p;
		if (p->k > o->maxk)
			o->maxk = p->k < MAX_ROWS ? p->k : MAX_ROWS;
	}
	for (size_t j = 0; j < o->n; j++) {
		const char *base = ss_analysis_is_baseline(an, s->id[o->gi[j]]) ? " (baseline)" : "";
		const char *l = s->lab[o->gi[j]];
		int cut = (int)strlen(l);

		if (cut > 120) {   /* the chart shortens it further; whole characters */
			cut = 120;
			while (cut > 0 && ((unsigned char)l[cut] & 0xc0) == 0x80)
				cut--;
		}
		if (same_k)
			snprintf(o->name[j], sizeof(o->name[j]), "%.*s%s", cut, l, base);
		else
			snprintf(o->name[j], sizeof(o->name[j]), "%.*s (k=%u)%s", cut, l,
				 (unsigned)o->p[j]->k, base);
	}
	if (!o->n)
		return true;
	o->x = ss_calloc(o->maxk, sizeof(double));
	o->rate = ss_calloc(o->n * o->maxk, sizeof(double));
	o->tau = ss_calloc(o->n * o->maxk, sizeof(double));
	if (!o->x || !o->rate || !o->tau)
		return false;
	for (size_t i = 0; i < o->maxk; i++)
		o->x[i] = (double)(i + 1);
	for (size_t j = 0; j < o->n; j++)
		for (size_t i = 0; i < o->maxk; i++) {
			bool in = i < o->p[j]->k;

			o->rate[j * o->maxk + i] = in ? o->p[j]->pos[i].rate * 100.0 : NAN;
			o->tau[j * o->maxk + i] = in ? o->p[j]->what_if[i].acceptance_length : NAN;
		}
	return true;
}

static void overlay_release(struct overlay *o)
{
	ss_free(o->x);
	ss_free(o->rate);
	ss_free(o->tau);
}

/*
 * The one builder of this file's tables of numbers by position: a row per
 * position i = 1..nrows (the first column, `col[0]`), then nv numbers a
 * row from v (row-major; NaN: an empty cell); row `bold` (0: none) in
 * bold; in a scrolling box, with `caption`.
 */
static void pos_numbers(struct ss_buf *b, const struct ss_tab_col *col, size_t nv,
			const double *v, size_t nrows, size_t bold, const char *caption)
{
	struct ss_tab t;

	ss_tab_init(&t, col, 1 + nv);
	for (size_t i = 0; i < nrows; i++) {
		if (bold == i + 1)
			ss_tab_row_class(&t, "total");
		ss_tab_int(&t, (__int128)(i + 1));
		for (size_t j = 0; j < nv; j++)
			if (isnan(v[i * nv + j]))
				ss_tab_empty(&t);
			else
				ss_tab_num(&t, v[i * nv + j]);
	}
	ss_buf_adds(b, "<div class=\"tw\">\n");
	ss_tab_html(b, &t, caption);
	ss_buf_adds(b, "</div>\n");
	ss_tab_release(&t);
}

/* The first column of those tables. */
#define POS_COL {"i = k\xE2\x80\xB2", SS_COL_INT, false, 0, NULL, "i = k&prime;", false}

/* The numbers of the overlaid charts: a row per position, the groups'
 * rates and shorter-draft lengths. */
static void overlay_table(struct ss_buf *b, const struct overlay *o)
{
	struct ss_tab_col col[1 + 2 * MAX_OVERLAY] = {POS_COL};
	char head[2 * MAX_OVERLAY][192];
	double *v = ss_calloc(o->maxk * 2 * o->n, sizeof(double));
	size_t nv = 2 * o->n;

	if (!v) {
		b->failed = true;
		return;
	}
	for (size_t j = 0; j < o->n; j++) {
		snprintf(head[2 * j], sizeof(head[0]), "%s: rate (%%)", o->name[j]);
		snprintf(head[2 * j + 1], sizeof(head[0]), "%s: \xCF\x84(k\xE2\x80\xB2)", o->name[j]);
		col[1 + 2 * j] = (struct ss_tab_col){head[2 * j], SS_COL_FIX2, false, 0, NULL, NULL,
						     true};
		col[2 + 2 * j] = (struct ss_tab_col){head[2 * j + 1], SS_COL_FIX2, false, 0, NULL,
						     NULL, true};
	}
	for (size_t i = 0; i < o->maxk; i++)
		for (size_t j = 0; j < o->n; j++) {
			bool in = i < o->p[j]->k;

			v[i * nv + 2 * j] = in ? o->rate[j * o->maxk + i] : NAN;
			v[i * nv + 2 * j + 1] = in ? o->tau[j * o->maxk + i] : NAN;
		}
	pos_numbers(b, col, nv, v, o->maxk, 0,
		    "Numbers of the charts: the rate at position i (% of steps) and the "
		    "acceptance length &tau;(k&prime;) of a draft of k&prime; = i tokens, per group");
	ss_free(v);
}

static void overlay_charts(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			   const struct shown *s)
{
	struct ss_series rs[MAX_OVERLAY], ts[MAX_OVERLAY];
	struct overlay o;

	(void)a;
	if (!overlay_fill(&o, an, s)) {
		b->failed = true;
		goto out;
	}
	if (!o.n) {
		ss_html_missing(b, "No group has acceptance by position: it needs requests with a "
				"per-step histogram and a known draft length k.");
		goto out;
	}
	for (size_t j = 0; j < o.n; j++) {
		size_t n = o.p[j]->k < o.maxk ? o.p[j]->k : o.maxk;

		rs[j] = (struct ss_series){o.name[j], o.x, o.rate + j * o.maxk, n};
		ts[j] = (struct ss_series){o.name[j], o.x, o.tau + j * o.maxk, n};
	}
	if (o.skipped) {
		ss_buf_addf(b, "<p class=\"note\">The charts draw the first %d groups; the table of "
			    "the figures above lists every one.</p>\n", MAX_OVERLAY);
	}
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_pos_rate(b, &(struct ss_chart){
		.id = "c-cmp-pos", .title = "Acceptance by draft position, per group",
		.desc = "Line chart of the share of verify steps, in percent, whose i-th draft "
			"token was accepted, by position i, one line per group (its draft length "
			"with the most steps).",
		.y_label = "Accepted at position i (% of steps)", .width = 540, .height = 340},
		rs, o.n);
	ss_chart_pos_whatif(b, &(struct ss_chart){
		.id = "c-cmp-whatif", .title = "If the draft were shorter, per group",
		.desc = "Line chart of the acceptance length, in tokens per verify step, that each "
			"shorter draft length k' would have given, one line per group.",
		.y_label = "Acceptance length (tokens per step)", .width = 540, .height = 340},
		ts, o.n);
	ss_buf_adds(b, "</div>\n");
	if (s->axis.len) {
		ss_buf_adds(b, "<p class=\"note\">Groups: ");
		ss_buf_add_htmls(b, s->axis.data);
		ss_buf_adds(b, ".</p>\n");
	}
	ss_buf_adds(b, "<details class=\"num\"><summary>Numbers of the two charts</summary>\n");
	overlay_table(b, &o);
	ss_buf_adds(b, "</details>\n");
out:
	overlay_release(&o);
}

/* -- the table of the figures and their differences ------------------------ */

/* A figure of group `id` with its interval under it. */
static void figure_cell(struct ss_tab *t, const struct ss_agg *a, const struct ss_analysis *an,
			size_t id, size_t f)
{
	const struct ss_results *r = &a->group[id].res;
	const struct ss_set_analysis *g = &an->group[id];
	int s = figures[f].stat, m = figures[f].metric;
	struct ss_buf h = SS_BUF_INIT, x = SS_BUF_INIT;

	if (!r->has[m]) {
		ss_tab_na(t);
		return;
	}
	ss_buf_add_fixed2(&h, r->stats[m].avg);
	ss_buf_add_fixed2(&x, r->stats[m].avg);
	if (g->has_ci[s]) {
		ss_buf_adds(&h, "<br><span class=\"note\">");
		ss_buf_add_fixed2(&h, g->lo[s]);
		ss_buf_adds(&h, "&ndash;");
		ss_buf_add_fixed2(&h, g->hi[s]);
		ss_buf_adds(&h, "</span>");
		ss_buf_adds(&x, " (");
		ss_buf_add_fixed2(&x, g->lo[s]);
		ss_buf_adds(&x, "\xE2\x80\x93");
		ss_buf_add_fixed2(&x, g->hi[s]);
		ss_buf_adds(&x, ")");
	}
	ss_tab_markup(t, h.data, x.data);
	if (h.failed || x.failed)
		t->failed = true;
	ss_buf_release(&h);
	ss_buf_release(&x);
}

static void delta_cell(struct ss_tab *t, const struct ss_analysis *an, size_t id, size_t f)
{
	const struct ss_delta *d = &an->group[id].vs[figures[f].stat];
	struct ss_buf h = SS_BUF_INIT, x = SS_BUF_INIT;

	if (ss_analysis_is_baseline(an, id)) {
		if (f == 0)
			ss_tab_text(t, "baseline");
		else
			ss_tab_empty(t);
		return;
	}
	if (!d->has) {
		ss_tab_text(t, f == 0 && !ss_analysis_partner(an, id, &(size_t){0}) ? "no baseline"
										   : NULL);
		return;
	}
	ss_buf_adds(&h, d->significant ? "<strong>" : "");
	add_signed(&h, d->delta, 2);
	add_signed(&x, d->delta, 2);
	ss_buf_adds(&h, d->significant ? "*</strong>" : "");
	ss_buf_adds(&x, d->significant ? "*" : "");
	if (d->has_ci) {
		ss_buf_adds(&h, "<br><span class=\"note\">");
		ss_buf_add_fixed2(&h, d->lo);
		ss_buf_adds(&h, " to ");
		ss_buf_add_fixed2(&h, d->hi);
		ss_buf_adds(&h, "</span>");
		ss_buf_adds(&x, " (");
		ss_buf_add_fixed2(&x, d->lo);
		ss_buf_adds(&x, " to ");
		ss_buf_add_fixed2(&x, d->hi);
		ss_buf_adds(&x, ")");
	}
	ss_tab_markup(t, h.data, x.data);
	if (h.failed || x.failed)
		t->failed = true;
	ss_buf_release(&h);
	ss_buf_release(&x);
}

static void figures_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			  const struct shown *s)
{
	struct ss_tab_col col[2 + 2 * NFIGURES];
	struct ss_tab t;
	size_t nc = 0;

	col[nc++] = (struct ss_tab_col){"Group", SS_COL_NAME, true, 0, NULL, NULL, false};
	col[nc++] = (struct ss_tab_col){"With stats", SS_COL_COUNT, false, 0, NULL, NULL, false};
	for (size_t f = 0; f < NFIGURES; f++) {
		col[nc++] = (struct ss_tab_col){figures[f].head, SS_COL_FIX2, false, 0, NULL, NULL,
						true};
		col[nc++] = (struct ss_tab_col){figures[f].delta_head, SS_COL_FIX2, false, 0, NULL,
						figures[f].delta_html, true};
	}
	ss_tab_init(&t, col, nc);
	for (size_t i = 0; i < s->n; i++) {
		size_t id = s->id[i];

		ss_sec_groups_label(ss_tab_begin(&t), a, id);
		ss_tab_end(&t);
		ss_tab_int(&t, (__int128)a->group[id].status[SS_ST_OK]);
		for (size_t f = 0; f < NFIGURES; f++) {
			figure_cell(&t, a, an, id, f);
			delta_cell(&t, an, id, f);
		}
	}
	ss_buf_adds(b, "<div class=\"tw groups\">\n");
	ss_tab_html(b, &t, "Key figures and differences from the baseline");
	ss_buf_adds(b, "</div>\n");
	ss_tab_release(&t);
}

void ss_sec_groups_answer_html(struct ss_buf *b, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
	struct shown s;

	if (!an || !an->has_baseline || an->baseline >= a->groups.n)
		return;
	if (!shown_fill(&s, a, an)) {
		b->failed = true;
		goto out;
	}
	ss_buf_adds(b, "<section id=\"answer\">\n<h2>Against the baseline ");
	add_label(b, a, an->baseline);
	ss_buf_adds(b, "</h2>\n<ul>\n");
	for (size_t i = 0; i < s.n; i++)
		if (!ss_analysis_is_baseline(an, s.id[i]))
			sentence(b, a, an, s.id[i]);
	ss_buf_adds(b, "</ul>\n");
	if (s.n <= SIDE_MAX)
		cards(b, a, an, &s);
	overlay_charts(b, a, an, &s);
	ss_buf_adds(b, "<p class=\"note\">Each group's key figures (requests with stats; under "
		    "each figure its ");
	ss_report_add_level(b, an->opts->level);
	ss_buf_adds(b, "% bootstrap interval) and their differences from the baseline (under "
		    "each, the interval of the difference; <strong>bold*</strong>: the interval "
		    "excludes 0). The rates' differences are percentage points (pp). Every figure "
		    "of the folded part at the end pools the requests of all groups together (");
	ss_buf_add_u64_grouped(b, a->groups.n);
	ss_buf_adds(b, " groups) and describes no one of them.</p>\n");
	figures_table(b, a, an, &s);
	ss_buf_adds(b, "</section>\n");
out:
	shown_release(&s, a->groups.n);
}

/* -- each group's own charts ------------------------------------------------ */

/* Group `id`'s rate (and conditional rate) chart, its shorter-draft chart
 * and their numbers, for its busiest draft length p. */
static void group_charts(struct ss_buf *b, size_t gi, const struct ss_pos_result *p)
{
	static const struct ss_tab_col col[] = {
		POS_COL,
		{"Rate (%)", SS_COL_FIX2, false, 0, NULL, "Rate<br>(%)", true},
		{"Conditional (%)", SS_COL_FIX2, false, 0, NULL, "Conditional<br>(%)", true},
		{"\xCF\x84(k\xE2\x80\xB2)", SS_COL_FIX2, false, 0, NULL, "&tau;(k&prime;)", true},
		{"Speedup (\xC3\x97)", SS_COL_FIX2, false, 0, NULL, "Speedup<br>(&times;)", true},
	};
	size_t n = p->k < MAX_ROWS ? p->k : MAX_ROWS;
	double *x = ss_calloc(n, sizeof(double)), *y = ss_calloc(n, sizeof(double));
	double *y2 = ss_calloc(n, sizeof(double)), *tau = ss_calloc(n, sizeof(double));
	size_t nv = p->has_cost ? 4 : 3;
	double *v = ss_calloc(n * nv, sizeof(double));
	char id1[48], id2[48], t1[64], t2[64];
	struct ss_series pair[2];

	if (!x || !y || !y2 || !tau || !v) {
		b->failed = true;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)(i + 1);
		y[i] = p->pos[i].rate * 100.0;
		y2[i] = p->pos[i].has_conditional ? p->pos[i].conditional * 100.0 : NAN;
		tau[i] = p->what_if[i].acceptance_length;
	}
	snprintf(id1, sizeof(id1), "c-g%zu-pos", gi);
	snprintf(id2, sizeof(id2), "c-g%zu-whatif", gi);
	snprintf(t1, sizeof(t1), "Acceptance by draft position (k=%u)", (unsigned)p->k);
	snprintf(t2, sizeof(t2), "If the draft were shorter (k=%u)", (unsigned)p->k);
	ss_chart_pos_pair(pair, x, y, y2, n);
	ss_chart_pos_rate(b, &(struct ss_chart){
		.id = id1, .title = t1,
		.desc = "Line chart of the group's share of verify steps, in percent, whose i-th "
			"draft token was accepted, by position i, with the conditional rate.",
		.y_label = "Accepted (% of steps)", .width = 520, .height = 280}, pair, 2);
	ss_chart_pos_whatif(b, &(struct ss_chart){
		.id = id2, .title = t2,
		.desc = "Line chart of the acceptance length, in tokens per verify step, that each "
			"shorter draft length would have given the group.",
		.y_label = "Tokens per step", .width = 520, .height = 280, .show_values = true,
		.y_max_hint = p->what_if[n - 1].acceptance_length * 7.0 / 6.0},
		(struct ss_series[]){{"Acceptance length \xCF\x84(k\xE2\x80\xB2)", x, tau, n}}, 1);
	for (size_t i = 0; i < n; i++) {
		v[i * nv] = y[i];
		v[i * nv + 1] = y2[i];
		v[i * nv + 2] = tau[i];
		if (p->has_cost)
			v[i * nv + 3] = p->what_if[i].speedup;
	}
	pos_numbers(b, col, nv, v, n, p->has_cost ? p->suggested_k : 0,
		    p->has_cost ? "Numbers of the charts (bold: the suggested k&prime;)"
				: "Numbers of the charts");
out:
	ss_free(x);
	ss_free(y);
	ss_free(y2);
	ss_free(tau);
	ss_free(v);
}

void ss_sec_groups_each_html(struct ss_buf *b, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
	struct shown s;

	if (!an || !an->has_baseline || an->baseline >= a->groups.n)
		return;
	if (!shown_fill(&s, a, an)) {
		b->failed = true;
		goto out;
	}
	if (s.n > SIDE_MAX)
		goto out;
	ss_buf_adds(b, "<section id=\"group-positions\">\n<h2>Each group by draft position</h2>\n"
		    "<p>Each group's own acceptance by position (the share of its verify steps "
		    "whose i-th draft token was accepted, and the share among the steps that "
		    "accepted position i &minus; 1) and the acceptance length each shorter draft "
		    "length k&prime; would have given it, for its draft length with the most "
		    "steps.</p>\n<div class=\"side\">\n");
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_pos_result *p = busiest(&an->group[s.id[i]]);

		ss_buf_adds(b, "<div class=\"grp\">\n");
		group_head(b, a, an, s.id[i]);
		if (p) {
			ss_buf_adds(b, "<p class=\"note\">");
			ss_html_add_count(b, (__int128)p->steps);
			ss_buf_adds(b, p->steps == 1 ? " step of " : " steps of ");
			ss_buf_add_u64_grouped(b, p->requests);
			ss_buf_adds(b, p->requests == 1 ? " request" : " requests");
			if (an->group[s.id[i]].npos > 1)
				ss_buf_addf(b, ", its draft length with the most steps of %zu",
					    an->group[s.id[i]].npos);
			ss_buf_adds(b, "</p>\n");
			k_note(b, &an->group[s.id[i]]);
			group_charts(b, i, p);
		} else {
			ss_html_missing(b, "No acceptance by position: no request of this group has a "
					"per-step histogram and a known draft length k.");
		}
		ss_buf_adds(b, "</div>\n");
	}
	ss_buf_adds(b, "</div>\n</section>\n");
out:
	shown_release(&s, a->groups.n);
}
