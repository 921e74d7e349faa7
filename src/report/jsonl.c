/*
 * jsonl.c - the enriched per-request line (SPEC 4.4): where the request
 * came from, its metadata, its metrics, its record and its status.
 */
#include <string.h>

#include "report/jsonw.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"

/* Said when an adapter gave no reason of its own. */
static const char *const default_reasons[SS_ST_COUNT] = {
	[SS_ST_OK] = "",
	[SS_ST_ZERO_STEP] = "no verify step was taken",
	[SS_ST_NO_STATS] = "no speculative-decoding payload",
	[SS_ST_UNRECOGNIZED] = "not recognised",
	[SS_ST_AMBIGUOUS] = "more than one speculative-decoding payload",
	[SS_ST_MULTI_CHOICE] = "more than one choice",
	[SS_ST_MALFORMED] = "malformed payload",
	[SS_ST_ERROR] = "the request failed",
	[SS_ST_CANCELLED] = "the request was cancelled",
	[SS_ST_NO_CONTENT] = "no content in the response",
	[SS_ST_UNPARSABLE] = "not a JSON object",
	[SS_ST_OVERSIZE] = "larger than --max-record-size",
};

static bool is_spec_decode_tag(const char *k, size_t n)
{
	for (int m = 0; m < SS_M_COUNT; m++) {
		const char *t = ss_metric_table[m].tag;

		if (strlen(t) == n && memcmp(t, k, n) == 0)
			return true;
	}
	return false;
}

static void add_key(struct ss_buf *b, const char *k)
{
	ss_buf_add_json_string(b, k, strlen(k));
	ss_buf_addc(b, ':');
}

/* Specscan's per-request metrics of an ok request, each after a comma
 * unless *first. */
static void add_own_metrics(struct ss_buf *b, const struct ss_outcome *o,
			    bool *first)
{
	if (o->status != SS_ST_OK)
		return;
	for (int m = 0; m < SS_M_COUNT; m++) {
		const struct ss_metric_info *mi = &ss_metric_table[m];

		if (!mi->per_request || !o->values.has[m])
			continue;
		if (!*first)
			ss_buf_addc(b, ',');
		*first = false;
		add_key(b, mi->tag);
		ss_buf_adds(b, "{\"value\":");
		if (mi->integral)
			ss_buf_add_i64(b, o->values.iv[m]);
		else
			ss_buf_add_double(b, o->values.v[m]);
		ss_buf_adds(b, ",\"unit\":");
		ss_buf_add_json_string(b, mi->unit, strlen(mi->unit));
		ss_buf_addc(b, '}');
	}
}

/* SPEC 11.1: timing is taken from these requests. */
static bool timing_status(enum ss_status s)
{
	return s == SS_ST_OK || s == SS_ST_ZERO_STEP || s == SS_ST_NO_STATS;
}

/* A raw request's timing (SPEC 4.4, 11.1), when it has a time: after the
 * spec-decode metrics, in 11.2's order, the output length last. */
static bool has_raw_timing(const struct ss_outcome *o)
{
	return o->kind == SS_KIND_RAW && !o->input && timing_status(o->status) &&
	       ss_timing_any(&o->timing);
}

static void add_raw_timing(struct ss_buf *b, const struct ss_outcome *o, bool *first)
{
	const struct ss_timing *t = &o->timing;

	if (!has_raw_timing(o))
		return;
	for (int i = 0; i < SS_T_COUNT; i++) {
		if (!t->has[i])
			continue;
		if (!*first)
			ss_buf_addc(b, ',');
		*first = false;
		add_key(b, ss_time_tags[i]);
		ss_buf_adds(b, "{\"value\":");
		ss_buf_add_double(b, t->ms[i]);
		ss_buf_adds(b, ",\"unit\":\"ms\"}");
	}
	if (t->has_output) {
		if (!*first)
			ss_buf_addc(b, ',');
		*first = false;
		add_key(b, "output_sequence_length");
		ss_buf_adds(b, "{\"value\":");
		ss_buf_add_i64(b, t->output_tokens);
		ss_buf_adds(b, ",\"unit\":\"tokens\"}");
	}
}

struct rewrite {
	struct ss_buf *b;
	bool first;
};

/* Copy one field of a records line's metrics unless specscan replaces it. */
static int copy_field(void *ctx, const char *key, size_t keylen,
		      struct ssj_value *v)
{
	struct rewrite *rw = ctx;
	const char *raw;
	size_t n;

	if (is_spec_decode_tag(key, keylen))
		return 0;
	if (ssj_value_raw_json(v, &raw, &n) != SSJ_OK)
		return 1;
	if (!rw->first)
		ss_buf_addc(rw->b, ',');
	rw->first = false;
	ss_buf_add_json_string(rw->b, key, keylen);
	ss_buf_addc(rw->b, ':');
	ss_buf_add(rw->b, raw, n);
	return 0;
}

static bool has_own_metrics(const struct ss_outcome *o)
{
	if (o->status != SS_ST_OK)
		return false;
	for (int m = 0; m < SS_M_COUNT; m++)
		if (ss_metric_table[m].per_request && o->values.has[m])
			return true;
	return false;
}

static void add_metrics(struct ss_buf *b, struct ssj_parser *parser,
			const struct ss_outcome *o)
{
	size_t mark = b->len;
	struct rewrite rw = {b, true};

	if (o->metrics_len == 0 && !has_own_metrics(o) && !has_raw_timing(o))
		return;
	ss_buf_adds(b, ",\"metrics\":{");
	if (o->metrics_len && parser) {
		size_t body = b->len;

		/*
		 * The span lies inside the request's line, which `parser`
		 * holds open: it is visited there, not indexed again.
		 */
		if (ssj_visit_span(parser, o->metrics, o->metrics_len, copy_field, &rw) != SSJ_OK) {
			/* unreadable: keep only specscan's own metrics */
			ss_buf_setlen(b, body);
			rw.first = true;
		}
	}
	add_own_metrics(b, o, &rw.first);
	add_raw_timing(b, o, &rw.first);
	if (rw.first && o->metrics_len == 0) {
		ss_buf_setlen(b, mark); /* nothing to say */
		return;
	}
	ss_buf_addc(b, '}');
}

static void add_i64_array(struct ss_buf *b, const struct ss_vec_i64 *a)
{
	ss_buf_addc(b, '[');
	for (size_t i = 0; i < a->len; i++) {
		if (i)
			ss_buf_addc(b, ',');
		ss_buf_add_i64(b, a->v[i]);
	}
	ss_buf_addc(b, ']');
}

static void add_i64_field(struct ss_buf *b, const char *k, int64_t v)
{
	ss_buf_addc(b, ',');
	add_key(b, k);
	ss_buf_add_i64(b, v);
}

/* The record (SPEC 2.4), keys in that table's order, absent ones left out. */
static void add_record(struct ss_buf *b, const struct ss_record *r)
{
	ss_buf_addc(b, '{');
	add_key(b, "engine");
	ss_buf_add_json_string(b, ss_record_engine(r), strlen(ss_record_engine(r)));
	if (r->has_mean_acceptance_length) {
		ss_buf_addc(b, ',');
		add_key(b, "mean_acceptance_length");
		ss_buf_add_double(b, r->mean_acceptance_length);
	}
	if (r->has_num_draft_tokens) {
		ss_buf_addc(b, ',');
		add_key(b, "draft_acceptance_rate");
		ss_buf_add_double(b, r->draft_acceptance_rate);
	}
	if (r->has_histogram) {
		bool first = true;

		ss_buf_addc(b, ',');
		add_key(b, "acceptance_histogram");
		ss_buf_addc(b, '{');
		for (size_t j = 0; j < r->histogram.len; j++) {
			if (!r->histogram.v[j])
				continue;
			if (!first)
				ss_buf_addc(b, ',');
			first = false;
			ss_buf_addc(b, '"');
			ss_buf_add_u64(b, (uint64_t)j);
			ss_buf_adds(b, "\":");
			ss_buf_add_i64(b, r->histogram.v[j]);
		}
		ss_buf_addc(b, '}');
	}
	add_i64_field(b, "num_accepted_draft_tokens", r->num_accepted_draft_tokens);
	if (r->has_num_draft_tokens)   /* SPEC 2.4: the harness engines have none */
		add_i64_field(b, "num_draft_tokens", r->num_draft_tokens);
	if (r->has_steps)
		add_i64_field(b, "num_spec_steps", r->num_spec_steps);
	if (r->has_spec_tokens)
		add_i64_field(b, "num_spec_tokens", r->num_spec_tokens);
	if (r->has_completion_tokens)
		add_i64_field(b, "completion_tokens", r->completion_tokens);
	if (r->has_prompt_tokens)
		add_i64_field(b, "prompt_tokens", r->prompt_tokens);
	if (r->has_reasoning_tokens)   /* SPEC 11.4 */
		add_i64_field(b, "reasoning_tokens", r->reasoning_tokens);
	if (r->has_per_step_accepted) {
		ss_buf_addc(b, ',');
		add_key(b, "per_step_accepted");
		add_i64_array(b, &r->per_step_accepted);
	}
	if (r->has_per_step_drafted) {
		ss_buf_addc(b, ',');
		add_key(b, "per_step_drafted");
		add_i64_array(b, &r->per_step_drafted);
	}
	if (r->has_by_draft_length) {
		size_t at = 0;
		int64_t d;
		const int64_t *c;
		bool first = true;

		ss_buf_addc(b, ',');
		add_key(b, "acceptance_histogram_by_draft_length");
		ss_buf_addc(b, '{');
		while (ss_record_bdl_next(r, &at, &d, &c)) {
			struct ss_vec_i64 row = {(int64_t *)c, (size_t)d + 1, 0};

			if (!first)
				ss_buf_addc(b, ',');
			first = false;
			ss_buf_addc(b, '"');
			ss_buf_add_i64(b, d);
			ss_buf_adds(b, "\":");
			add_i64_array(b, &row);
		}
		ss_buf_addc(b, '}');
	}
	ss_buf_addc(b, '}');
}

void ss_report_jsonl(struct ss_buf *out, struct ssj_parser *parser,
		     const char *input_name, const struct ss_outcome *o)
{
	enum ss_status st = (unsigned)o->status < SS_ST_COUNT ? o->status : SS_ST_UNRECOGNIZED;
	const char *kind = ss_kind_name(o->kind);

	if (o->verbatim) {
		/* an enriched line read back is written back unchanged (SPEC 8.1) */
		ss_buf_add(out, o->verbatim, o->verbatim_len);
		ss_buf_addc(out, '\n');
		return;
	}
	ss_buf_adds(out, "{\"source\":{\"input\":");
	if (o->input)  /* an enriched line read back keeps its source */
		ss_buf_add_json_string(out, o->input, o->input_len);
	else
		ss_buf_add_json_string(out, input_name, strlen(input_name));
	ss_buf_adds(out, ",\"line\":");
	ss_buf_add_u64(out, o->line);
	ss_buf_adds(out, ",\"kind\":");
	ss_buf_add_json_string(out, kind, strlen(kind));
	if (o->has_concurrency) {   /* SPEC 11.4 */
		ss_buf_adds(out, ",\"concurrency\":");
		ss_buf_add_i64(out, o->concurrency);
	}
	ss_buf_addc(out, '}');
	if (o->model) {
		ss_buf_adds(out, ",\"model\":");
		ss_buf_add_json_string(out, o->model, o->model_len);
	}

	if (o->metadata_len) {
		ss_buf_adds(out, ",\"metadata\":");
		ss_buf_add(out, o->metadata, o->metadata_len);
	}
	add_metrics(out, parser, o);
	if (o->record && (st == SS_ST_OK || st == SS_ST_ZERO_STEP)) {
		ss_buf_adds(out, ",\"spec_decode_acceptance\":");
		add_record(out, o->record);
	}
	ss_buf_adds(out, ",\"spec_decode_status\":");
	ss_buf_add_json_string(out, ss_status_name(st), strlen(ss_status_name(st)));
	if (st != SS_ST_OK) {
		const char *why = o->reason[0] ? o->reason : default_reasons[st];

		ss_buf_adds(out, ",\"spec_decode_reason\":");
		ss_buf_add_json_string(out, why, strnlen(why, SS_REASON_MAX));
	}
	ss_buf_adds(out, "}\n");
}
