/*
 * sec_positions.c - SPEC 7.1's acceptance by draft position and the
 * shorter-draft (what-if) rows, and 7.9's acceptance per drafted token, in
 * every report: the `positions` member of `analysis` (and of each group's
 * row), the console's lines, the Markdown tables (one pair per draft length
 * k), the CSV sections and the page's section with its charts. The tables
 * are built once (report/tabular.h) and drawn by each format's renderer.
 *
 * The page draws (at most MAX_K_SERIES) draft lengths with the most steps,
 * each chart with a table of every k beside it (with several k, each its
 * own small charts and table), and acceptance per drafted token when
 * records say what each step drafted, beside the rate over all steps of
 * the k with the most steps.
 */
#include "report/section.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/postable.h"

/* All the rows (Markdown's and CSV's tables; the page shows fewer). */
#define ALL_ROWS UINT32_MAX

/* -- JSON ------------------------------------------------------------------ */

/* The `positions` array of per-drafted-token rows: the run's (7.9,
 * drafted before accepted) or a server family's (10.4, `server`: accepted
 * before drafted). */
static void json_rows(struct ss_jsonw *w, const struct ss_drafted_row *rows, size_t n, bool server)
{
	ss_jsonw_begin_array(w, "positions");
	for (size_t i = 0; i < n; i++) {
		const struct ss_drafted_row *r = &rows[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "position", i + 1);
		if (server)
			ss_jsonw_i128(w, "accepted", (__int128)r->accepted);
		ss_jsonw_i128(w, "drafted", (__int128)r->drafted);
		if (!server)
			ss_jsonw_i128(w, "accepted", (__int128)r->accepted);
		if (r->has_rate)
			ss_jsonw_double(w, "rate", r->rate);
		else
			ss_jsonw_null(w, "rate");
		if (r->has_conditional)
			ss_jsonw_double(w, "conditional", r->conditional);
		else
			ss_jsonw_null(w, "conditional");
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

/* SPEC 7.9: acceptance per drafted token. */
static void json_drafted(struct ss_jsonw *w, const struct ss_drafted_result *d)
{
	ss_jsonw_begin_object(w, "drafted");
	ss_jsonw_u64(w, "requests", d->requests);
	ss_jsonw_i128(w, "steps", (__int128)d->steps);
	json_rows(w, d->rows, d->n, false);
	ss_jsonw_end_object(w);
}

/* The `what_if` array of k rows, a row's speedup with `cost` (the run's
 * only where the row has one; a server family's always). */
static void json_whatif(struct ss_jsonw *w, const struct ss_whatif_row *rows, size_t k, bool cost,
			bool server)
{
	ss_jsonw_begin_array(w, "what_if");
	for (size_t i = 0; i < k; i++) {
		const struct ss_whatif_row *wi = &rows[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "k", i + 1);
		ss_jsonw_double(w, "acceptance_length", wi->acceptance_length);
		ss_jsonw_double(w, "draft_acceptance_rate", wi->draft_acceptance_rate);
		if (cost && (server || wi->has_speedup))
			ss_jsonw_double(w, "speedup", wi->speedup);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

static void json_pos_result(struct ss_jsonw *w, const struct ss_pos_result *p, bool speedup)
{
	ss_jsonw_begin_object(w, NULL);
	ss_jsonw_u64(w, "k", p->k);
	ss_jsonw_u64(w, "requests", p->requests);
	ss_jsonw_i128(w, "steps", (__int128)p->steps);
	ss_jsonw_double(w, "acceptance_length", p->acceptance_length);
	ss_jsonw_begin_array(w, "positions");
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_pos_row *r = &p->pos[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "position", i + 1);
		ss_jsonw_i128(w, "accepted", (__int128)r->accepted);
		ss_jsonw_double(w, "rate", r->rate);
		if (r->has_conditional)
			ss_jsonw_double(w, "conditional", r->conditional);
		else
			ss_jsonw_null(w, "conditional");
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	json_whatif(w, p->what_if, p->k, p->has_cost, false);
	if (p->has_cost) {
		ss_jsonw_double(w, "draft_cost", p->draft_cost);
		ss_jsonw_u64(w, "suggested_k", p->suggested_k);
		/* SPEC 11.3: with --speedup, where the cost came from */
		if (speedup || p->cost_source == SS_COST_MEASURED)
			ss_jsonw_str(w, "draft_cost_source", ss_cost_source_name(p->cost_source));
	}
	ss_jsonw_str(w, "model", "chain");
	ss_jsonw_end_object(w);
}

void ss_sec_positions_json_set(struct ss_jsonw *w, const struct ss_results *r,
			       const struct ss_set_analysis *s, bool speedup)
{
	ss_jsonw_begin_object(w, "positions");
	ss_jsonw_begin_object(w, "excluded");
	for (int x = 0; x < SS_PX_COUNT; x++)
		ss_jsonw_u64(w, ss_pos_excl_names[x], r->positions.excluded[x]);
	/* SPEC 7.13: the fifth key, always written */
	ss_jsonw_u64(w, "inconsistent_by_draft_length", r->drafted.inconsistent);
	ss_jsonw_end_object(w);
	ss_jsonw_begin_array(w, "by_k");
	for (size_t i = 0; i < s->npos; i++)
		json_pos_result(w, &s->pos[i], speedup);
	ss_jsonw_end_array(w);
	if (s->drafted.present)
		json_drafted(w, &s->drafted);
	ss_jsonw_end_object(w);
}

void ss_sec_positions_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	ss_sec_positions_json_set(w, &c->a->main, &c->an->main, c->an->opts->speedup);
}

/* -- the tables (postable.h) ----------------------------------------------- */

/* Acceptance by position: Markdown's per k, CSV's and the page's of every k. */
static const struct ss_tab_col pos_cols[] = {
	{"k", SS_COL_INT, false, SS_TAB_CSV | SS_TAB_HTML, NULL, NULL, false},
	{"Position", SS_COL_INT, false, 0, NULL, NULL, false},
	{"Accepted", SS_COL_COUNT, false, 0, NULL, "Steps<br>accepted", false},
	{"Rate", SS_COL_PCT, false, 0, "Rate (%)", "Rate<br>(%)", false},
	{"Conditional", SS_COL_PCT, false, 0, "Conditional (%)", "Conditional<br>(%)", false},
};

/* The shorter drafts: the Speedup column's formats are the caller's. */
enum { WHATIF_SPEEDUP = 4 };
static const struct ss_tab_col whatif_cols[SS_POSTAB_WHATIF_NCOLS] = {
	{"k", SS_COL_INT, false, SS_TAB_CSV | SS_TAB_HTML, NULL, NULL, false},
	{"Draft length", SS_COL_INT, false, 0, "Draft Length", "k&prime;", false},
	{"Acceptance Length (tokens/step)", SS_COL_FIX2, false, 0, "Acceptance Length",
	 "Acceptance<br>length", true},
	{"Draft Acceptance Rate (%)", SS_COL_FIX2, false, 0, NULL, "Draft acceptance<br>rate (%)",
	 true},
	{"Speedup", SS_COL_TIMES, false, 0, NULL, "Speedup<br>(&times;)", true},
};

/* SPEC 7.9's rows. */
static const struct ss_tab_col drafted_cols[] = {
	{"Position", SS_COL_INT, false, 0, NULL, NULL, false},
	{"Drafted", SS_COL_COUNT, false, 0, NULL, "Steps<br>drafted", false},
	{"Accepted", SS_COL_COUNT, false, 0, NULL, "Steps<br>accepted", false},
	{"Rate", SS_COL_PCT, false, 0, "Rate (%)", "Rate<br>(%)", false},
	{"Conditional", SS_COL_PCT, false, 0, "Conditional (%)", "Conditional<br>(%)", false},
};

void ss_postab_suggested(struct ss_tab *t, const struct ss_pos_result *p, uint32_t j)
{
	if (p->has_cost && p->suggested_k == j + 1)
		ss_tab_row_class(t, "total");
}

void ss_postab_pos_init(struct ss_tab *t)
{
	ss_tab_init(t, pos_cols, sizeof(pos_cols) / sizeof(pos_cols[0]));
}

void ss_postab_pos_rows(struct ss_tab *t, const struct ss_pos_result *p, uint32_t max)
{
	for (uint32_t j = 0; j < p->k && j < max; j++) {
		ss_tab_int(t, p->k);
		ss_tab_int(t, j + 1);
		ss_tab_int(t, (__int128)p->pos[j].accepted);
		ss_tab_num(t, p->pos[j].rate);
		if (p->pos[j].has_conditional)
			ss_tab_num(t, p->pos[j].conditional);
		else
			ss_tab_na(t);
	}
}

void ss_postab_whatif_rows(struct ss_tab *t, const struct ss_pos_result *p, uint32_t max,
			   bool cost)
{
	for (uint32_t j = 0; j < p->k && j < max; j++) {
		ss_postab_suggested(t, p, j);
		ss_tab_int(t, p->k);
		ss_tab_int(t, j + 1);
		ss_tab_num(t, p->what_if[j].acceptance_length);
		ss_tab_num(t, p->what_if[j].draft_acceptance_rate);
		if (cost)
			ss_tab_num(t, p->what_if[j].speedup);
		else
			ss_tab_empty(t);
	}
}

void ss_postab_whatif_init(struct ss_tab *t, struct ss_tab_col *cols, bool speedup)
{
	memcpy(cols, whatif_cols, sizeof(whatif_cols));
	cols[WHATIF_SPEEDUP].in = speedup ? SS_TAB_ALL : SS_TAB_CSV;
	ss_tab_init(t, cols, SS_POSTAB_WHATIF_NCOLS);
}

/* A server family's (SPEC 10.4): Accepted before Drafted. */
static const struct ss_tab_col server_cols[] = {
	{"Position", SS_COL_INT, false, 0, NULL, NULL, false},
	{"Accepted", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"Drafted", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"Rate", SS_COL_PCT, false, 0, "Rate (%)", "Rate<br>(%)", false},
	{"Conditional", SS_COL_PCT, false, 0, "Conditional (%)", "Conditional<br>(%)", false},
};

/* Up to `max` per-drafted-token rows, in server_cols' order with `server`,
 * else drafted_cols'. */
static void drafted_rows(struct ss_tab *t, const struct ss_drafted_row *rows, size_t n, size_t max,
			 bool server)
{
	for (size_t i = 0; i < n && i < max; i++) {
		const struct ss_drafted_row *r = &rows[i];

		ss_tab_int(t, (__int128)(i + 1));
		ss_tab_int(t, (__int128)(server ? r->accepted : r->drafted));
		ss_tab_int(t, (__int128)(server ? r->drafted : r->accepted));
		if (r->has_rate)
			ss_tab_num(t, r->rate);
		else
			ss_tab_na(t);
		if (r->has_conditional)
			ss_tab_num(t, r->conditional);
		else
			ss_tab_na(t);
	}
}

void ss_postab_drafted(struct ss_tab *t, const struct ss_drafted_result *d, size_t max)
{
	ss_tab_init(t, drafted_cols, sizeof(drafted_cols) / sizeof(drafted_cols[0]));
	drafted_rows(t, d->rows, d->n, max, false);
}

void ss_postab_server(struct ss_tab *t, const struct ss_server_family *f, size_t max)
{
	ss_tab_init(t, server_cols, sizeof(server_cols) / sizeof(server_cols[0]));
	drafted_rows(t, f->positions, f->npositions, max, true);
}

/* -- the console ----------------------------------------------------------- */

/* `Acceptance by position (k=4, 11 steps):  1: 82%  ...` after prefix, newline. */
static void pos_line(struct ss_buf *out, const struct ss_pos_result *p, const char *prefix)
{
	ss_buf_addf(out, "%sAcceptance by position (k=%u, ", prefix, p->k);
	ss_buf_add_u64_grouped(out, (uint64_t)p->steps);
	ss_buf_adds(out, p->steps == 1 ? " step):" : " steps):");
	for (uint32_t i = 0; i < p->k; i++) {
		ss_buf_addf(out, "  %u: ", i + 1);
		ss_buf_add_fixed0(out, p->pos[i].rate * 100.0);
		ss_buf_addc(out, '%');
	}
	ss_buf_addc(out, '\n');
}

/* `If the draft were shorter (k=4):  k=1: 1.82 ... tokens/step` (+ speedups). */
static void whatif_line(struct ss_buf *out, const struct ss_pos_result *p, const char *prefix)
{
	ss_buf_addf(out, "%sIf the draft were shorter (k=%u):", prefix, p->k);
	for (uint32_t i = 0; i < p->k; i++) {
		ss_buf_addf(out, "  k=%u: ", i + 1);
		ss_buf_add_fixed2_grouped(out, p->what_if[i].acceptance_length);
	}
	ss_buf_adds(out, " tokens/step");
	if (p->has_cost) {
		ss_buf_adds(out, "  speedup");
		for (uint32_t i = 0; i < p->k; i++) {
			ss_buf_addf(out, " k=%u: ", i + 1);
			ss_buf_add_fixed2_grouped(out, p->what_if[i].speedup);
			ss_buf_addc(out, 'x');
			if (i + 1 < p->k)
				ss_buf_addc(out, ' ');
		}
		if (p->suggested_k)
			ss_buf_addf(out, "  suggested k=%u", p->suggested_k);
		else
			ss_buf_adds(out, "  no draft length pays at this cost");
	}
	ss_buf_addc(out, '\n');
}

/* `Acceptance by position, per drafted token (6 requests, 212 steps):  1: 81% of 212 ...` */
static void drafted_line(struct ss_buf *out, const struct ss_drafted_result *d,
			 const char *prefix)
{
	ss_buf_addf(out, "%sAcceptance by position, per drafted token (", prefix);
	ss_buf_add_u64_grouped(out, d->requests);
	ss_buf_adds(out, d->requests == 1 ? " request, " : " requests, ");
	ss_buf_add_u128_grouped(out, d->steps);
	ss_buf_adds(out, d->steps == 1 ? " step):" : " steps):");
	for (size_t i = 0; i < d->n; i++) {
		ss_buf_addf(out, "  %zu: ", i + 1);
		ss_buf_add_fixed0(out, d->rows[i].rate * 100.0);
		ss_buf_adds(out, "% of ");
		ss_buf_add_u128_grouped(out, d->rows[i].drafted);
	}
	if (d->n == 0)
		ss_buf_adds(out, "  no step drafted a token");
	ss_buf_addc(out, '\n');
	if (d->n)
		ss_buf_addf(out, "%s(i: P%% of N: of the N steps that drafted an i-th token, "
				 "P%% had it accepted)\n", prefix);
}

void ss_sec_positions_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_set_analysis *s = &c->an->main;

	for (size_t i = 0; i < s->npos; i++) {
		pos_line(out, &s->pos[i], "  ");
		whatif_line(out, &s->pos[i], "  ");
	}
	if (s->npos)
		ss_buf_adds(out, "  (exact for chain drafters: draft model, EAGLE/MTP chains, "
				 "n-gram; an estimate for tree drafting)\n");
	if (s->drafted.present)
		drafted_line(out, &s->drafted, "  ");
}

/* -- Markdown -------------------------------------------------------------- */

static void md_k(struct ss_buf *out, const struct ss_pos_result *p)
{
	struct ss_tab_col cols[SS_POSTAB_WHATIF_NCOLS];
	struct ss_tab t;

	ss_buf_addf(out, "\n### Acceptance by position (k=%u, ", p->k);
	ss_buf_add_u64_grouped(out, (uint64_t)p->steps);
	ss_buf_adds(out, p->steps == 1 ? " step)\n\n" : " steps)\n\n");
	ss_postab_pos_init(&t);
	ss_postab_pos_rows(&t, p, ALL_ROWS);
	ss_tab_md(out, &t);
	ss_tab_release(&t);

	ss_buf_addf(out, "\n### If the draft were shorter (k=%u)\n\n", p->k);
	ss_postab_whatif_init(&t, cols, p->has_cost);
	ss_postab_whatif_rows(&t, p, ALL_ROWS, p->has_cost);
	ss_tab_md(out, &t);
	ss_tab_release(&t);
	if (p->has_cost) {
		ss_buf_adds(out, "\nDraft cost ");
		ss_buf_add_double(out, p->draft_cost);
		if (p->suggested_k)
			ss_buf_addf(out, ": suggested k=%u.\n", p->suggested_k);
		else
			ss_buf_adds(out, ": no draft length pays at this cost.\n");
	}
}

void ss_sec_positions_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_set_analysis *s = &c->an->main;
	const struct ss_drafted_result *d = &s->drafted;
	struct ss_tab t;

	for (size_t i = 0; i < s->npos; i++)
		md_k(out, &s->pos[i]);
	if (s->npos)
		ss_buf_adds(out, "\nThe shorter-draft figures are exact for chain drafters "
				 "(draft model, EAGLE/MTP chains, n-gram) and an estimate "
				 "for tree drafting.\n");
	if (!d->present)
		return;
	ss_buf_adds(out, "\n### Acceptance by position, per drafted token (");
	ss_buf_add_u64_grouped(out, d->requests);
	ss_buf_adds(out, d->requests == 1 ? " request, " : " requests, ");
	ss_buf_add_u128_grouped(out, d->steps);
	ss_buf_adds(out, d->steps == 1 ? " step)\n\n" : " steps)\n\n");
	ss_postab_drafted(&t, d, SIZE_MAX);
	if (ss_tab_rows(&t))
		ss_tab_md(out, &t);
	else
		ss_buf_adds(out, "No step drafted a token.\n");
	ss_tab_release(&t);
	ss_buf_adds(out, "\nA position counts only on the steps that drafted it (adaptive draft "
			 "lengths); Rate is accepted / drafted.\n");
}

/* -- CSV ------------------------------------------------------------------- */

void ss_sec_positions_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_set_analysis *s = &c->an->main;
	struct ss_tab_col cols[SS_POSTAB_WHATIF_NCOLS];
	struct ss_tab t;

	if (s->npos) {
		ss_postab_pos_init(&t);
		for (size_t i = 0; i < s->npos; i++)
			ss_postab_pos_rows(&t, &s->pos[i], ALL_ROWS);
		ss_tab_csv(out, &t, true);
		ss_tab_release(&t);
		ss_postab_whatif_init(&t, cols, false);
		for (size_t i = 0; i < s->npos; i++)
			ss_postab_whatif_rows(&t, &s->pos[i], ALL_ROWS, c->an->opts->has_cost);
		ss_tab_csv(out, &t, true);
		ss_tab_release(&t);
	}
	if (s->drafted.present) {
		ss_postab_drafted(&t, &s->drafted, SIZE_MAX);
		ss_tab_csv(out, &t, true);
		ss_tab_release(&t);
	}
}

/* -- a server family's rows (SPEC 10.4) ------------------------------------- */

void ss_sec_positions_server_json(struct ss_jsonw *w, const struct ss_server_family *f)
{
	json_rows(w, f->positions, f->npositions, true);
}

void ss_sec_positions_server_whatif_json(struct ss_jsonw *w, const struct ss_server_family *f)
{
	json_whatif(w, f->what_if, f->npositions, f->has_cost, true);
}

void ss_sec_positions_server_md(struct ss_buf *out, const struct ss_server_family *f)
{
	struct ss_tab t;

	ss_postab_server(&t, f, SIZE_MAX);
	ss_buf_addc(out, '\n');
	ss_tab_md(out, &t);
	ss_tab_release(&t);
}

void ss_sec_positions_server_whatif_md(struct ss_buf *out, const struct ss_server_family *f)
{
	/* the family's shorter drafts seen as a draft length's (k = its positions) */
	const struct ss_pos_result view = {
		.k = (uint32_t)f->npositions, .what_if = f->what_if, .has_cost = f->has_cost,
		.draft_cost = f->draft_cost, .suggested_k = f->suggested_k,
	};
	struct ss_tab_col cols[SS_POSTAB_WHATIF_NCOLS];
	struct ss_tab t;

	ss_postab_whatif_init(&t, cols, f->has_cost);
	ss_postab_whatif_rows(&t, &view, ALL_ROWS, f->has_cost);
	ss_buf_addc(out, '\n');
	ss_tab_md(out, &t);
	ss_tab_release(&t);
}
