/*
 * sec_windows.c - SPEC 7.8's windows in every report: the `windows`
 * member of `analysis`, the console's line, and one table of the windows
 * drawn as the Markdown table, the CSV section and the HTML table under
 * the line chart of acceptance length over time.
 *
 * The chart has a time axis from the first request's time t0; a caller
 * with another series over time (the server's intervals of SPEC 10.3)
 * passes it as a struct ss_html_time_series (html_int.h) and it is drawn
 * on the same axis.
 */
#include "report/section.h"

#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/tabular.h"
#include "util/alloc.h"

#define WINDOW_COLS 8

static void opt_double(struct ss_jsonw *w, const char *key, bool has, double v)
{
	if (has)
		ss_jsonw_double(w, key, v);
	else
		ss_jsonw_null(w, key);
}

void ss_sec_windows_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	const struct ss_windows *ws = &c->an->windows;

	ss_jsonw_begin_object(w, "windows");
	ss_jsonw_i64(w, "duration_ns", ws->duration_ns);
	if (ws->timed)
		ss_jsonw_i64(w, "t0_ns", ws->t0_ns);
	else
		ss_jsonw_null(w, "t0_ns");
	ss_jsonw_u64(w, "untimed", ws->untimed);
	ss_jsonw_begin_object(w, "summary");
	if (ws->has_summary) {
		ss_jsonw_double(w, "min", ws->min);
		ss_jsonw_u64(w, "min_window", ws->min_window);
		ss_jsonw_double(w, "max", ws->max);
		ss_jsonw_double(w, "first", ws->first);
		ss_jsonw_double(w, "last", ws->last);
	}
	ss_jsonw_end_object(w);
	ss_jsonw_begin_array(w, "windows");
	for (size_t i = 0; ws->timed && i < ws->nwin; i++) {
		const struct ss_window *x = &ws->w[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "window", i);
		ss_jsonw_i64(w, "start_ns", ws->t0_ns + (int64_t)i * ws->duration_ns);
		ss_jsonw_u64(w, "requests", x->requests);
		ss_jsonw_i128(w, "steps", x->steps);
		ss_jsonw_i128(w, "accepted", x->accepted);
		ss_jsonw_i128(w, "drafted", x->drafted);
		opt_double(w, "acceptance_length", x->has_al, x->acceptance_length);
		opt_double(w, "draft_acceptance_rate", x->has_dar, x->draft_acceptance_rate);
		opt_double(w, "mean_acceptance_length", x->has_mean, x->mean_acceptance_length);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_jsonw_end_object(w);
}

static void window_duration(struct ss_buf *b, const struct ss_analysis_opts *o)
{
	int64_t scale = o->window_unit == 'h' ? INT64_C(3600000000000)
			: o->window_unit == 'm' ? INT64_C(60000000000) : INT64_C(1000000000);

	ss_buf_add_u64_grouped(b, (uint64_t)(o->window_ns / scale));
	ss_buf_adds(b, o->window_unit == 'h' ? " h" : o->window_unit == 'm' ? " min" : " s");
}

static void windows_line(struct ss_buf *out, const struct ss_analysis *an, const char *prefix)
{
	const struct ss_windows *ws = &an->windows;

	ss_buf_adds(out, prefix);
	ss_buf_adds(out, "Acceptance length over time (");
	window_duration(out, an->opts);
	ss_buf_adds(out, " windows");
	if (ws->timed) {
		ss_buf_adds(out, ", ");
		ss_buf_add_u64_grouped(out, ws->nwin);
		ss_buf_adds(out, ws->nwin == 1 ? " window" : " windows");
	}
	ss_buf_adds(out, "):");
	if (ws->has_summary) {
		ss_buf_adds(out, " first ");
		ss_buf_add_fixed2_grouped(out, ws->first);
		ss_buf_adds(out, ", last ");
		ss_buf_add_fixed2_grouped(out, ws->last);
		ss_buf_adds(out, ", min ");
		ss_buf_add_fixed2_grouped(out, ws->min);
		ss_buf_adds(out, " (window ");
		ss_buf_add_u64_grouped(out, ws->min_window);
		ss_buf_adds(out, "), max ");
		ss_buf_add_fixed2_grouped(out, ws->max);
	} else {
		ss_buf_adds(out, " no request with stats has a time (metadata.request_end_ns "
				 "or request_start_ns)");
	}
	if (ws->untimed && ws->has_summary) {
		ss_buf_adds(out, "; ");
		ss_buf_add_u64_grouped(out, ws->untimed);
		ss_buf_adds(out, ws->untimed == 1 ? " request untimed" : " requests untimed");
	}
	ss_buf_addc(out, '\n');
}

/*
 * The windows as a table: the start in ns from the epoch in CSV, in
 * seconds from the first window in Markdown, in the chart's axis unit in
 * HTML; an empty window's ratios left empty.
 */
static void windows_table(struct ss_tab *t, struct ss_tab_col *cols, const struct ss_windows *ws,
			  double unit, const char *html_start)
{
	static const struct ss_tab_col tmpl[] = {
		{"Window", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"Start (ns)", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
		{"Start (s)", SS_COL_FIX2, false, SS_TAB_TEXT, NULL, NULL, false},
		{"Start", SS_COL_FIX2, false, SS_TAB_HTML, NULL, NULL, false},
		{"Requests", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"Steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"Acceptance Length", SS_COL_FIX2, false, 0, NULL, "Acceptance<br>length", false},
		{"Draft Acceptance Rate (%)", SS_COL_FIX2, false, 0, NULL,
		 "Draft acceptance<br>rate (%)", false},
	};

	memcpy(cols, tmpl, sizeof(tmpl));
	cols[3].html_head = html_start;
	ss_tab_init(t, cols, WINDOW_COLS);
	for (size_t i = 0; i < ws->nwin; i++) {
		const struct ss_window *x = &ws->w[i];

		ss_tab_int(t, (__int128)i);
		ss_tab_int(t, (__int128)ws->t0_ns + (__int128)i * ws->duration_ns);
		ss_tab_num(t, (double)i * (double)ws->duration_ns / 1e9);
		ss_tab_num(t, (double)i * (double)ws->duration_ns / unit);
		ss_tab_int(t, (__int128)x->requests);
		ss_tab_int(t, x->steps);
		if (x->has_al)
			ss_tab_num(t, x->acceptance_length);
		else
			ss_tab_empty(t);
		if (x->has_dar)
			ss_tab_num(t, x->draft_acceptance_rate);
		else
			ss_tab_empty(t);
	}
}

void ss_sec_windows_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_windows *ws = &c->an->windows;
	struct ss_tab_col cols[WINDOW_COLS];
	struct ss_tab t;

	if (!ws->timed || ws->nwin == 0)
		return;
	windows_table(&t, cols, ws, 1e9, NULL);
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

void ss_sec_windows_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	windows_line(out, c->an, "  ");
}

/* The Markdown table: one row per window, times in seconds from the first. */
void ss_sec_windows_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_windows *ws = &c->an->windows;
	struct ss_tab_col cols[WINDOW_COLS];
	struct ss_tab t;

	ss_buf_adds(out, "\n### Acceptance length over time\n\n");
	windows_line(out, c->an, "");
	if (!ws->timed)
		return;
	windows_table(&t, cols, ws, 1e9, NULL);
	ss_buf_addc(out, '\n');
	ss_tab_md(out, &t);
	ss_tab_release(&t);
}

/* The axis unit: seconds, minutes or hours, after the window's length. */
static double axis_unit(int64_t d_ns, const char **label, const char **abbr)
{
	if (d_ns >= INT64_C(3600000000000)) {
		*label = "Time since the first request (h)";
		*abbr = "h";
		return 3600e9;
	}
	if (d_ns >= INT64_C(60000000000)) {
		*label = "Time since the first request (min)";
		*abbr = "min";
		return 60e9;
	}
	*label = "Time since the first request (s)";
	*abbr = "s";
	return 1e9;
}

/* The chart's numbers: a table, folded away beyond 60 windows. */
static void html_numbers(struct ss_buf *b, const struct ss_windows *ws, double unit,
			 const char *abbr)
{
	struct ss_tab_col cols[WINDOW_COLS];
	struct ss_buf head = SS_BUF_INIT;
	struct ss_tab t;

	if (ws->nwin > 60) {
		ss_buf_adds(b, "<details><summary>All ");
		ss_buf_add_u64_grouped(b, ws->nwin);
		ss_buf_adds(b, " windows</summary>\n");
	}
	ss_buf_adds(&head, "Start<br>(");
	ss_buf_adds(&head, abbr);
	ss_buf_adds(&head, ")");
	b->failed |= head.failed;
	windows_table(&t, cols, ws, unit, head.data ? head.data : "");
	ss_tab_html(b, &t, "Numbers of the chart");
	ss_tab_release(&t);
	ss_buf_release(&head);
	if (ws->nwin > 60)
		ss_buf_adds(b, "</details>\n");
}

/* The series of another source, in the axis unit from t0. */
static bool extra_series(struct ss_series *out, double **xs, const struct ss_html_time_series *t,
			 int64_t t0, double unit)
{
	*xs = ss_reallocarray(NULL, t->n ? t->n : 1, sizeof(**xs));
	if (!*xs)
		return false;
	for (size_t i = 0; i < t->n; i++)
		(*xs)[i] = ((double)t->t_ns[i] - (double)t0) / unit;
	out->name = t->name;
	out->x = *xs;
	out->y = t->v;
	out->n = t->n;
	return true;
}

static void windows_chart(struct ss_buf *b, const struct ss_analysis *an,
			  const struct ss_html_time_series *extra, size_t nextra)
{
	const struct ss_windows *ws = &an->windows;
	const char *xlabel, *abbr;
	double unit = axis_unit(ws->duration_ns, &xlabel, &abbr);
	double *x = ss_reallocarray(NULL, ws->nwin, sizeof(*x));
	double *y = ss_reallocarray(NULL, ws->nwin, sizeof(*y));
	struct ss_series *series = ss_calloc(1 + nextra, sizeof(*series));
	double **xs = ss_calloc(1 + nextra, sizeof(*xs));
	struct ss_buf desc = SS_BUF_INIT;
	size_t ns = 1;

	if (!x || !y || !series || !xs) {
		b->failed = true;
		goto out;
	}
	for (size_t i = 0; i < ws->nwin; i++) {
		x[i] = (double)i * (double)ws->duration_ns / unit;
		y[i] = ws->w[i].has_al ? ws->w[i].acceptance_length : NAN;
	}
	series[0] = (struct ss_series){"Requests", x, y, ws->nwin};
	for (size_t k = 0; k < nextra; k++)
		if (extra_series(&series[ns], &xs[ns], &extra[k], ws->t0_ns, unit))
			ns++;
	ss_buf_adds(&desc, "Line chart of the token-weighted acceptance length, in tokens per "
		    "verify step, of each time window of ");
	window_duration(&desc, an->opts);
	ss_buf_adds(&desc, " from the first request's time; an empty window leaves a gap.");
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_lines(b, &(struct ss_chart){
		.id = "c-windows", .title = "Acceptance length over time",
		.desc = desc.data ? desc.data : "", .x_label = xlabel,
		.y_label = "Acceptance length (tokens per step)", .width = 640, .height = 340,
		.value_decimals = 2}, &(struct ss_line_opts){false, NAN, NULL, 1.0}, series, ns);
	html_numbers(b, ws, unit, abbr);
	ss_buf_adds(b, "</div>\n");
	b->failed |= desc.failed;
out:
	for (size_t k = 0; xs && k < 1 + nextra; k++)
		ss_free(xs[k]);
	ss_free(xs);
	ss_free(series);
	ss_free(x);
	ss_free(y);
	ss_buf_release(&desc);
}

void ss_html_windows(struct ss_buf *b, const struct ss_analysis *an,
		     const struct ss_html_time_series *extra, size_t nextra)
{
	const struct ss_windows *ws = &an->windows;
	struct ss_buf line = SS_BUF_INIT;

	ss_buf_adds(b, "<section id=\"windows\">\n<h2>Acceptance length over time</h2>\n");
	windows_line(&line, an, "");
	ss_buf_adds(b, "<p>");
	ss_buf_add_html(b, line.data ? line.data : "", line.len ? line.len - 1 : 0);
	ss_buf_adds(b, ". A request's time is its <code>metadata.request_end_ns</code>, else its "
		    "<code>request_start_ns</code>; window w holds the requests with "
		    "&lfloor;(t &minus; t<sub>0</sub>) / D&rfloor; = w.</p>\n");
	b->failed |= line.failed;
	ss_buf_release(&line);
	if (!ws->timed) {
		ss_html_missing(b, "No request with stats has a time, so there is no window to draw.");
		ss_buf_adds(b, "</section>\n");
		return;
	}
	windows_chart(b, an, extra, nextra);
	ss_buf_adds(b, "</section>\n");
}

void ss_sec_windows_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	ss_html_windows(out, c->an, NULL, 0);
}
