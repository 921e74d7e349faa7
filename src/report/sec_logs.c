/*
 * sec_logs.c - the log families of the server section (SPEC 12.2, 12.3,
 * 12.6): vLLM's interval lines (`"counters": "log"`, counts exact, steps
 * only when every line pins them) and SGLang's decode lines (the printed
 * acceptance length as a series, by batch size, estimated). Their JSON
 * entry in `server.families`, their console and Markdown lines and notes;
 * CSV and HTML use the server section's own writers (the figures they show
 * are 10.4's fields).
 */
#include <stdio.h>

#include "report/numfmt.h"
#include "report/section.h"

static void vllm_json(struct ss_jsonw *w, const struct ss_server_family *f)
{
	const struct ss_server_logfam *x = f->log;

	ss_jsonw_i128(w, "draft_tokens", (__int128)f->draft_tokens);
	ss_jsonw_i128(w, "accepted_tokens", f->accepted_tokens);
	if (f->has_rate)
		ss_jsonw_double(w, "draft_acceptance_rate", f->draft_acceptance_rate);
	if (x->assumes_full) {
		ss_jsonw_i128(w, "steps", (__int128)f->steps);
		ss_jsonw_double(w, "acceptance_length", f->acceptance_length);
		ss_jsonw_str(w, "assumes", "full-length drafts");
	} else if (x->unpinned) {
		ss_jsonw_u64(w, "unpinned_lines", x->unpinned);
	}
	if (f->npositions) {
		ss_jsonw_begin_array(w, "positions");
		for (size_t i = 0; i < f->npositions; i++) {
			const struct ss_drafted_row *p = &f->positions[i];

			ss_jsonw_begin_object(w, NULL);
			ss_jsonw_u64(w, "position", i + 1);
			if (p->has_rate)
				ss_jsonw_double(w, "rate", p->rate);
			else
				ss_jsonw_null(w, "rate");
			ss_jsonw_end_object(w);
		}
		ss_jsonw_end_array(w);
	}
	if (x->unknown_items)
		ss_jsonw_u64(w, "unknown_items", x->unknown_items);
	if (f->nintervals)
		ss_sec_server_intervals_json(w, f, true, true);
}

static void sglang_json(struct ss_jsonw *w, const struct ss_server_family *f)
{
	const struct ss_server_logfam *x = f->log;

	if (x->has_accept_len) {
		ss_jsonw_begin_object(w, "accept_len");
		ss_jsonw_u64(w, "lines", x->al_lines);
		ss_jsonw_double(w, "mean", x->mean);
		ss_jsonw_double(w, "weighted_mean", x->weighted_mean);
		ss_jsonw_double(w, "min", x->min);
		ss_jsonw_double(w, "max", x->max);
		ss_jsonw_double(w, "last", x->last);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_begin_array(w, "by_running_req");
	for (size_t i = 0; i < x->nbuckets; i++) {
		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "running_req", x->buckets[i].running_req);
		ss_jsonw_u64(w, "lines", x->buckets[i].lines);
		ss_jsonw_double(w, "mean", x->buckets[i].mean);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	if (!x->niv)
		return;
	ss_jsonw_begin_array(w, "intervals");
	for (size_t i = 0; i < x->niv; i++) {
		ss_jsonw_begin_object(w, NULL);
		ss_sec_server_process_json(w, f, x->iv[i].process);
		ss_sec_server_time_json(w, "start_ns", x->iv[i].has_start, x->iv[i].start_ns);
		ss_sec_server_time_json(w, "end_ns", x->iv[i].has_end, x->iv[i].end_ns);
		ss_jsonw_double(w, "accept_len", x->iv[i].accept_len);
		ss_jsonw_u64(w, "running_req", x->iv[i].running_req);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
}

void ss_sec_logs_json(struct ss_jsonw *w, const struct ss_server_family *f)
{
	ss_sec_server_head_json(w, f);
	if (f->row->engine == SS_ENGINE_VLLM)
		vllm_json(w, f);
	else
		sglang_json(w, f);
	ss_jsonw_end_object(w);
}

static void plural(struct ss_buf *b, uint64_t n, const char *one, const char *many)
{
	ss_buf_add_u64_grouped(b, n);
	ss_buf_addc(b, ' ');
	ss_buf_adds(b, n == 1 ? one : many);
}

static void vllm_line(struct ss_buf *b, const struct ss_server_family *f)
{
	bool comma = false;

	if (f->has_acceptance_length) {
		ss_buf_adds(b, " acceptance length ");
		ss_buf_add_fixed2_grouped(b, f->acceptance_length);
		comma = true;
	}
	if (f->has_rate) {
		ss_buf_adds(b, comma ? ", draft acceptance rate " : " draft acceptance rate ");
		ss_buf_add_fixed2_grouped(b, f->draft_acceptance_rate);
		ss_buf_addc(b, '%');
		comma = true;
	}
	ss_buf_adds(b, comma ? ", " : " ");
	if (f->log->assumes_full) {
		ss_buf_add_u128_grouped(b, f->steps);
		ss_buf_adds(b, f->steps == 1 ? " step, " : " steps, ");
	}
	ss_buf_add_u128_grouped(b, f->draft_tokens);
	ss_buf_adds(b, " drafted, ");
	ss_buf_add_u128_grouped(b, (unsigned __int128)f->accepted_tokens);
	ss_buf_adds(b, " accepted");
	if (f->npositions) {
		ss_buf_adds(b, "; by position (printed rates, weighted by steps):");
		for (size_t i = 0; i < f->npositions; i++) {
			ss_buf_adds(b, i ? ", " : " ");
			if (f->positions[i].has_rate)
				ss_buf_addf(b, "%.3f", f->positions[i].rate);
			else
				ss_buf_adds(b, "-");
		}
	}
}

static void sglang_line(struct ss_buf *b, const struct ss_server_family *f)
{
	const struct ss_server_logfam *x = f->log;

	ss_buf_adds(b, " accept len mean ");
	ss_buf_add_fixed2_grouped(b, x->mean);
	ss_buf_adds(b, " (weighted by #running-req ");
	ss_buf_add_fixed2_grouped(b, x->weighted_mean);
	ss_buf_adds(b, ", min ");
	ss_buf_add_fixed2_grouped(b, x->min);
	ss_buf_adds(b, ", max ");
	ss_buf_add_fixed2_grouped(b, x->max);
	ss_buf_adds(b, ", last ");
	ss_buf_add_fixed2_grouped(b, x->last);
	ss_buf_adds(b, "); by #running-req:");
	for (size_t i = 0; i < x->nbuckets; i++) {
		ss_buf_adds(b, i ? ", " : " ");
		ss_buf_add_u64_grouped(b, x->buckets[i].running_req);
		ss_buf_adds(b, ": ");
		ss_buf_add_fixed2_grouped(b, x->buckets[i].mean);
		ss_buf_adds(b, " (");
		plural(b, x->buckets[i].lines, "line", "lines");
		ss_buf_addc(b, ')');
	}
}

static void notes(struct ss_buf *b, const struct ss_server_family *f, const char *lead)
{
	const struct ss_server_logfam *x = f->log;

	if (f->row->engine == SS_ENGINE_VLLM) {
		if (x->assumes_full)
			ss_buf_addf(b, "%ssteps assume full-length drafts (drafted tokens / positions "
				       "per line, checked against the printed mean)\n", lead);
		if (x->unpinned) {
			ss_buf_addf(b, "%s", lead);
			plural(b, x->unpinned, "line does", "lines do");
			ss_buf_adds(b, " not pin their steps (adaptive or batch-size-dependent draft "
				       "lengths): no steps or acceptance length\n");
		}
		if (f->npositions)
			ss_buf_addf(b, "%sinexact: the position rates come from rates printed with "
				       "three decimals%s\n", lead,
				    x->unpinned ? ", of the lines that pin their steps" : "");
		if (x->unknown_items) {
			ss_buf_addf(b, "%s", lead);
			plural(b, x->unknown_items, "unknown item", "unknown items");
			ss_buf_adds(b, " (a fork's fields) ignored\n");
		}
	} else {
		ss_buf_addf(b, "%sestimated: the printed accept len of each line (40 decode passes), "
			       "with no weights; accept rate is never read\n", lead);
	}
}

void ss_sec_logs_text(struct ss_buf *out, const struct ss_server_family *f, bool md)
{
	const char *lead = md ? "" : "  ";

	ss_buf_adds(out, md ? "\n" : lead);
	ss_buf_adds(out, ss_engine_name(f->row->engine));
	ss_buf_adds(out, " (log), ");
	plural(out, f->log->lines, "line", "lines");
	ss_buf_adds(out, ", ");
	plural(out, f->log->processes, "process", "processes");
	ss_buf_addc(out, ':');
	if (f->row->engine == SS_ENGINE_VLLM)
		vllm_line(out, f);
	else
		sglang_line(out, f);
	ss_buf_addc(out, '\n');
	if (md)
		ss_buf_addc(out, '\n');
	notes(out, f, md ? "- " : "  note: ");
}

void ss_sec_logs_html(struct ss_buf *out, const struct ss_server_family *f)
{
	struct ss_buf t = SS_BUF_INIT;

	/* the console's words (specscan's own text: numbers and fixed words) */
	ss_sec_logs_text(&t, f, true);
	ss_buf_adds(out, "<h3>");
	ss_buf_adds(out, ss_engine_name(f->row->engine));
	ss_buf_adds(out, " <span class=\"note\">(log lines)</span></h3>\n<pre>");
	for (size_t i = 0; i < t.len; i++) {
		char c = t.data[i];

		if (c == '<')
			ss_buf_adds(out, "&lt;");
		else if (c == '>')
			ss_buf_adds(out, "&gt;");
		else if (c == '&')
			ss_buf_adds(out, "&amp;");
		else
			ss_buf_addc(out, c);
	}
	ss_buf_adds(out, "</pre>\n");
	out->failed |= t.failed;
	ss_buf_release(&t);
}
