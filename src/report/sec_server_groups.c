/*
 * sec_server_groups.c - the server's results per directory (SPEC 10.7,
 * `--group-by dir` alone): `server.groups` in the JSON, the `Server Spec
 * Decode by dir` table on the console and in Markdown, the CSV section
 * `dir,Engine,Metric,Value` and the page's chart of acceptance length per
 * group. With --compare, each family of a row that the baseline row also
 * has (the same engine and counters) gets its differences; counters are
 * not resampled, so there is no interval.
 *
 * Every table is built with the table model (tabular.h); the directory
 * names come from inputs and are escaped by its renderers, the JSON
 * writer and the chart.
 */
#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/numfmt.h"
#include "report/section.h"
#include "report/tabular.h"
#include "server/bydir.h"

/* The baseline's family of f's engine and counters, or NULL. */
static const struct ss_server_family *partner(const struct ss_server_groups *g, size_t row,
					      const struct ss_server_family *f)
{
	const struct ss_server_results *b;

	if (!g->has_baseline || row == g->baseline)
		return NULL;
	b = &g->rows[g->baseline].res;
	for (size_t i = 0; i < b->nfamilies; i++)
		if (b->families[i].row == f->row)
			return &b->families[i];
	return NULL;
}

/* ---- JSON ---- */

static void json_key(struct ss_jsonw *w, const char *name, const struct ss_server_group *r)
{
	ss_jsonw_begin_object(w, name);
	ss_jsonw_strn(w, "dir", r->dir, r->len);
	ss_jsonw_end_object(w);
}

static void json_vs(struct ss_jsonw *w, const struct ss_server_groups *g, size_t row)
{
	const struct ss_server_results *r = &g->rows[row].res;

	ss_jsonw_begin_array(w, "vs_baseline");
	for (size_t i = 0; i < r->nfamilies; i++) {
		const struct ss_server_family *f = &r->families[i], *b = partner(g, row, f);

		if (!b)
			continue;
		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_str(w, "engine", ss_engine_name(f->row->engine));
		ss_jsonw_str(w, "counters", f->row->counters);
		ss_jsonw_begin_object(w, "acceptance_length");
		if (f->has_acceptance_length && b->has_acceptance_length)
			ss_jsonw_double(w, "delta", f->acceptance_length - b->acceptance_length);
		ss_jsonw_end_object(w);
		ss_jsonw_begin_object(w, "draft_acceptance_rate");
		if (f->has_rate && b->has_rate)
			ss_jsonw_double(w, "delta", f->draft_acceptance_rate - b->draft_acceptance_rate);
		ss_jsonw_end_object(w);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

void ss_sec_server_groups_json(struct ss_jsonw *w, const struct ss_server_results *srv)
{
	const struct ss_server_groups *g = srv->groups;

	if (!g)
		return;
	ss_jsonw_begin_object(w, "groups");
	ss_jsonw_begin_array(w, "by");
	ss_jsonw_str(w, NULL, "dir");
	ss_jsonw_end_array(w);
	if (g->has_baseline)
		json_key(w, "baseline", &g->rows[g->baseline]);
	ss_jsonw_begin_array(w, "rows");
	for (size_t i = 0; i < g->n; i++) {
		const struct ss_server_results *r = &g->rows[i].res;

		ss_jsonw_begin_object(w, NULL);
		json_key(w, "key", &g->rows[i]);
		ss_jsonw_begin_array(w, "families");
		for (size_t k = 0; k < r->nfamilies; k++)
			ss_sec_server_family_json(w, &r->families[k]);
		ss_jsonw_end_array(w);
		if (g->has_baseline && i != g->baseline)
			json_vs(w, g, i);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_jsonw_end_object(w);
}

/* ---- the table: console and Markdown ---- */

static const struct ss_tab_col cols[] = {
	{"dir", SS_COL_NAME, true, 0, NULL, NULL, false},
	{"engine", SS_COL_TEXT, true, 0, NULL, NULL, false},
	{"snapshots", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"acceptance length", SS_COL_FIX2, false, 0, NULL, NULL, false},
	{"draft acceptance rate (%)", SS_COL_FIX2, false, 0, NULL, NULL, false},
	{"Δ AL", SS_COL_TEXT, false, 0, NULL, "&Delta; AL", false},
	{"Δ DAR (pp)", SS_COL_TEXT, false, 0, NULL, "&Delta; DAR (pp)", false},
};
/* The same heads in ASCII for a terminal that is not UTF-8. */
static const struct ss_tab_col cols_ascii[] = {
	{"dir", SS_COL_NAME, true, 0, NULL, NULL, false},
	{"engine", SS_COL_TEXT, true, 0, NULL, NULL, false},
	{"snapshots", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"acceptance length", SS_COL_FIX2, false, 0, NULL, NULL, false},
	{"draft acceptance rate (%)", SS_COL_FIX2, false, 0, NULL, NULL, false},
	{"d AL", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"d DAR (pp)", SS_COL_TEXT, false, 0, NULL, NULL, false},
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static void delta_cell(struct ss_tab *t, bool has, double d)
{
	struct ss_buf *b;

	if (!has) {
		ss_tab_na(t);
		return;
	}
	b = ss_tab_begin(t);
	if (d >= 0)
		ss_buf_addc(b, '+');
	ss_buf_add_fixed2_grouped(b, d);
	ss_tab_end(t);
}

static void name_cell(struct ss_tab *t, const struct ss_server_group *r)
{
	struct ss_buf *b = ss_tab_begin(t);

	ss_buf_add(b, r->dir, r->len);
	ss_tab_end(t);
}

/* One row per directory and family (a directory with none: one row of N/A). */
static void build(struct ss_tab *t, const struct ss_server_groups *g, bool ascii)
{
	size_t ncols = g->has_baseline ? NCOLS : NCOLS - 2;

	ss_tab_init(t, ascii ? cols_ascii : cols, ncols);
	for (size_t i = 0; i < g->n; i++) {
		const struct ss_server_results *r = &g->rows[i].res;

		for (size_t k = 0; k < (r->nfamilies ? r->nfamilies : 1); k++) {
			const struct ss_server_family *f = r->nfamilies ? &r->families[k] : NULL;
			const struct ss_server_family *b = f ? partner(g, i, f) : NULL;

			name_cell(t, &g->rows[i]);
			if (!f) {
				ss_tab_text(t, "no counters");
				ss_tab_int(t, (__int128)r->snapshots);
				for (size_t c = 3; c < ncols; c++)
					ss_tab_na(t);
				continue;
			}
			ss_sec_server_engine(ss_tab_begin(t), f);
			ss_tab_end(t);
			ss_tab_int(t, (__int128)f->snapshots);
			ss_tab_int(t, (__int128)f->steps);
			if (f->has_acceptance_length)
				ss_tab_num(t, f->acceptance_length);
			else
				ss_tab_na(t);
			if (f->has_rate)
				ss_tab_num(t, f->draft_acceptance_rate);
			else
				ss_tab_na(t);
			if (!g->has_baseline)
				continue;
			if (i == g->baseline) {
				ss_tab_text(t, "baseline");
				ss_tab_empty(t);
				continue;
			}
			delta_cell(t, b && b->has_acceptance_length && f->has_acceptance_length,
				   b ? f->acceptance_length - b->acceptance_length : 0);
			delta_cell(t, b && b->has_rate && f->has_rate,
				   b ? f->draft_acceptance_rate - b->draft_acceptance_rate : 0);
		}
	}
}

void ss_sec_server_groups_text(struct ss_buf *out, const struct ss_server_results *srv,
			       bool utf8, bool color)
{
	struct ss_tab t;

	if (!srv->groups)
		return;
	build(&t, srv->groups, !utf8);
	ss_buf_addc(out, '\n');
	ss_tab_box(out, &t, "Server Spec Decode by dir", utf8, color);
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}

void ss_sec_server_groups_md(struct ss_buf *out, const struct ss_server_results *srv)
{
	struct ss_tab t;

	if (!srv->groups)
		return;
	build(&t, srv->groups, false);
	ss_buf_adds(out, "\n## Server Spec Decode by dir\n\n");
	ss_tab_md(out, &t);
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}

/* ---- CSV: dir,Engine,Metric,Value ---- */

static const struct ss_tab_col csv_cols[] = {
	{"dir", SS_COL_NAME, true, SS_TAB_CSV, NULL, NULL, false},
	{"Engine", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Metric", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Value", SS_COL_FIX2, false, SS_TAB_CSV, NULL, NULL, false},
};

/* Each directory's families, a family's rows as the server section's CSV
 * writes them (sec_server.c), with its differences from the baseline's. */
void ss_sec_server_groups_csv(struct ss_buf *out, const struct ss_server_results *srv)
{
	const struct ss_server_groups *g = srv->groups;
	struct ss_tab t;

	if (!g)
		return;
	ss_tab_init(&t, csv_cols, sizeof(csv_cols) / sizeof(csv_cols[0]));
	for (size_t i = 0; i < g->n; i++) {
		const struct ss_server_results *r = &g->rows[i].res;

		for (size_t k = 0; k < r->nfamilies; k++)
			ss_sec_server_csv_rows(&t, &r->families[k], partner(g, i, &r->families[k]),
					       g->rows[i].dir, g->rows[i].len);
	}
	ss_tab_csv(out, &t, true);
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}

/* ---- HTML: the table and acceptance length per group as a chart ---- */

void ss_sec_server_groups_html(struct ss_buf *out, const struct ss_server_results *srv)
{
	const struct ss_server_groups *g = srv->groups;
	struct ss_bar bars[64];
	struct ss_buf labels = SS_BUF_INIT;
	size_t nb = 0, offs[64];
	struct ss_tab t;

	if (!g)
		return;
	ss_buf_adds(out, "<section id=\"server-groups\">\n<h2>Server Spec Decode by dir</h2>\n"
		    "<p>Each directory's own window, computed from its snapshots alone.</p>\n");
	/* the chart: the first family of each group, at most 64 bars */
	for (size_t i = 0; i < g->n && nb < 64; i++) {
		const struct ss_server_results *r = &g->rows[i].res;

		offs[nb] = labels.len;
		ss_buf_add(&labels, g->rows[i].dir, g->rows[i].len);
		ss_buf_addc(&labels, '\0');
		bars[nb].value = r->nfamilies && r->families[0].has_acceptance_length
					 ? r->families[0].acceptance_length : NAN;
		bars[nb].has_interval = false;
		bars[nb].lo = bars[nb].hi = 0;
		nb++;
	}
	if (!labels.failed && nb) {
		for (size_t i = 0; i < nb; i++)
			bars[i].label = labels.data + offs[i];
		ss_buf_adds(out, "<div class=\"fig\">\n");
		ss_chart_bars(out, &(struct ss_chart){
			.id = "c-server-groups", .title = "Server acceptance length by dir",
			.desc = "Bar chart of the server's acceptance length in each directory's window",
			.x_label = "dir", .y_label = "Acceptance length (tokens per step)",
			.width = nb > 6 ? 1136 : 640, .height = 360, .value_decimals = 2,
			.show_values = true}, bars, nb);
		ss_buf_adds(out, "</div>\n");
	}
	out->failed |= labels.failed;
	ss_buf_release(&labels);
	build(&t, g, false);
	ss_tab_html(out, &t, "Server Spec Decode by dir");
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
	ss_buf_adds(out, "</section>\n");
}
