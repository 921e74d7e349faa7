/*
 * server_text.c - the `Server Spec Decode` section (SPEC 10.4) for the
 * console, `-f table` and `-f markdown`: per family one line of figures,
 * acceptance by position and the shorter-draft line as 7.1 prints them,
 * the reconciliation line and the notes (10.5: the words the JSON's flags
 * stand for). In Markdown the lines are paragraphs and the positions
 * tables (the positions' writers, sec_positions.c). Numbers as the console prints them (%.2f grouped, % as %.0f).
 */
#include <stdio.h>

#include "report/numfmt.h"
#include "report/report.h"
#include "report/section.h"
#include "report/server_report.h"

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
void ss_report_server_family_line(struct ss_buf *b, const struct ss_server_family *f)
{
	ss_buf_adds(b, ss_engine_name(f->row->engine));
	if (f->row->source != SS_SRC_PROMETHEUS)
		ss_buf_addf(b, " (%s)", f->row->counters);
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
void ss_report_server_reconciliation_line(struct ss_buf *b, const struct ss_server_family *f)
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
static void ss_report_server_process_notes(struct ss_buf *b, const struct ss_server_family *f,
					   const char *lead)
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
void ss_report_server_notes(struct ss_buf *b, const struct ss_server_family *f, const char *lead)
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
	ss_report_server_process_notes(b, f, lead);
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
	ss_report_server_family_line(out, f);
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
		ss_report_server_reconciliation_line(out, f);
		ss_buf_addc(out, '\n');
	}
	if (md) {
		struct ss_buf n = SS_BUF_INIT;

		ss_report_server_notes(&n, f, "- ");
		if (n.len) {
			ss_buf_addc(out, '\n');
			ss_buf_add(out, n.data, n.len);
		}
		out->failed |= n.failed;
		ss_buf_release(&n);
	} else {
		ss_report_server_notes(out, f, "  note: ");
	}
}

void ss_report_server_text(struct ss_buf *out, const struct ss_server_results *r, bool md)
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
