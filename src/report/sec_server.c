/*
 * sec_server.c - the server section (SPEC 10.4, 10.5): the server's own
 * counters in every format but the page (sec_server_page.c draws it):
 * the `server` key of the aggregate JSON (keys in 10.4's order, absent
 * parts left out), the `Server Spec Decode` section of the console and of
 * Markdown (per family one line of figures, acceptance by position and the
 * shorter-draft line as 7.1 prints them, the reconciliation line and the
 * notes: the words the JSON's flags stand for) and the CSV section
 * `Engine,Metric,Value`. The positions' rows are the positions' writers'
 * (sec_positions.c); a log family is sec_logs.c's.
 *
 * Every writer borrows the results (server/server.h) for the call and
 * keeps nothing. Nothing written here comes from an input's bytes but a
 * process's name (escaped by the JSON writer): engine, counter and gauge
 * names are the family table's. Numbers as the console prints them (%.2f
 * grouped, % as %.0f).
 */
#include <stdio.h>

#include "report/jsonw.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/section.h"
#include "report/tabular.h"

/* `vllm`, or the engine and its counters when they are not the Prometheus
 * ones: `tensorrt_llm (iterations)`. */
void ss_sec_server_engine(struct ss_buf *b, const struct ss_server_family *f)
{
	ss_buf_adds(b, ss_engine_name(f->row->engine));
	if (f->row->source != SS_SRC_PROMETHEUS)
		ss_buf_addf(b, " (%s)", f->row->counters);
}

/* ---- JSON ---- */

void ss_sec_server_time_json(struct ss_jsonw *w, const char *key, bool has, int64_t v)
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

void ss_sec_server_process_json(struct ss_jsonw *w, const struct ss_server_family *f,
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
		ss_sec_server_process_json(w, f, f->idle[i].process);
		ss_sec_server_time_json(w, "from_ns", f->idle[i].has_from, f->idle[i].from_ns);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

void ss_sec_server_intervals_json(struct ss_jsonw *w, const struct ss_server_family *f,
				  bool drafts, bool pinned)
{
	ss_jsonw_begin_array(w, "intervals");
	for (size_t i = 0; i < f->nintervals; i++) {
		const struct ss_server_interval *iv = &f->intervals[i];

		ss_jsonw_begin_object(w, NULL);
		ss_sec_server_process_json(w, f, iv->process);
		ss_sec_server_time_json(w, "start_ns", iv->has_start, iv->start_ns);
		ss_sec_server_time_json(w, "end_ns", iv->has_end, iv->end_ns);
		if (!pinned || iv->has_acceptance_length)
			add_u128(w, "steps", iv->steps);
		if (drafts)
			add_u128(w, "draft_tokens", iv->draft_tokens);
		ss_jsonw_i128(w, "accepted_tokens", iv->accepted_tokens);
		/* SPEC 13 (10.5): left out where the family leaves them out */
		if (iv->has_acceptance_length)
			ss_jsonw_double(w, "acceptance_length", iv->acceptance_length);
		if (drafts && iv->has_rate)
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

void ss_sec_server_head_json(struct ss_jsonw *w, const struct ss_server_family *f)
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
	ss_sec_server_time_json(w, "start_ns", f->has_start, f->start_ns);
	ss_sec_server_time_json(w, "end_ns", f->has_end, f->end_ns);
	ss_jsonw_end_object(w);
}

static void add_family(struct ss_jsonw *w, const struct ss_server_family *f)
{
	if (f->log) {
		ss_sec_logs_json(w, f);
		return;
	}
	ss_sec_server_head_json(w, f);
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
		ss_sec_server_intervals_json(w, f, f->has_draft_tokens, false);
	if (f->nidle)
		add_idle(w, f);
	if (f->has_reconciliation)
		add_reconciliation(w, &f->reconciliation);
	ss_jsonw_end_object(w);
}

void ss_sec_server_json(struct ss_jsonw *w, const struct ss_server_results *r)
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

void ss_sec_server_family_json(struct ss_jsonw *w, const struct ss_server_family *f)
{
	add_family(w, f);
}

/* ---- the console and Markdown ---- */

static void add_signed(struct ss_buf *b, __int128 v)
{
	if (v < 0) {
		ss_buf_addc(b, '-');
		ss_buf_add_u128_grouped(b, (unsigned __int128)-v);
	} else {
		ss_buf_add_u128_grouped(b, (unsigned __int128)v);
	}
}

static void plural(struct ss_buf *b, uint64_t n, const char *one, const char *many)
{
	ss_buf_add_u64_grouped(b, n);
	ss_buf_addc(b, ' ');
	ss_buf_adds(b, n == 1 ? one : many);
}

/* `vllm, 2 snapshots, 2 series: acceptance length 3.53, ...` */
static void family_line(struct ss_buf *b, const struct ss_server_family *f)
{
	ss_sec_server_engine(b, f);
	ss_buf_adds(b, ", ");
	plural(b, f->snapshots, "snapshot", "snapshots");
	ss_buf_adds(b, ", ");
	ss_buf_add_u64_grouped(b, f->series);
	ss_buf_adds(b, " series:");
	if (f->has_acceptance_length) {
		ss_buf_adds(b, " acceptance length ");
		ss_buf_add_fixed2_grouped(b, f->acceptance_length);
		ss_buf_addc(b, ',');
	}
	if (f->has_rate) {
		ss_buf_adds(b, " draft acceptance rate ");
		ss_buf_add_fixed2_grouped(b, f->draft_acceptance_rate);
		ss_buf_adds(b, "%,");
	}
	ss_buf_addc(b, ' ');
	ss_buf_add_u128_grouped(b, f->steps);
	ss_buf_adds(b, f->steps == 1 ? " step, " : " steps, ");
	if (f->has_draft_tokens) {
		ss_buf_add_u128_grouped(b, f->draft_tokens);
		ss_buf_adds(b, " drafted, ");
	}
	add_signed(b, f->accepted_tokens);
	ss_buf_adds(b, f->estimated ? " accepted (estimated)" : " accepted");
}

/* Whether every position drafted every step (7.1's form of the line applies). */
static bool fixed_drafting(const struct ss_server_family *f)
{
	for (size_t i = 0; i < f->npositions; i++)
		if (f->positions[i].drafted != f->steps)
			return false;
	return true;
}

static void add_pct(struct ss_buf *b, bool has, double v)
{
	if (!has) {
		ss_buf_adds(b, "N/A");
		return;
	}
	ss_buf_add_fixed0(b, v * 100.0);
	ss_buf_addc(b, '%');
}

/* `Acceptance by position (k=3, 87 steps):  1: 80%  2: 63%  3: 48%`, or
 * with drafting that varied, each rate `of` its drafted count. */
static void positions_line(struct ss_buf *b, const struct ss_server_family *f)
{
	bool fixed = fixed_drafting(f);

	ss_buf_addf(b, "Acceptance by position (k=%zu, ", f->npositions);
	ss_buf_add_u128_grouped(b, f->steps);
	ss_buf_adds(b, f->steps == 1 ? " step):" : " steps):");
	for (size_t i = 0; i < f->npositions; i++) {
		ss_buf_addf(b, "  %zu: ", i + 1);
		add_pct(b, f->positions[i].has_rate, f->positions[i].rate);
		if (!fixed) {
			ss_buf_adds(b, " of ");
			ss_buf_add_u128_grouped(b, f->positions[i].drafted);
		}
	}
}

static void whatif_line(struct ss_buf *b, const struct ss_server_family *f)
{
	size_t k = f->npositions;

	ss_buf_addf(b, "If the draft were shorter (k=%zu):", k);
	for (size_t i = 0; i < k; i++) {
		ss_buf_addf(b, "  k=%zu: ", i + 1);
		ss_buf_add_fixed2_grouped(b, f->what_if[i].acceptance_length);
	}
	ss_buf_adds(b, " tokens/step");
	if (!f->has_cost)
		return;
	ss_buf_adds(b, "  speedup");
	for (size_t i = 0; i < k; i++) {
		ss_buf_addf(b, " k=%zu: ", i + 1);
		ss_buf_add_fixed2_grouped(b, f->what_if[i].speedup);
		ss_buf_addc(b, 'x');
		if (i + 1 < k)
			ss_buf_addc(b, ' ');
	}
	if (f->suggested_k)
		ss_buf_addf(b, "  suggested k=%u", f->suggested_k);
	else
		ss_buf_adds(b, "  no draft length pays at this cost");
}

static void add_ratio(struct ss_buf *b, bool has, double v)
{
	ss_buf_adds(b, " (ratio ");
	if (has)
		ss_buf_add_fixed2_grouped(b, v);
	else
		ss_buf_adds(b, "N/A");
	ss_buf_addc(b, ')');
}

/* `vllm: server 4,816 steps, 12,208 accepted; requests 4,816 steps (ratio 1.00), ...` */
void ss_sec_server_reconciliation_line(struct ss_buf *b, const struct ss_server_family *f)
{
	const struct ss_server_reconciliation *r = &f->reconciliation;

	ss_buf_adds(b, ss_engine_name(f->row->engine));
	ss_buf_adds(b, ": server ");
	ss_buf_add_u128_grouped(b, f->steps);
	ss_buf_adds(b, " steps, ");
	add_signed(b, f->accepted_tokens);
	ss_buf_adds(b, " accepted; requests ");
	ss_buf_add_u128_grouped(b, r->steps);
	ss_buf_adds(b, " steps");
	add_ratio(b, r->has_steps_ratio, r->steps_ratio);
	ss_buf_adds(b, ", ");
	ss_buf_add_u128_grouped(b, r->accepted);
	ss_buf_adds(b, " accepted");
	add_ratio(b, r->has_accepted_ratio, r->accepted_ratio);
}

/* The notes of SPEC 10.3's processes, missing counters and idle ends. */
static void process_notes(struct ss_buf *b, const struct ss_server_family *f, const char *lead)
{
	for (size_t i = 0; i < f->nmissing; i++)
		ss_buf_addf(b, "%smissing counter %s: no series of it in any snapshot (speculative "
			       "decoding off, an engine version without it, or a metrics filter or "
			       "relabelling that dropped it); no derived value\n", lead, f->missing[i]);
	if (f->unordered)
		ss_buf_addf(b, "%sunordered: two snapshots of one process could not be ordered by "
			       "its counters (each has a counter larger than the other); input order "
			       "was kept\n", lead);
	if (f->started_in_window) {
		ss_buf_addf(b, "%s", lead);
		plural(b, f->started_in_window, "process", "processes");
		ss_buf_adds(b, " started inside the window (a restart or a worker added): counted "
			       "from zero\n");
	}
	if (f->untimed_starts) {
		ss_buf_addf(b, "%s", lead);
		plural(b, f->processes, "process", "processes");
		ss_buf_adds(b, ", not all timed: counts between a process's start and its first "
			       "snapshot are not in the window; `# time:` lines make them exact\n");
	}
	if (f->nidle) {
		ss_buf_addf(b, "%sidle: ", lead);
		plural(b, f->nidle, "process", "processes");
		ss_buf_adds(b, " had no verify steps in the last intervals: speculation was switched off (TensorRT-LLM turns it off "
			       "when its rolling acceptance falls below acceptance_rate_threshold) "
			       "or traffic stopped\n");
	}
}

/* The notes of one family, each a line after `lead`. */
void ss_sec_server_notes(struct ss_buf *b, const struct ss_server_family *f, const char *lead)
{
	const struct ss_server_reconciliation *r = &f->reconciliation;

	if (f->since_start)
		ss_buf_addf(b, "%sone snapshot: the counters since the server started\n", lead);
	if (f->resets) {
		ss_buf_addf(b, "%s", lead);
		plural(b, f->resets, "reset", "resets");
		ss_buf_adds(b, " (a counter went down: the server restarted, or the pages are out "
			       "of order or come from several servers; `# time:` and `# endpoint:` "
			       "lines settle it), counted as Prometheus' increase() counts them\n");
	}
	process_notes(b, f, lead);
	if (f->inexact)
		ss_buf_addf(b, "%sinexact: a counter was printed rounded (six significant digits) "
			       "or reached 2^53; the counts may be off by the rounding\n", lead);
	if (f->estimated)
		ss_buf_addf(b, "%sestimated: accepted tokens = generated tokens - requests - verify "
			       "steps, exact only when no request was in flight at either end of "
			       "the window\n", lead);
	if (f->has_consistent && !f->consistent)
		ss_buf_addf(b, "%snot consistent: the per-position counts do not add up to the "
			       "accepted count or grow along the draft (a scrape caught the "
			       "counters mid-update); no histogram rebuilt\n", lead);
	if (f->histogram)
		ss_buf_addf(b, "%sthe shorter-draft figures are exact for chain drafters (draft "
			       "model, EAGLE/MTP chains, n-gram), an estimate for tree drafting\n",
			    lead);
	if (f->has_reconciliation && (r->steps_off || r->accepted_off))
		ss_buf_addf(b, "%sthe server and the requests differ by more than 1%%: the server "
			       "counted other traffic, warmup requests, requests with n > 1, or "
			       "the scrapes do not bracket the run\n", lead);
	for (size_t g = 0; g < f->ngauges; g++) {
		ss_buf_addf(b, "%sgauge %s: ", lead, f->gauges[g].name);
		ss_buf_add_fixed2_grouped(b, f->gauges[g].value);
		ss_buf_adds(b, " (the server's last interval, not windowed)\n");
	}
}

/* One family: lines after two spaces, or Markdown paragraphs. */
static void family(struct ss_buf *out, const struct ss_server_family *f, bool md)
{
	const char *lead = md ? "" : "  ";

	if (f->log) {
		ss_sec_logs_text(out, f, md);
		return;
	}
	ss_buf_adds(out, md ? "\n" : lead);
	family_line(out, f);
	ss_buf_addc(out, '\n');
	if (f->npositions && f->has_acceptance_length) {
		ss_buf_adds(out, md ? "\n" : lead);
		positions_line(out, f);
		ss_buf_addc(out, '\n');
		if (md)
			ss_sec_positions_server_md(out, f);
	}
	if (f->histogram) {
		ss_buf_adds(out, md ? "\n" : lead);
		whatif_line(out, f);
		ss_buf_addc(out, '\n');
		if (md)
			ss_sec_positions_server_whatif_md(out, f);
	}
	if (f->has_reconciliation) {
		ss_buf_adds(out, md ? "\n" : lead);
		ss_sec_server_reconciliation_line(out, f);
		ss_buf_addc(out, '\n');
	}
	if (md) {
		struct ss_buf n = SS_BUF_INIT;

		ss_sec_server_notes(&n, f, "- ");
		if (n.len) {
			ss_buf_addc(out, '\n');
			ss_buf_add(out, n.data, n.len);
		}
		out->failed |= n.failed;
		ss_buf_release(&n);
	} else {
		ss_sec_server_notes(out, f, "  note: ");
	}
}

static void server_text(struct ss_buf *out, const struct ss_server_results *r, bool md)
{
	ss_buf_adds(out, md ? "\n## Server Spec Decode\n" : "\nServer Spec Decode\n");
	if (r->nfamilies == 0) {
		ss_buf_adds(out, md ? "\n" : "  ");
		ss_buf_adds(out, "no spec-decode counters in ");
		plural(out, r->snapshots, "snapshot", "snapshots");
		ss_buf_addc(out, '\n');
	}
	for (size_t i = 0; i < r->nfamilies; i++)
		family(out, &r->families[i], md);
	if (r->bad_lines) {
		ss_buf_adds(out, md ? "\n" : "  ");
		plural(out, r->bad_lines, "bad line", "bad lines");
		ss_buf_adds(out, " in the server inputs (counted, named in the messages)\n");
	}
}

void ss_sec_server_text(struct ss_buf *out, const struct ss_server_results *srv)
{
	server_text(out, srv, false);
}

void ss_sec_server_md(struct ss_buf *out, const struct ss_server_results *srv)
{
	server_text(out, srv, true);
}

/* ---- CSV ---- */

static const struct ss_tab_col csv_cols[] = {
	{"Engine", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Metric", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"Value", SS_COL_FIX2, false, SS_TAB_CSV, NULL, NULL, false},
};

/* A row: the directory (with one), the engine, the metric, its value. */
static void csv_row(struct ss_tab *t, const struct ss_server_family *f, const char *dir,
		    size_t len, const char *metric, double v)
{
	if (dir) {
		ss_buf_add(ss_tab_begin(t), dir, len);
		ss_tab_end(t);
	}
	ss_sec_server_engine(ss_tab_begin(t), f);
	ss_tab_end(t);
	ss_tab_text(t, metric);
	ss_tab_num(t, v);
}

void ss_sec_server_csv_rows(struct ss_tab *t, const struct ss_server_family *f,
			    const struct ss_server_family *base, const char *dir, size_t len)
{
	if (f->has_acceptance_length)
		csv_row(t, f, dir, len, "Acceptance Length (ratio)", f->acceptance_length);
	if (f->has_rate)
		csv_row(t, f, dir, len, "Draft Acceptance Rate (%)", f->draft_acceptance_rate);
	/* a log family has the counts it has (SPEC 12.2, 12.3) */
	if (!f->log || f->log->assumes_full)
		csv_row(t, f, dir, len, "Steps", (double)f->steps);
	if (f->has_draft_tokens)
		csv_row(t, f, dir, len, "Draft Tokens (tokens)", (double)f->draft_tokens);
	if (!f->log || f->has_draft_tokens)
		csv_row(t, f, dir, len, "Accepted Draft Tokens (tokens)", (double)f->accepted_tokens);
	if (base && base->has_acceptance_length && f->has_acceptance_length)
		csv_row(t, f, dir, len, "Delta Acceptance Length (ratio)",
			f->acceptance_length - base->acceptance_length);
	if (base && base->has_rate && f->has_rate)
		csv_row(t, f, dir, len, "Delta Draft Acceptance Rate (pp)",
			f->draft_acceptance_rate - base->draft_acceptance_rate);
}

void ss_sec_server_csv(struct ss_buf *out, const struct ss_server_results *srv)
{
	struct ss_tab t;

	if (srv->nfamilies == 0)
		return;
	ss_tab_init(&t, csv_cols, sizeof(csv_cols) / sizeof(csv_cols[0]));
	for (size_t i = 0; i < srv->nfamilies; i++)
		ss_sec_server_csv_rows(&t, &srv->families[i], NULL, NULL, 0);
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}
