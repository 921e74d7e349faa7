/*
 * sec_server_page.c - the page's part of the server section (SPEC 9.1,
 * 10.4; the other formats are sec_server.c's): per family its figures,
 * the reconciliation and the notes in sec_server.c's words, acceptance by
 * position as a chart with its table (the positions' writers,
 * sec_positions_page.c), and with intervals (three snapshots or more) the
 * acceptance length over the window; and the windows' chart (SPEC 7.8)
 * with each family's intervals on its time axis. Every table through the
 * table model (tabular.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/section.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/tabular.h"
#include "util/alloc.h"

/* Intervals drawn (the table lists them all up to this). */
#define MAX_ROWS 4096

/* The window's figures: a label and a value a row (a count, or a number
 * with two decimals). */
static const struct ss_tab_col figure_cols[] = {
	{"Figure", SS_COL_ROWHEAD, true, 0, NULL, NULL, false},
	{"Value", SS_COL_COUNT, false, 0, NULL, NULL, true},
};

static void figure(struct ss_tab *t, const char *label, bool count, __int128 n, double v)
{
	ss_tab_text(t, label);
	if (count)
		ss_tab_int(t, n);
	else
		ss_tab_num(t, v);
}

static void figures(struct ss_buf *b, const struct ss_server_family *f)
{
	struct ss_tab t;

	ss_tab_init(&t, figure_cols, 2);
	if (f->has_acceptance_length)
		figure(&t, "Acceptance length (tokens per step)", false, 0, f->acceptance_length);
	if (f->has_rate)
		figure(&t, "Draft acceptance rate (%)", false, 0, f->draft_acceptance_rate);
	figure(&t, "Verify steps", true, (__int128)f->steps, 0);
	if (f->has_draft_tokens)
		figure(&t, "Draft tokens", true, (__int128)f->draft_tokens, 0);
	figure(&t, f->estimated ? "Accepted draft tokens (estimated)" : "Accepted draft tokens", true,
	       f->accepted_tokens, 0);
	figure(&t, "Snapshots", true, (__int128)f->snapshots, 0);
	figure(&t, "Series", true, (__int128)f->series, 0);
	if (f->resets)
		figure(&t, "Counter resets", true, (__int128)f->resets, 0);
	if (f->has_start && f->has_end && f->end_ns >= f->start_ns)
		figure(&t, "Window (s)", false, 0, (double)(f->end_ns - f->start_ns) / 1e9);
	ss_tab_html_rows(b, &t, "The window's counts");
	ss_tab_release(&t);
}

/* The reconciliation line and the notes, as text escaped for HTML. */
static void words(struct ss_buf *b, const struct ss_server_family *f)
{
	struct ss_buf t = SS_BUF_INIT;
	size_t i = 0;

	if (f->has_reconciliation) {
		ss_sec_server_reconciliation_line(&t, f);
		ss_buf_adds(b, "<p>Against the requests: ");
		ss_buf_add_html(b, t.data ? t.data : "", t.len);
		ss_buf_adds(b, ".</p>\n");
		ss_buf_reset(&t);
	}
	ss_sec_server_notes(&t, f, "");
	if (t.len)
		ss_buf_adds(b, "<ul class=\"note\">\n");
	while (i < t.len) {
		const char *nl = memchr(t.data + i, '\n', t.len - i);
		size_t n = nl ? (size_t)(nl - (t.data + i)) : t.len - i;

		ss_buf_adds(b, "<li>");
		ss_buf_add_html(b, t.data + i, n);
		ss_buf_adds(b, "</li>\n");
		i += n + 1;
	}
	if (t.len)
		ss_buf_adds(b, "</ul>\n");
	b->failed |= t.failed;
	ss_buf_release(&t);
}

/* Whether every interval's end time is known (x is then seconds). */
static bool timed(const struct ss_server_family *f)
{
	for (size_t i = 0; i < f->nintervals; i++)
		if (!f->intervals[i].has_end || !f->intervals[0].has_start)
			return false;
	return true;
}

/* The intervals' table: its end (seconds, else its number), its counts. */
static const struct ss_tab_col interval_cols[] = {
	{"End (s)", SS_COL_FIX2, false, 0, NULL, NULL, true},
	{"Steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"Accepted", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"Acceptance Length", SS_COL_FIX2, false, 0, NULL, "Acceptance<br>length", true},
};

static void intervals_chart(struct ss_buf *b, const struct ss_server_family *f, size_t idx)
{
	size_t n = f->nintervals < MAX_ROWS ? f->nintervals : MAX_ROWS;
	double *x = ss_calloc(n, sizeof(double)), *y = ss_calloc(n, sizeof(double));
	bool secs = timed(f);
	struct ss_tab t;
	char id[32];

	if (!x || !y) {
		b->failed = true;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ss_server_interval *iv = &f->intervals[i];

		x[i] = secs ? (double)(iv->end_ns - f->intervals[0].start_ns) / 1e9 : (double)(i + 1);
		y[i] = iv->has_acceptance_length ? iv->acceptance_length : NAN;
	}
	snprintf(id, sizeof(id), "c-srv-iv-%zu", idx);
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_lines(b, &(struct ss_chart){
		.id = id, .title = "The server's acceptance length over the window",
		.desc = "Line chart of the acceptance length, in tokens per verify step, of each "
			"interval between two scrapes, at the interval's end.",
		.x_label = secs ? "Time since the first scrape (s)" : "Interval between scrapes",
		.y_label = "Acceptance length (tokens per step)", .width = 640, .height = 300,
		.value_decimals = 2},
		&(struct ss_line_opts){!secs, NAN, NULL, 1.0},
		(struct ss_series[]){{"Acceptance length", x, y, n}}, 1);
	ss_tab_init(&t, interval_cols, sizeof(interval_cols) / sizeof(interval_cols[0]));
	for (size_t i = 0; i < n; i++) {
		const struct ss_server_interval *iv = &f->intervals[i];

		if (secs) {
			ss_tab_num(&t, x[i]);
		} else {
			ss_buf_addf(ss_tab_begin(&t), "#%zu", i + 1);
			ss_tab_end(&t);
		}
		ss_tab_int(&t, (__int128)iv->steps);
		ss_tab_int(&t, iv->accepted_tokens);
		if (iv->has_acceptance_length)
			ss_tab_num(&t, iv->acceptance_length);
		else
			ss_tab_empty(&t);
	}
	ss_tab_html(b, &t, "Numbers of the chart");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n");
out:
	ss_free(x);
	ss_free(y);
}

void ss_sec_server_html(struct ss_buf *b, const struct ss_server_results *r)
{
	ss_buf_adds(b, "<section id=\"server\">\n<h2>The server's own counters</h2>\n<p>What the "
		    "server counted between its first and last scrape (");
	ss_html_add_count(b, (__int128)r->snapshots);
	ss_buf_adds(b, r->snapshots == 1 ? " snapshot" : " snapshots");
	if (r->bad_lines) {
		ss_buf_adds(b, ", ");
		ss_html_add_count(b, (__int128)r->bad_lines);
		ss_buf_adds(b, r->bad_lines == 1 ? " bad line" : " bad lines");
	}
	ss_buf_adds(b, "): acceptance of every request it served, whether or not the requests "
		    "carried statistics.</p>\n");
	if (r->nfamilies == 0)
		ss_html_missing(b, "No spec-decode counters of a known engine in the server inputs.");
	for (size_t i = 0; i < r->nfamilies; i++) {
		const struct ss_server_family *f = &r->families[i];

		if (f->log) {
			ss_sec_logs_html(b, f);
			continue;
		}
		ss_buf_adds(b, "<h3>");
		ss_buf_adds(b, ss_engine_name(f->row->engine));
		ss_buf_addf(b, " <span class=\"note\">(%s counters)</span></h3>\n", f->row->counters);
		ss_buf_adds(b, "<div class=\"fig\">\n");
		figures(b, f);
		ss_buf_adds(b, "</div>\n");
		words(b, f);
		if (f->npositions && f->has_acceptance_length)
			ss_sec_positions_server_html(b, f, i);
		if (f->nintervals)
			intervals_chart(b, f, i);
	}
	ss_buf_adds(b, "</section>\n");
}

/*
 * SPEC 7.8 with 10.3: the windows' chart with each server family's
 * intervals on the same time axis, each interval at its start (a window is
 * drawn at its start too). Families without timed intervals add nothing.
 */
void ss_sec_server_windows_html(struct ss_buf *b, const struct ss_analysis *an,
				const struct ss_server_results *r)
{
	static const char *const names[SS_ENGINE_COUNT] = {
		[SS_ENGINE_VLLM] = "Server counters (vllm)",
		[SS_ENGINE_TRTLLM] = "Server counters (tensorrt_llm)",
		[SS_ENGINE_LLAMACPP] = "Server counters (llamacpp)",
		[SS_ENGINE_SGLANG] = "Server counters (sglang)",
	};
	struct ss_html_time_series *series;
	int64_t *t;
	double *v;
	size_t total = 0, ns = 0, at = 0;

	for (size_t i = 0; i < r->nfamilies; i++)
		total += r->families[i].nintervals;
	series = ss_calloc(r->nfamilies ? r->nfamilies : 1, sizeof(*series));
	t = ss_reallocarray(NULL, total ? total : 1, sizeof(*t));
	v = ss_reallocarray(NULL, total ? total : 1, sizeof(*v));
	if (!series || !t || !v) {
		b->failed = true;
		goto out;
	}
	for (size_t i = 0; i < r->nfamilies; i++) {
		const struct ss_server_family *f = &r->families[i];
		size_t first = at;

		for (size_t j = 0; j < f->nintervals; j++) {
			const struct ss_server_interval *iv = &f->intervals[j];

			if (!iv->has_start)
				continue;
			t[at] = iv->start_ns;
			v[at] = iv->has_acceptance_length ? iv->acceptance_length : NAN;
			at++;
		}
		if (at > first)
			series[ns++] = (struct ss_html_time_series){
				names[f->row->engine] ? names[f->row->engine] : "Server counters",
				t + first, v + first, at - first};
	}
	ss_html_windows(b, an, series, ns);
out:
	ss_free(series);
	ss_free(t);
	ss_free(v);
}
