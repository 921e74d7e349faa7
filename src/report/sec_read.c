/*
 * sec_read.c - what was read and the request accounting (SPEC 4.1, 4.3)
 * in every report: the `specscan` member of the aggregate JSON (the
 * inputs, the accounting, the phases, the engines), the console's and the
 * Markdown's accounting line, and the page's "What was read" section (the
 * inputs, the first MAX_INPUT_ROWS by name, and the requests by status as
 * tables, the phases, the engines and the versions). The CSV has none.
 */
#include <stdint.h>

#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/tabular.h"

/* Inputs listed by name on the page; the rest are summed in one row. */
#define MAX_INPUT_ROWS 50

/* -- JSON ------------------------------------------------------------------- */

void ss_report_add_accounting(struct ss_jsonw *w, const char *key, uint64_t total,
			      const uint64_t status[SS_ST_COUNT])
{
	ss_jsonw_begin_object(w, key);
	ss_jsonw_u64(w, "total", total);
	for (int s = 0; s < SS_ST_COUNT; s++)
		ss_jsonw_u64(w, ss_status_name((enum ss_status)s), status[s]);
	ss_jsonw_end_object(w);
}

void ss_sec_read_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;

	ss_jsonw_begin_object(w, "specscan");
	ss_jsonw_str(w, "version", c->version);
	ss_jsonw_begin_array(w, "inputs");
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_str(w, "name", in->name);
		ss_jsonw_str(w, "kind", ss_input_kind_name(in));
		ss_jsonw_u64(w, "requests", in->requests);
		if (in->server)
			ss_jsonw_u64(w, "snapshots", in->snapshots);
		if (in->log) {   /* SPEC 12.1, 13 */
			ss_jsonw_u64(w, "log_lines", in->log_lines);
			ss_jsonw_u64(w, "bad_lines", in->bad_lines);
			ss_jsonw_u64(w, "refused_lines", in->refused_lines);
		}
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_report_add_accounting(w, "requests", a->total, a->status);
	ss_jsonw_begin_object(w, "phases");
	ss_jsonw_u64(w, "profiling", a->phases[SS_PHASE_PROFILING]);
	ss_jsonw_u64(w, "warmup", a->phases[SS_PHASE_WARMUP]);
	ss_jsonw_end_object(w);
	/* ss_agg_finish() sorted them by name */
	ss_jsonw_begin_object(w, "engines");
	for (size_t i = 0; i < a->nengines; i++)
		ss_jsonw_u64(w, a->engines[i].name, a->engines[i].count);
	ss_jsonw_end_object(w);
	ss_jsonw_end_object(w);
}

/* -- the accounting line ------------------------------------------------------ */

/* `12 requests: 10 ok, 2 ...` after prefix. */
static void accounting_line(struct ss_buf *out, const struct ss_agg *a, const char *prefix)
{
	bool first = true;

	ss_buf_adds(out, prefix);
	ss_buf_add_u64_grouped(out, a->total);
	ss_buf_adds(out, a->total == 1 ? " request" : " requests");
	for (int s = 0; s < SS_ST_COUNT; s++) {
		if (!a->status[s])
			continue;
		ss_buf_adds(out, first ? ": " : ", ");
		first = false;
		ss_buf_add_u64_grouped(out, a->status[s]);
		ss_buf_addc(out, ' ');
		ss_buf_adds(out, ss_status_label((enum ss_status)s));
	}
	ss_buf_addc(out, '\n');
}

void ss_sec_read_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	accounting_line(out, c->a, "  ");
}

void ss_sec_read_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	ss_buf_addc(out, '\n');
	accounting_line(out, c->a, "");
}

/* -- HTML ------------------------------------------------------------------- */

static const struct ss_tab_col input_cols[] = {
	{"#", SS_COL_INT, false, SS_TAB_HTML, NULL, NULL, false},
	{"Input", SS_COL_NAME, true, SS_TAB_HTML, NULL, NULL, false},
	{"Kind", SS_COL_TEXT, true, SS_TAB_HTML, NULL, NULL, false},
	{"Requests", SS_COL_COUNT, false, SS_TAB_HTML, NULL, NULL, false},
};

static void inputs_table(struct ss_buf *out, const struct ss_agg *a)
{
	uint64_t rest_inputs = 0, rest_requests = 0;
	struct ss_buf cell = SS_BUF_INIT;
	struct ss_tab t;

	ss_tab_init(&t, input_cols, sizeof(input_cols) / sizeof(input_cols[0]));
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];
		struct ss_buf *b;

		if (i >= MAX_INPUT_ROWS) {
			rest_inputs++;
			rest_requests += in->requests;
			continue;
		}
		ss_tab_int(&t, (__int128)(i + 1));
		if (in->failed) {
			ss_buf_reset(&cell);
			ss_buf_add_htmls(&cell, in->name);
			ss_buf_adds(&cell, " <strong>(read failed)</strong>");
			ss_tab_markup(&t, cell.data, in->name);
		} else {
			ss_tab_text(&t, in->name);
		}
		b = ss_tab_begin(&t);
		ss_buf_adds(b, ss_input_kind_name(in));
		if (in->server) {   /* SPEC 10.1: its snapshots */
			ss_buf_adds(b, " (");
			ss_buf_add_u64_grouped(b, in->snapshots);
			ss_buf_adds(b, in->snapshots == 1 ? " snapshot)" : " snapshots)");
		}
		ss_tab_end(&t);
		ss_tab_int(&t, (__int128)in->requests);
	}
	if (rest_inputs) {
		ss_buf_reset(&cell);
		ss_buf_adds(&cell, "&hellip; and ");
		ss_buf_add_u64_grouped(&cell, rest_inputs);
		ss_buf_adds(&cell, " more inputs");
		ss_tab_empty(&t);
		ss_tab_markup(&t, cell.data, NULL);
		ss_tab_empty(&t);
		ss_tab_int(&t, (__int128)rest_requests);
	}
	if (a->ninputs == 0) {
		ss_tab_empty(&t);
		ss_tab_text(&t, "(no input)");
		ss_tab_empty(&t);
		ss_tab_int(&t, 0);
	}
	out->failed |= cell.failed;
	ss_tab_html(out, &t, "Inputs");
	ss_tab_release(&t);
	ss_buf_release(&cell);
}

static const struct ss_tab_col status_cols[] = {
	{"Status", SS_COL_TEXT, false, SS_TAB_HTML, NULL, NULL, false},
	{"Requests", SS_COL_COUNT, false, SS_TAB_HTML, NULL, NULL, false},
	{"Share (%)", SS_COL_TEXT, false, SS_TAB_HTML, NULL, NULL, false},
};

/* Every status that occurred, then the total. */
static void status_table(struct ss_buf *out, const struct ss_agg *a)
{
	struct ss_buf cell = SS_BUF_INIT;
	struct ss_tab t;

	ss_tab_init(&t, status_cols, sizeof(status_cols) / sizeof(status_cols[0]));
	for (int s = 0; s < SS_ST_COUNT; s++) {
		if (!a->status[s])
			continue;
		ss_buf_reset(&cell);
		ss_buf_adds(&cell, ss_status_label((enum ss_status)s));
		ss_buf_adds(&cell, " <code>");
		ss_buf_adds(&cell, ss_status_name((enum ss_status)s));
		ss_buf_adds(&cell, "</code>");
		ss_tab_markup(&t, cell.data, ss_status_label((enum ss_status)s));
		ss_tab_int(&t, (__int128)a->status[s]);
		ss_buf_reset(&cell);
		ss_html_add_pct(&cell, (double)a->status[s], (double)a->total);
		ss_tab_markup(&t, cell.data, NULL);
	}
	ss_tab_row_class(&t, "total");
	ss_tab_text(&t, "total");
	ss_tab_int(&t, (__int128)a->total);
	ss_tab_text(&t, a->total ? "100.0" : "0.0");
	out->failed |= cell.failed;
	ss_tab_html(out, &t, "Requests by status");
	ss_tab_release(&t);
	ss_buf_release(&cell);
}

void ss_sec_read_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_html_opts *o = c->ho;

	ss_buf_adds(out, "<section id=\"read\">\n<h2>What was read</h2>\n<div class=\"fig\">\n");
	inputs_table(out, a);
	status_table(out, a);
	ss_buf_adds(out, "</div>\n<p>Phases: ");
	ss_buf_add_u64_grouped(out, a->phases[SS_PHASE_PROFILING]);
	ss_buf_adds(out, " profiling, ");
	ss_buf_add_u64_grouped(out, a->phases[SS_PHASE_WARMUP]);
	ss_buf_adds(out, " warmup. The results below are of the ");
	ss_buf_adds(out, a->mode == SS_PHASES_WARMUP ? "warmup requests (<code>--phase warmup</code>)" :
			 a->mode == SS_PHASES_ALL ? "requests of both phases (<code>--phase all</code>)" :
			 "profiling requests");
	ss_buf_adds(out, ".");
	if (a->nengines) {
		ss_buf_adds(out, " Engines of the records: ");
		for (size_t i = 0; i < a->nengines; i++) {
			if (i)
				ss_buf_adds(out, ", ");
			ss_buf_add_htmls(out, a->engines[i].name);
			ss_buf_adds(out, " (");
			ss_buf_add_u64_grouped(out, a->engines[i].count);
			ss_buf_adds(out, ")");
		}
		ss_buf_adds(out, ".");
	}
	ss_buf_adds(out, "</p>\n<p class=\"note\">Versions: specscan ");
	ss_buf_add_htmls(out, o->version);
	if (o->libraries) {
		ss_buf_adds(out, "; ");
		ss_buf_add_htmls(out, o->libraries);
	}
	ss_buf_adds(out, ".</p>\n</section>\n");
}
