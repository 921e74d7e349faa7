/*
 * html_time.c - SPEC 7.8's windows (a line chart of acceptance length per
 * window, with its table) and 7.11's outliers (their tables) in the HTML
 * report.
 *
 * The windows chart has a time axis from the first request's time t0; a
 * caller with another series over time (the server's intervals of SPEC
 * 10.3) passes it as a struct ss_html_time_series and it is drawn on the
 * same axis.
 */
#include <math.h>
#include <string.h>

#include "report/analysis_more.h"
#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "util/alloc.h"

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

static void windows_table(struct ss_buf *b, const struct ss_windows *ws, double unit,
			  const char *abbr)
{
	if (ws->nwin > 60) {
		ss_buf_adds(b, "<details><summary>All ");
		ss_buf_add_u64_grouped(b, ws->nwin);
		ss_buf_adds(b, " windows</summary>\n");
	}
	ss_buf_adds(b, "<table>\n<caption>Numbers of the chart</caption>\n<thead><tr><th>Window</th>"
		    "<th>Start<br>(");
	ss_buf_adds(b, abbr);
	ss_buf_adds(b, ")</th><th>Requests</th><th>Steps</th><th>Acceptance<br>length</th>"
		    "<th>Draft acceptance<br>rate (%)</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < ws->nwin; i++) {
		const struct ss_window *w = &ws->w[i];

		ss_buf_adds(b, "<tr><td>");
		ss_buf_add_u64_grouped(b, i);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_fixed2_grouped(b, (double)i * (double)ws->duration_ns / unit);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_u64_grouped(b, w->requests);
		ss_buf_adds(b, "</td><td>");
		ss_html_add_count(b, w->steps);
		ss_buf_adds(b, "</td><td>");
		if (w->has_al)
			ss_buf_add_fixed2_grouped(b, w->acceptance_length);
		ss_buf_adds(b, "</td><td>");
		if (w->has_dar)
			ss_buf_add_fixed2_grouped(b, w->draft_acceptance_rate);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n");
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
	ss_report_window_duration(&desc, an->opts);
	ss_buf_adds(&desc, " from the first request's time; an empty window leaves a gap.");
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_lines(b, &(struct ss_chart){
		.id = "c-windows", .title = "Acceptance length over time",
		.desc = desc.data ? desc.data : "", .x_label = xlabel,
		.y_label = "Acceptance length (tokens per step)", .width = 640, .height = 340,
		.value_decimals = 2}, &(struct ss_line_opts){false, NAN, NULL, 1.0}, series, ns);
	windows_table(b, ws, unit, abbr);
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
	ss_report_windows_line(&line, an, "");
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

static void outlier_table(struct ss_buf *b, const char *caption, const struct ss_outlier *v,
			  size_t n)
{
	ss_buf_adds(b, "<table>\n<caption>");
	ss_buf_adds(b, caption);
	ss_buf_adds(b, "</caption>\n<thead><tr><th>#</th><th class=\"l\">Input</th><th>Line</th><th class=\"l\">Model</th>"
		    "<th>Acceptance<br>length</th><th>Steps</th><th>Completion<br>tokens</th><th>Prompt<br>tokens</th>"
		    "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++) {
		ss_buf_adds(b, "<tr><td>");
		ss_buf_add_u64(b, i + 1);
		ss_buf_adds(b, "</td><td class=\"name\">");
		if (v[i].input)
			ss_buf_add_htmls(b, v[i].input);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_u64(b, v[i].line);
		ss_buf_adds(b, "</td><td class=\"name\">");
		if (v[i].model)
			ss_buf_add_htmls(b, v[i].model);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_fixed2_grouped(b, v[i].al);
		ss_buf_adds(b, "</td><td>");
		ss_html_add_count(b, v[i].steps);
		ss_buf_adds(b, "</td><td>");
		if (v[i].has_completion)
			ss_html_add_count(b, v[i].completion_tokens);
		ss_buf_adds(b, "</td><td>");
		if (v[i].has_prompt)
			ss_html_add_count(b, v[i].prompt_tokens);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n");
}

void ss_html_outliers(struct ss_buf *b, const struct ss_agg *a)
{
	const struct ss_outliers *s = &a->outliers;

	ss_buf_adds(b, "<section id=\"outliers\">\n<h2>Requests to look at</h2>\n<p>");
	ss_buf_add_u64_grouped(b, s->all_rejected);
	ss_buf_adds(b, s->all_rejected == 1 ? " request" : " requests");
	ss_buf_adds(b, " had every draft token rejected (the drafter never helped: often garbled "
		    "output), ");
	ss_buf_add_u64_grouped(b, s->all_accepted);
	ss_buf_adds(b, " every draft token accepted (often a repetition loop).</p>\n");
	if (s->nlow == 0) {
		ss_html_missing(b, "No request with stats has a number of verify steps.");
		ss_buf_adds(b, "</section>\n");
		return;
	}
	ss_buf_adds(b, "<div class=\"fig\">\n");
	outlier_table(b, "Lowest acceptance length", s->low, s->nlow);
	outlier_table(b, "Highest acceptance length", s->high, s->nhigh);
	ss_buf_adds(b, "</div>\n</section>\n");
}
