/*
 * server_jsoncsv.c - the `server` key of the aggregate JSON and the CSV
 * section of the server's counters (SPEC 10.4), from the results of
 * ss_server_finish(): keys in 10.4's order, absent parts left out.
 */
#include <stdio.h>

#include "report/jsonw.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/section.h"
#include "report/server_report.h"
#include "report/tabular.h"

void ss_report_json_opt_time(struct ss_jsonw *w, const char *key, bool has, int64_t v)
{
	if (has)
		ss_jsonw_i64(w, key, v);
	else
		ss_jsonw_null(w, key);
}

static void opt_double(struct ss_jsonw *w, const char *key, bool has, double v)
{
	if (has)
		ss_jsonw_double(w, key, v);
	else
		ss_jsonw_null(w, key);
}

static void add_u128(struct ss_jsonw *w, const char *key, unsigned __int128 v)
{
	ss_jsonw_i128(w, key, (__int128)v);
}

static void add_positions(struct ss_jsonw *w, const struct ss_server_family *f)
{
	char num[24];

	ss_sec_positions_server_json(w, f);
	if (f->has_consistent)
		ss_jsonw_bool(w, "consistent", f->consistent);
	if (!f->histogram)
		return;
	ss_jsonw_begin_object(w, "histogram");
	for (size_t j = 0; j <= f->npositions; j++) {
		snprintf(num, sizeof(num), "%zu", j);
		add_u128(w, num, f->histogram[j]);
	}
	ss_jsonw_end_object(w);
	ss_sec_positions_server_whatif_json(w, f);
	if (f->has_cost) {
		ss_jsonw_double(w, "draft_cost", f->draft_cost);
		ss_jsonw_u64(w, "suggested_k", f->suggested_k);
	}
}

void ss_report_json_server_process(struct ss_jsonw *w, const struct ss_server_family *f,
				   uint32_t p)
{
	if (p < f->nprocess_names && f->process_names[p])
		ss_jsonw_str(w, "process", f->process_names[p]);
	else
		ss_jsonw_null(w, "process");
}

static void add_idle(struct ss_jsonw *w, const struct ss_server_family *f)
{
	ss_jsonw_begin_array(w, "idle");
	for (size_t i = 0; i < f->nidle; i++) {
		ss_jsonw_begin_object(w, NULL);
		ss_report_json_server_process(w, f, f->idle[i].process);
		ss_report_json_opt_time(w, "from_ns", f->idle[i].has_from, f->idle[i].from_ns);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

static void add_intervals(struct ss_jsonw *w, const struct ss_server_family *f)
{
	ss_jsonw_begin_array(w, "intervals");
	for (size_t i = 0; i < f->nintervals; i++) {
		const struct ss_server_interval *iv = &f->intervals[i];

		ss_jsonw_begin_object(w, NULL);
		ss_report_json_server_process(w, f, iv->process);
		ss_report_json_opt_time(w, "start_ns", iv->has_start, iv->start_ns);
		ss_report_json_opt_time(w, "end_ns", iv->has_end, iv->end_ns);
		add_u128(w, "steps", iv->steps);
		if (f->has_draft_tokens)
			add_u128(w, "draft_tokens", iv->draft_tokens);
		ss_jsonw_i128(w, "accepted_tokens", iv->accepted_tokens);
		/* SPEC 13 (10.5): left out where the family leaves them out */
		if (iv->has_acceptance_length)
			ss_jsonw_double(w, "acceptance_length", iv->acceptance_length);
		if (f->has_draft_tokens && iv->has_rate)
			ss_jsonw_double(w, "draft_acceptance_rate", iv->draft_acceptance_rate);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

static void add_reconciliation(struct ss_jsonw *w, const struct ss_server_reconciliation *r)
{
	ss_jsonw_begin_object(w, "reconciliation");
	ss_jsonw_begin_object(w, "requests");
	add_u128(w, "steps", r->steps);
	add_u128(w, "accepted", r->accepted);
	add_u128(w, "drafted", r->drafted);
	ss_jsonw_end_object(w);
	opt_double(w, "steps_ratio", r->has_steps_ratio, r->steps_ratio);
	opt_double(w, "accepted_ratio", r->has_accepted_ratio, r->accepted_ratio);
	ss_jsonw_end_object(w);
}

void ss_report_json_server_head(struct ss_jsonw *w, const struct ss_server_family *f)
{
	ss_jsonw_begin_object(w, NULL);
	ss_jsonw_str(w, "engine", ss_engine_name(f->row->engine));
	ss_jsonw_str(w, "counters", f->row->counters);
	if (f->log) {
		/* a log family (SPEC 12.2-12.3): lines, not series or snapshots */
		ss_jsonw_u64(w, "lines", f->log->lines);
		ss_jsonw_u64(w, "processes", f->log->processes);
	} else {
		ss_jsonw_u64(w, "series", f->series);
		ss_jsonw_u64(w, "processes", f->processes);
		if (f->nmissing) {
			ss_jsonw_begin_array(w, "missing");
			for (size_t i = 0; i < f->nmissing; i++)
				ss_jsonw_str(w, NULL, f->missing[i]);
			ss_jsonw_end_array(w);
		}
		if (f->unordered)
			ss_jsonw_bool(w, "unordered", true);
		ss_jsonw_u64(w, "resets", f->resets);
		if (f->started_in_window)
			ss_jsonw_u64(w, "started_in_window", f->started_in_window);
		ss_jsonw_bool(w, "since_start", f->since_start);
	}
	ss_jsonw_bool(w, "inexact", f->inexact);
	ss_jsonw_bool(w, "estimated", f->estimated);
	ss_jsonw_begin_object(w, "window");
	ss_report_json_opt_time(w, "start_ns", f->has_start, f->start_ns);
	ss_report_json_opt_time(w, "end_ns", f->has_end, f->end_ns);
	ss_jsonw_end_object(w);
}

static void add_family(struct ss_jsonw *w, const struct ss_server_family *f)
{
	if (f->log) {
		ss_sec_logs_json(w, f);
		return;
	}
	ss_report_json_server_head(w, f);
	add_u128(w, "steps", f->steps);
	if (f->has_draft_tokens)
		add_u128(w, "draft_tokens", f->draft_tokens);
	ss_jsonw_i128(w, "accepted_tokens", f->accepted_tokens);
	if (f->has_acceptance_length)
		ss_jsonw_double(w, "acceptance_length", f->acceptance_length);
	if (f->has_rate)
		ss_jsonw_double(w, "draft_acceptance_rate", f->draft_acceptance_rate);
	if (f->npositions)
		add_positions(w, f);
	if (f->ngauges) {
		ss_jsonw_begin_object(w, "gauges");
		for (size_t g = 0; g < f->ngauges; g++)
			ss_jsonw_double(w, f->gauges[g].name, f->gauges[g].value);
		ss_jsonw_end_object(w);
	}
	if (f->nintervals)
		add_intervals(w, f);
	if (f->nidle)
		add_idle(w, f);
	if (f->has_reconciliation)
		add_reconciliation(w, &f->reconciliation);
	ss_jsonw_end_object(w);
}

void ss_report_json_server(struct ss_jsonw *w, const struct ss_server_results *r)
{
	ss_jsonw_begin_object(w, "server");
	ss_jsonw_u64(w, "endpoints", r->endpoints);
	ss_jsonw_u64(w, "snapshots", r->snapshots);
	ss_jsonw_u64(w, "bad_lines", r->bad_lines);
	ss_jsonw_begin_array(w, "families");
	for (size_t i = 0; i < r->nfamilies; i++)
		add_family(w, &r->families[i]);
	ss_jsonw_end_array(w);
	ss_sec_server_groups_json(w, r);   /* after families (10.7) */
	ss_jsonw_end_object(w);
}

void ss_report_json_server_family(struct ss_jsonw *w, const struct ss_server_family *f)
{
	add_family(w, f);
}

/* ---- CSV ---- */

static const struct ss_tab_col csv_cols[] = {
	{"Engine", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Metric", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Value", SS_COL_FIX2, false, SS_TAB_CSV, NULL, NULL, false},
};

/* The engine, and the row when it is not the Prometheus one: `tensorrt_llm (iterations)`. */
static void csv_row(struct ss_tab *t, const struct ss_server_family *f, const char *metric,
		    double v)
{
	struct ss_buf *b = ss_tab_begin(t);

	ss_buf_adds(b, ss_engine_name(f->row->engine));
	if (f->row->source != SS_SRC_PROMETHEUS)
		ss_buf_addf(b, " (%s)", f->row->counters);
	ss_tab_end(t);
	ss_tab_text(t, metric);
	ss_tab_num(t, v);
}

void ss_report_server_csv(struct ss_buf *out, const struct ss_server_results *r)
{
	struct ss_tab t;

	if (r->nfamilies == 0)
		return;
	ss_tab_init(&t, csv_cols, sizeof(csv_cols) / sizeof(csv_cols[0]));
	for (size_t i = 0; i < r->nfamilies; i++) {
		const struct ss_server_family *f = &r->families[i];

		if (f->has_acceptance_length)
			csv_row(&t, f, "Acceptance Length (ratio)", f->acceptance_length);
		if (f->has_rate)
			csv_row(&t, f, "Draft Acceptance Rate (%)", f->draft_acceptance_rate);
		/* a log family has the counts it has (SPEC 12.2, 12.3) */
		if (!f->log || f->log->assumes_full)
			csv_row(&t, f, "Steps", (double)f->steps);
		if (f->has_draft_tokens)
			csv_row(&t, f, "Draft Tokens (tokens)", (double)f->draft_tokens);
		if (!f->log || f->has_draft_tokens)
			csv_row(&t, f, "Accepted Draft Tokens (tokens)", (double)f->accepted_tokens);
	}
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}
