/*
 * sec_positions_page.c - the page's section of SPEC 7.1 and 7.9 (the
 * rest of the positions' section is sec_positions.c, whose tables it
 * draws through report/postable.h): the rate by position, the
 * shorter-draft curve and, with a draft cost, the expected speedup, for the
 * (at most MAX_K_SERIES) draft lengths with the most steps, each chart with
 * a table of every k beside it (with several k, each its own small charts
 * and table); and acceptance per drafted token (SPEC 7.9) when records say
 * what each step drafted, beside the rate over all steps of the k with the
 * most steps; and a server family's acceptance by position (SPEC 10.4),
 * drawn as 7.9's.
 */
#include "report/section.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/numfmt.h"
#include "report/postable.h"
#include "util/alloc.h"

/* k values drawn in one chart; the tables list every k. */
#define MAX_K_SERIES 6
/* Rows of one k in the page's tables. */
#define MAX_POS_ROWS 64
/* A server family's positions drawn (its table lists them all up to this). */
#define MAX_SERVER_ROWS 4096

static void excluded_note(struct ss_buf *b, const uint64_t *ex)
{
	static const char *const why[SS_PX_COUNT] = {
		"without a histogram", "without a draft length k", "with k above 4096",
		"with a histogram key above k",
	};
	bool first = true;

	for (int i = 0; i < SS_PX_COUNT; i++) {
		if (!ex[i])
			continue;
		ss_buf_adds(b, first ? " Not pooled: " : ", ");
		first = false;
		ss_buf_add_u64_grouped(b, ex[i]);
		ss_buf_adds(b, ex[i] == 1 ? " request " : " requests ");
		ss_buf_adds(b, why[i]);
	}
	if (!first)
		ss_buf_adds(b, ".");
}

/* Draw up to MAX_K_SERIES k values: those with the most steps, in k order. */
static size_t pick_ks(const struct ss_set_analysis *s, size_t *shown)
{
	size_t ns = 0;

	for (size_t i = 0; i < s->npos; i++) {
		if (!s->pos[i].defined)
			continue;
		if (ns < MAX_K_SERIES) {
			shown[ns++] = i;
			continue;
		}
		size_t min = 0;

		for (size_t j = 1; j < ns; j++)
			if (s->pos[shown[j]].steps < s->pos[shown[min]].steps)
				min = j;
		if (s->pos[i].steps > s->pos[shown[min]].steps) {
			/* keep ascending k: drop the smallest, append this one */
			for (size_t j = min; j + 1 < ns; j++)
				shown[j] = shown[j + 1];
			shown[ns - 1] = i;
		}
	}
	return ns;
}

/*
 * How one set of charts is laid out: all k drawn together (only NULL,
 * full size, the tables of every k), or one draft length's own small
 * charts (SPEC 9.1: each k readable on its own), with its rows only and
 * ids made unique by the suffix.
 */
struct view {
	const struct ss_pos_result *only;  /* NULL: every k */
	char suffix[24];                   /* appended to chart ids: "-k4" */
	int width, height;
	bool intro;                        /* the speedup's formula said here */
	bool compact;                      /* the chart alone: no figure box, no
					      table, no text (per_k() adds them) */
};

/* A small chart's y axis reaches a sixth above its highest value, so the
 * values written over the points stay clear of the title. */
static double headroom(const struct view *v, const double *y, size_t n)
{
	double m = 0;

	if (!v->compact)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(y[i]) && y[i] > m)
			m = y[i];
	return m * 7.0 / 6.0;
}

/* A chart id for the view: "c-pos" or "c-pos-k4" (in `buf`). */
static const char *view_id(char *buf, size_t n, const char *base, const struct view *v)
{
	snprintf(buf, n, "%s%s", base, v->suffix);
	return buf;
}

/* A chart title, with " (k=K)" when the chart shows the one draft length p. */
static void pos_title(char *t, size_t n, const char *base, const struct ss_pos_result *p)
{
	if (p)
		snprintf(t, n, "%s (k=%u)", base, (unsigned)p->k);
	else
		snprintf(t, n, "%s", base);
}

/*
 * The points of the charts: for each k drawn, its positions 1..k one after
 * the other (x), the rate and the conditional rate in percent (y, y2), the
 * shorter-draft acceptance length (tau) and the speedup (sp, NaN without a
 * draft cost).
 */
struct points {
	size_t shown[MAX_K_SERIES], ns;
	double *x, *y, *y2, *tau, *sp;
};

static void points_release(struct points *pt)
{
	ss_free(pt->x);
	ss_free(pt->y);
	ss_free(pt->y2);
	ss_free(pt->tau);
	ss_free(pt->sp);
}

/* false when out of memory (pt is then released). */
static bool points_fill(struct points *pt, const struct ss_set_analysis *s)
{
	size_t total = 0, off = 0;

	for (size_t i = 0; i < pt->ns; i++)
		total += s->pos[pt->shown[i]].k;
	pt->x = ss_calloc(total, sizeof(double));
	pt->y = ss_calloc(total, sizeof(double));
	pt->y2 = ss_calloc(total, sizeof(double));
	pt->tau = ss_calloc(total, sizeof(double));
	pt->sp = ss_calloc(total, sizeof(double));
	if (!pt->x || !pt->y || !pt->y2 || !pt->tau || !pt->sp) {
		points_release(pt);
		return false;
	}
	for (size_t i = 0; i < pt->ns; i++) {
		const struct ss_pos_result *p = &s->pos[pt->shown[i]];

		for (uint32_t j = 0; j < p->k; j++) {
			pt->x[off + j] = j + 1;
			pt->y[off + j] = p->pos[j].rate * 100.0;
			pt->y2[off + j] = p->pos[j].has_conditional ? p->pos[j].conditional * 100.0 : NAN;
			pt->tau[off + j] = p->what_if[j].acceptance_length;
			pt->sp[off + j] = p->has_cost ? p->what_if[j].speedup : NAN;
		}
		off += p->k;
	}
	return true;
}

/* Chart 1: the rate by position (and the conditional rate, for one k),
 * and the table of every k's positions. */
static void rate_chart(struct ss_buf *b, const struct ss_set_analysis *s, const struct points *pt,
		       const struct view *v)
{
	struct ss_series series[MAX_K_SERIES];
	char names[MAX_K_SERIES][64], title[96], id[48];
	struct ss_buf desc = SS_BUF_INIT;
	struct ss_tab t;
	size_t ns = pt->ns, off = 0;

	for (size_t i = 0; i < ns; i++) {
		const struct ss_pos_result *p = &s->pos[pt->shown[i]];

		if (ns == 1) {
			ss_chart_pos_pair(series, pt->x, pt->y, pt->y2, p->k);
		} else {
			snprintf(names[i], sizeof(names[i]), "k=%u", (unsigned)p->k);
			series[i] = (struct ss_series){names[i], pt->x + off, pt->y + off, p->k};
		}
		off += p->k;
	}
	pos_title(title, sizeof(title), "Acceptance by draft position",
		  ns == 1 ? &s->pos[pt->shown[0]] : NULL);
	ss_buf_adds(&desc, "Line chart of the share of verify steps, in percent, whose i-th draft "
		    "token was accepted, by position i");
	ss_buf_adds(&desc, ns == 1 ? ", with the conditional rate." : ", one line per draft length k.");
	if (!v->compact)
		ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_pos_rate(b, &(struct ss_chart){
		.id = view_id(id, sizeof(id), "c-pos", v), .title = title,
		.desc = desc.data ? desc.data : "",
		.y_label = v->compact ? "Accepted (% of steps)" : "Accepted at position i (% of steps)",
		.width = v->width, .height = v->height}, series, ns == 1 ? 2 : ns);
	if (v->compact)
		goto out;
	ss_postab_pos_init(&t);
	for (size_t i = 0; i < s->npos; i++)
		if (s->pos[i].defined && (!v->only || &s->pos[i] == v->only))
			ss_postab_pos_rows(&t, &s->pos[i], MAX_POS_ROWS);
	ss_tab_html(b, &t, "Numbers of the chart");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n");
out:
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
}

/* Chart 2: tau(k') for each k drawn, and the table of every k's rows
 * (with the speedups when there is a draft cost). */
static void whatif_chart(struct ss_buf *b, const struct ss_set_analysis *s, const struct points *pt,
			 bool cost, const struct view *v)
{
	struct ss_series series[MAX_K_SERIES];
	char names[MAX_K_SERIES][64], title[96], id[48];
	struct ss_buf desc = SS_BUF_INIT;
	struct ss_tab_col cols[SS_POSTAB_WHATIF_NCOLS];
	struct ss_tab t;
	size_t ns = pt->ns, off = 0;

	for (size_t i = 0; i < ns; i++) {
		const struct ss_pos_result *p = &s->pos[pt->shown[i]];

		if (ns == 1)
			snprintf(names[i], sizeof(names[i]), "Acceptance length \xCF\x84(k\xE2\x80\xB2)");
		else
			snprintf(names[i], sizeof(names[i]), "k=%u", (unsigned)p->k);
		series[i] = (struct ss_series){names[i], pt->x + off, pt->tau + off, p->k};
		off += p->k;
	}
	pos_title(title, sizeof(title), "If the draft were shorter",
		  ns == 1 ? &s->pos[pt->shown[0]] : NULL);
	ss_buf_adds(&desc, "Line chart of the acceptance length, in tokens per verify step, that "
		    "each shorter draft length would have given.");
	if (!v->compact)
		ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_pos_whatif(b, &(struct ss_chart){
		.id = view_id(id, sizeof(id), "c-whatif", v), .title = title,
		.desc = desc.data ? desc.data : "",
		.y_label = v->compact ? "Tokens per step" : "Acceptance length (tokens per step)",
		.width = v->width, .height = v->height, .show_values = true,
		.y_max_hint = headroom(v, pt->tau, off)}, series, ns);
	if (v->compact)
		goto out;
	ss_postab_whatif_init(&t, cols, cost);
	for (size_t i = 0; i < s->npos; i++)
		if (s->pos[i].defined && (!v->only || &s->pos[i] == v->only))
			ss_postab_whatif_rows(&t, &s->pos[i], MAX_POS_ROWS, s->pos[i].has_cost);
	ss_tab_html(b, &t, cost ? "Numbers of the chart (bold: the suggested k&prime;, the best "
				  "speedup)" : "Numbers of the chart");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n");
out:
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
}

/* Chart 3, with a draft cost: the expected speedup by draft length, the
 * suggested k marked when one k is drawn. */
static void speedup_chart(struct ss_buf *b, const struct ss_set_analysis *s, const struct points *pt,
			  const struct view *v)
{
	const struct ss_pos_result *p0 = &s->pos[pt->shown[0]];
	struct ss_series series[MAX_K_SERIES];
	char names[MAX_K_SERIES][64], mark[48], id[48], title[96];
	struct ss_buf desc = SS_BUF_INIT;
	size_t ns = pt->ns, off = 0;

	for (size_t i = 0; i < ns; i++) {
		const struct ss_pos_result *p = &s->pos[pt->shown[i]];

		if (ns == 1)
			snprintf(names[i], sizeof(names[i]), "Expected speedup");
		else
			snprintf(names[i], sizeof(names[i]), "k=%u", (unsigned)p->k);
		series[i] = (struct ss_series){names[i], pt->x + off, pt->sp + off, p->k};
		off += p->k;
	}
	snprintf(mark, sizeof(mark), "suggested k=%u", (unsigned)p0->suggested_k);
	if (v->compact)
		goto chart;
	ss_buf_adds(b, "<p>");
	if (v->intro) {
		ss_buf_adds(b, "With a draft token costing ");
		ss_chart_add_fixed(b, p0->draft_cost, 2);
		ss_buf_adds(b, " of a target forward pass, the expected speedup over no "
			    "speculation is &tau;(k&prime;) / (1 + cost &times; k&prime;) (Leviathan "
			    "et al. 2023). ");
	}
	if (ns == 1 && p0->suggested_k) {
		ss_buf_addf(b, "The best draft length is k&prime; = %u (speedup ",
			    (unsigned)p0->suggested_k);
		ss_buf_add_fixed2(b, p0->what_if[p0->suggested_k - 1].speedup);
		ss_buf_adds(b, "&times;).");
	} else if (ns == 1) {
		ss_buf_adds(b, "No draft length beats no speculation at this cost.");
	}
	ss_buf_adds(b, "</p>\n");
	ss_buf_adds(b, "<div class=\"fig\">\n");
chart:
	ss_buf_adds(&desc, "Line chart of the expected speedup over no speculation for each "
		    "draft length, at the given draft cost.");
	pos_title(title, sizeof(title), v->compact ? "Expected speedup" : "Expected speedup by draft length",
		  v->only);
	ss_chart_lines(b, &(struct ss_chart){
		.id = view_id(id, sizeof(id), "c-speedup", v), .title = title,
		.desc = desc.data ? desc.data : "",
		.x_label = "Draft length k\xE2\x80\xB2", .y_label = "Speedup (\xC3\x97)",
		.width = v->width, .height = v->height, .value_decimals = 2, .value_suffix = "\xC3\x97",
		.y_max_hint = headroom(v, pt->sp, off),
		.show_values = true},
		&(struct ss_line_opts){true, ns == 1 && p0->suggested_k ? (double)p0->suggested_k : NAN,
				       mark, NAN}, series, ns);
	if (!v->compact)
		ss_buf_adds(b, "</div>\n");
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
}

/* "k = 4: 20,376 steps of 400 requests, AL 2.75, suggested k' = 3 (1.74x)" */
static void k_heading(struct ss_buf *b, const struct ss_pos_result *p)
{
	ss_buf_addf(b, "<h3 id=\"pos-k%u\">k = %u: ", (unsigned)p->k, (unsigned)p->k);
	ss_html_add_count(b, (__int128)p->steps);
	ss_buf_adds(b, p->steps == 1 ? " step of " : " steps of ");
	ss_buf_add_u64_grouped(b, p->requests);
	ss_buf_adds(b, p->requests == 1 ? " request, acceptance length " : " requests, acceptance length ");
	ss_buf_add_fixed2(b, p->acceptance_length);
	if (p->has_cost && p->suggested_k) {
		ss_buf_addf(b, ", suggested k&prime; = %u (", (unsigned)p->suggested_k);
		ss_buf_add_fixed2(b, p->what_if[p->suggested_k - 1].speedup);
		ss_buf_adds(b, "&times;)");
	} else if (p->has_cost) {
		ss_buf_adds(b, ", no draft length pays at this cost");
	}
	ss_buf_adds(b, "</h3>\n");
}

/* One k's numbers in one table: position i's rates beside k' = i's
 * shorter draft (both run 1..k); the suggested k' in bold. */
static const struct ss_tab_col k_cols[] = {
	{"i = k'", SS_COL_INT, false, 0, NULL, "i = k&prime;", false},
	{"Accepted", SS_COL_COUNT, false, 0, NULL, "Steps<br>accepted", false},
	{"Rate", SS_COL_PCT, false, 0, NULL, "Rate<br>(%)", false},
	{"Conditional", SS_COL_PCT, false, 0, NULL, "Conditional<br>(%)", false},
	{"Acceptance Length", SS_COL_FIX2, false, 0, NULL, "Acceptance<br>length", true},
	{"Draft Acceptance Rate (%)", SS_COL_FIX2, false, 0, NULL, "Draft acceptance<br>rate (%)",
	 true},
	{"Speedup", SS_COL_TIMES, false, 0, NULL, "Speedup<br>(&times;)", true},
};

static void k_table(struct ss_buf *b, const struct ss_pos_result *p)
{
	size_t ncols = sizeof(k_cols) / sizeof(k_cols[0]) - !p->has_cost;
	char caption[96];
	struct ss_tab t;

	ss_tab_init(&t, k_cols, ncols);
	for (uint32_t j = 0; j < p->k && j < MAX_POS_ROWS; j++) {
		ss_postab_suggested(&t, p, j);
		ss_tab_int(&t, j + 1);
		ss_tab_int(&t, (__int128)p->pos[j].accepted);
		ss_tab_num(&t, p->pos[j].rate);
		if (p->pos[j].has_conditional)
			ss_tab_num(&t, p->pos[j].conditional);
		else
			ss_tab_na(&t);
		ss_tab_num(&t, p->what_if[j].acceptance_length);
		ss_tab_num(&t, p->what_if[j].draft_acceptance_rate);
		if (p->has_cost)
			ss_tab_num(&t, p->what_if[j].speedup);
	}
	snprintf(caption, sizeof(caption), "Numbers of the charts (k = %u%s)", (unsigned)p->k,
		 p->has_cost ? "; bold: the suggested k&prime;" : "");
	ss_buf_adds(b, "<div class=\"tw\">");
	ss_tab_html(b, &t, caption);
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n");
}

static bool is_shown(const struct points *pt, size_t i)
{
	for (size_t j = 0; j < pt->ns; j++)
		if (pt->shown[j] == i)
			return true;
	return false;
}

/* The draft lengths not drawn: a row each, its rates in one cell. */
static const struct ss_tab_col other_cols[] = {
	{"k", SS_COL_INT, false, 0, NULL, NULL, false},
	{"Steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"Acceptance Length", SS_COL_FIX2, false, 0, NULL, "Acceptance<br>length", true},
	{"Rate by position (%)", SS_COL_TEXT, true, 0, NULL, NULL, false},
	{"Suggested k'", SS_COL_INT, false, 0, NULL, "Suggested<br>k&prime;", false},
};

/* The rates of p's positions in percent, eight to a line on the page. */
static void rates_cell(struct ss_tab *t, const struct ss_pos_result *p)
{
	struct ss_buf html = SS_BUF_INIT, text = SS_BUF_INIT;

	for (uint32_t j = 0; j < p->k && j < MAX_POS_ROWS; j++) {
		if (j) {
			ss_buf_adds(&html, j % 8 ? " " : "<br>");
			ss_buf_addc(&text, ' ');
		}
		ss_buf_add_fixed2(&html, p->pos[j].rate * 100.0);
		ss_buf_add_fixed2(&text, p->pos[j].rate * 100.0);
	}
	if (html.failed || text.failed)
		t->failed = true;
	ss_tab_markup(t, html.data ? html.data : "", text.data ? text.data : "");
	ss_buf_release(&html);
	ss_buf_release(&text);
}

/* Several draft lengths: each drawn k its own small charts and rows, so
 * its curves read on their own; the draft lengths not drawn in a table. */
static void per_k(struct ss_buf *b, const struct ss_set_analysis *s, const struct points *all)
{
	size_t others = 0;
	struct ss_tab t;

	if (s->pos[all->shown[0]].has_cost) {
		ss_buf_adds(b, "<p>With a draft token costing ");
		ss_chart_add_fixed(b, s->pos[all->shown[0]].draft_cost, 2);
		ss_buf_adds(b, " of a target forward pass, the expected speedup over no speculation "
			    "is &tau;(k&prime;) / (1 + cost &times; k&prime;) (Leviathan et al. "
			    "2023); each heading gives the suggested k&prime; of its k, the best "
			    "speedup, set in bold in its table.</p>\n");
	}
	for (size_t i = 0; i < all->ns; i++) {
		struct points pt = {0};
		const struct ss_pos_result *p = &s->pos[all->shown[i]];
		struct view v = {p, "", 340, 260, false, true};

		snprintf(v.suffix, sizeof(v.suffix), "-k%u", (unsigned)p->k);
		pt.ns = 1;
		pt.shown[0] = all->shown[i];
		if (!points_fill(&pt, s)) {
			b->failed = true;
			return;
		}
		k_heading(b, p);
		ss_buf_adds(b, "<div class=\"fig\">\n");
		rate_chart(b, s, &pt, &v);
		whatif_chart(b, s, &pt, p->has_cost, &v);
		if (p->has_cost)
			speedup_chart(b, s, &pt, &v);
		ss_buf_adds(b, "</div>\n");
		k_table(b, p);
		points_release(&pt);
	}
	for (size_t i = 0; i < s->npos; i++)
		others += s->pos[i].defined && !is_shown(all, i);
	if (!others)
		return;
	ss_tab_init(&t, other_cols, sizeof(other_cols) / sizeof(other_cols[0]));
	for (size_t i = 0; i < s->npos; i++) {
		const struct ss_pos_result *p = &s->pos[i];

		if (!p->defined || is_shown(all, i))
			continue;
		ss_tab_int(&t, p->k);
		ss_tab_int(&t, (__int128)p->steps);
		ss_tab_num(&t, p->acceptance_length);
		rates_cell(&t, p);
		if (p->has_cost && p->suggested_k)
			ss_tab_int(&t, p->suggested_k);
		else
			ss_tab_empty(&t);
	}
	ss_buf_adds(b, "<h3>The other draft lengths</h3>\n<div class=\"tw\">");
	ss_tab_html(b, &t, "Draft lengths with fewer steps: acceptance rate by position (%)");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n");
}

/*
 * A figure of acceptance by position from per-drafted-token rows (SPEC
 * 7.9's, a server family's, 10.4): the rates of the n rows in percent as a
 * line chart with a second line (the rows' conditional rates with
 * `conditional`, else p's rate over all steps of its first np positions
 * when p is not NULL), and the table t (built by the caller, released
 * here) below it.
 */
struct rows_fig {
	const char *id, *title, *desc, *y_label, *name;
	bool conditional;
};

static void rows_fig(struct ss_buf *b, const struct rows_fig *c, const struct ss_drafted_row *rows,
		     size_t n, const struct ss_pos_result *p, size_t np, struct ss_tab *t)
{
	size_t n2 = c->conditional ? n : p ? np : 0, nx = n > n2 ? n : n2;
	double *x = ss_calloc(nx ? nx : 1, sizeof(double));
	double *y = ss_calloc(n ? n : 1, sizeof(double));
	double *y2 = ss_calloc(n2 ? n2 : 1, sizeof(double));
	struct ss_series series[2];
	char name2[64];
	size_t ns = 0;

	if (!x || !y || !y2) {
		b->failed = true;
		goto out;
	}
	for (size_t i = 0; i < nx; i++)
		x[i] = (double)(i + 1);
	for (size_t i = 0; i < n; i++)
		y[i] = rows[i].has_rate ? rows[i].rate * 100.0 : NAN;
	series[ns++] = (struct ss_series){c->name, x, y, n};
	if (c->conditional) {
		for (size_t i = 0; i < n; i++)
			y2[i] = rows[i].has_conditional ? rows[i].conditional * 100.0 : NAN;
		snprintf(name2, sizeof(name2), "Conditional: given i\xE2\x88\x92" "1 accepted");
		series[ns++] = (struct ss_series){name2, x, y2, n};
	} else if (p) {
		for (size_t i = 0; i < np; i++)
			y2[i] = p->pos[i].rate * 100.0;
		snprintf(name2, sizeof(name2), "Over all steps (k=%u)", (unsigned)p->k);
		series[ns++] = (struct ss_series){name2, x, y2, np};
	}
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_pos_rate(b, &(struct ss_chart){
		.id = c->id, .title = c->title, .desc = c->desc, .y_label = c->y_label,
		.width = 640, .height = 340}, series, ns);
	ss_tab_html(b, t, "Numbers of the chart");
	ss_buf_adds(b, "</div>\n");
out:
	ss_tab_release(t);
	ss_free(x);
	ss_free(y);
	ss_free(y2);
}

/*
 * SPEC 7.9: the rate per drafted token, with 7.1's rate over all steps of
 * `p` (the draft length with the most steps, NULL: none) for comparison,
 * and the table of the positions.
 */
static void drafted_chart(struct ss_buf *b, const struct ss_drafted_result *d,
			  const struct ss_pos_result *p)
{
	size_t n = d->n < MAX_POS_ROWS ? d->n : MAX_POS_ROWS;
	size_t np = p ? (p->k < MAX_POS_ROWS ? p->k : MAX_POS_ROWS) : 0;
	struct ss_tab t;

	ss_buf_adds(b, "<h3>Variable draft lengths</h3>\n<p>Of ");
	ss_buf_add_u64_grouped(b, d->requests);
	ss_buf_adds(b, d->requests == 1 ? " request that says" : " requests that say");
	ss_buf_adds(b, " what each verify step drafted (per-step arrays or vLLM's histogram by "
		    "draft length), the share of the steps that drafted position i whose i-th "
		    "token was accepted. A step that drafted fewer tokens does not count against "
		    "the positions it did not draft, as it does in the rate over all steps.</p>\n");
	ss_postab_drafted(&t, d, MAX_POS_ROWS);
	rows_fig(b, &(struct rows_fig){
		"c-drafted", "Acceptance per drafted token",
		"Line chart of the share, in percent, of the verify steps that drafted position i "
		"whose i-th draft token was accepted, by position i, beside the share of all steps.",
		"Accepted at position i (% of steps)", "Per drafted token", false}, d->rows, n, p, np,
		&t);
}

void ss_sec_positions_server_html(struct ss_buf *out, const struct ss_server_family *f, size_t idx)
{
	size_t k = f->npositions < MAX_SERVER_ROWS ? f->npositions : MAX_SERVER_ROWS;
	struct ss_tab t;
	char id[32];

	snprintf(id, sizeof(id), "c-srv-pos-%zu", idx);
	ss_postab_server(&t, f, k);
	rows_fig(out, &(struct rows_fig){
		id, "The server's acceptance by draft position",
		"Line chart of the share, in percent, of the draft tokens at position i that the "
		"server accepted, with the conditional rate (accepted given position i minus 1 was), "
		"from the per-position counters.",
		"Accepted at position i (%)", "Rate: accepted / drafted", true}, f->positions, k, NULL, 0,
		&t);
}

/* The k with the most steps among those drawn (NULL when none). */
static const struct ss_pos_result *busiest_k(const struct ss_set_analysis *s,
					     const struct points *pt)
{
	const struct ss_pos_result *best = NULL;

	for (size_t i = 0; i < pt->ns; i++)
		if (!best || s->pos[pt->shown[i]].steps > best->steps)
			best = &s->pos[pt->shown[i]];
	return best;
}

void ss_sec_positions_html(struct ss_buf *b, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
	const struct ss_set_analysis *s = &an->main;
	struct points pt = {0};

	pt.ns = pick_ks(s, pt.shown);
	ss_buf_adds(b, "<section id=\"positions\">\n<h2>Acceptance by draft position</h2>\n");
	if (pt.ns == 0) {
		struct ss_buf why = SS_BUF_INIT;

		ss_buf_adds(&why, "No acceptance by position: it needs requests with a per-step "
			    "histogram and a known draft length k (num_spec_tokens).");
		excluded_note(&why, a->main.positions.excluded);
		if (!s->drafted.present) {
			ss_html_missing_end(b, &why);
			return;
		}
		if (why.failed)
			b->failed = true;
		else
			ss_html_missing(b, why.data);
		ss_buf_release(&why);
		drafted_chart(b, &s->drafted, NULL);
		ss_buf_adds(b, "</section>\n");
		return;
	}
	if (!points_fill(&pt, s)) {
		b->failed = true;
		return;
	}
	ss_buf_adds(b, "<p>Of the verify steps of the requests with a histogram and a draft length "
		    "k, the share whose i-th draft token was accepted (the rate), and the share "
		    "accepted among the steps that accepted position i &minus; 1 (conditional). "
		    "The shorter-draft curve is the acceptance length each draft length k&prime; "
		    "&le; k would have given: exact for chain drafters (a draft model, EAGLE or "
		    "MTP chains, n-gram), where a shorter draft is a prefix of the longer one; an "
		    "estimate for tree drafting.");
	excluded_note(b, a->main.positions.excluded);
	if (pt.ns > 1)
		ss_buf_adds(b, " Each draft length k has its own charts and rows below (the "
			    "requests that ran with that k)");
	if (pt.ns < s->npos)
		ss_buf_adds(b, pt.ns > 1 ? "; those with the most steps are drawn, the others "
				       "listed in a table after them." : "");
	else if (pt.ns > 1)
		ss_buf_adds(b, ".");
	ss_buf_adds(b, "</p>\n");
	if (pt.ns == 1) {
		struct view v = {NULL, "", 640, 340, true, false};

		rate_chart(b, s, &pt, &v);
		if (s->drafted.present)
			drafted_chart(b, &s->drafted, busiest_k(s, &pt));
		whatif_chart(b, s, &pt, s->pos[pt.shown[0]].has_cost, &v);
		if (s->pos[pt.shown[0]].has_cost)
			speedup_chart(b, s, &pt, &v);
	} else {
		per_k(b, s, &pt);
		/* 7.9 after every k's own charts, beside the busiest one */
		if (s->drafted.present)
			drafted_chart(b, &s->drafted, busiest_k(s, &pt));
	}
	ss_buf_adds(b, "</section>\n");
	points_release(&pt);
}
