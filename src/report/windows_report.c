/*
 * windows_report.c - SPEC 7.8's windows in the JSON, CSV, console and
 * Markdown reports.
 */
#include <string.h>

#include "report/analysis_more.h"
#include "report/grid.h"
#include "report/numfmt.h"

static void opt_double(struct ss_jsonw *w, const char *key, bool has, double v)
{
	if (has)
		ss_jsonw_double(w, key, v);
	else
		ss_jsonw_null(w, key);
}

void ss_report_json_windows(struct ss_jsonw *w, const struct ss_analysis *an)
{
	const struct ss_windows *ws = &an->windows;

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

void ss_report_csv_windows(struct ss_buf *out, const struct ss_analysis *an)
{
	const struct ss_windows *ws = &an->windows;

	if (!ws->timed || ws->nwin == 0)
		return;
	if (out->len)
		ss_buf_adds(out, "\r\n");
	ss_buf_adds(out, "Window,Start (ns),Requests,Steps,Acceptance Length,"
			 "Draft Acceptance Rate (%)\r\n");
	for (size_t i = 0; i < ws->nwin; i++) {
		const struct ss_window *x = &ws->w[i];

		ss_buf_add_u64(out, i);
		ss_buf_addc(out, ',');
		ss_buf_add_i128(out, (__int128)ws->t0_ns + (__int128)i * ws->duration_ns);
		ss_buf_addc(out, ',');
		ss_buf_add_u64(out, x->requests);
		ss_buf_addc(out, ',');
		ss_buf_add_i128(out, x->steps);
		ss_buf_addc(out, ',');
		if (x->has_al)
			ss_buf_add_fixed2(out, x->acceptance_length);
		ss_buf_addc(out, ',');
		if (x->has_dar)
			ss_buf_add_fixed2(out, x->draft_acceptance_rate);
		ss_buf_adds(out, "\r\n");
	}
}

void ss_report_window_duration(struct ss_buf *b, const struct ss_analysis_opts *o)
{
	int64_t scale = o->window_unit == 'h' ? INT64_C(3600000000000)
			: o->window_unit == 'm' ? INT64_C(60000000000) : INT64_C(1000000000);

	ss_buf_add_u64_grouped(b, (uint64_t)(o->window_ns / scale));
	ss_buf_adds(b, o->window_unit == 'h' ? " h" : o->window_unit == 'm' ? " min" : " s");
}

void ss_report_windows_line(struct ss_buf *out, const struct ss_analysis *an, const char *prefix)
{
	const struct ss_windows *ws = &an->windows;

	ss_buf_adds(out, prefix);
	ss_buf_adds(out, "Acceptance length over time (");
	ss_report_window_duration(out, an->opts);
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

/* The Markdown table: one row per window, times in seconds from the first. */
void ss_report_md_windows(struct ss_buf *out, const struct ss_analysis *an)
{
	const struct ss_windows *ws = &an->windows;
	struct ss_grid g;

	ss_buf_adds(out, "\n### Acceptance length over time\n\n");
	ss_report_windows_line(out, an, "");
	if (!ws->timed)
		return;
	ss_grid_init(&g);
	ss_grid_col(&g, "Window", true);
	ss_grid_col(&g, "Start (s)", true);
	ss_grid_col(&g, "Requests", true);
	ss_grid_col(&g, "Steps", true);
	ss_grid_col(&g, "Acceptance Length", true);
	ss_grid_col(&g, "Draft Acceptance Rate (%)", true);
	for (size_t i = 0; i < ws->nwin; i++) {
		const struct ss_window *x = &ws->w[i];

		ss_grid_begin(&g);
		ss_buf_add_u64_grouped(&g.text, i);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_fixed2_grouped(&g.text, (double)i * (double)ws->duration_ns / 1e9);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_u64_grouped(&g.text, x->requests);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		ss_buf_add_u64_grouped(&g.text, x->steps > UINT64_MAX ? UINT64_MAX : (uint64_t)x->steps);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		if (x->has_al)
			ss_buf_add_fixed2_grouped(&g.text, x->acceptance_length);
		ss_grid_end(&g);
		ss_grid_begin(&g);
		if (x->has_dar)
			ss_buf_add_fixed2_grouped(&g.text, x->draft_acceptance_rate);
		ss_grid_end(&g);
	}
	ss_buf_addc(out, '\n');
	ss_grid_markdown(out, &g);
	out->failed |= g.failed;
	ss_grid_release(&g);
}
