/*
 * logreq.c - a llama.cpp task block as a record (SPEC 12.4).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/logreq.h"

#include "engines/processor.h"
#include "json/json.h"
#include "logs/harness.h"
#include "model/outcome.h"

enum ss_status ss_record_from_llama_task(const struct ss_llama_task *t, struct ss_record *r,
					 char *why, size_t whylen)
{
	ss_record_reset(r);
	strcpy(r->engine, "llamacpp");
	if (t->has_prompt) {
		r->has_prompt_tokens = true;
		r->prompt_tokens = (int64_t)t->prompt_tokens;
	}
	if (t->has_eval) {
		r->has_completion_tokens = true;
		r->completion_tokens = (int64_t)t->eval_tokens;
	}
	if (t->bad_draft) {
		snprintf(why, whylen, "a draft line of the block does not parse: %s", t->bad_draft);
		return SS_ST_MALFORMED;
	}
	if (!t->has_draft) {
		snprintf(why, whylen, "a task block without a draft line (no draft model)");
		return SS_ST_NO_STATS;
	}
	if (t->malformed) {
		snprintf(why, whylen, "%llu accepted of %llu generated draft tokens",
			 (unsigned long long)t->accepted, (unsigned long long)t->generated);
		return SS_ST_MALFORMED;
	}
	r->num_accepted_draft_tokens = (int64_t)t->accepted;
	r->num_draft_tokens = (int64_t)t->generated;
	if (t->steps_known) {
		r->has_steps = true;
		r->num_spec_steps = (int64_t)t->steps;
		if (t->k) {
			r->has_spec_tokens = true;
			r->num_spec_tokens = (int64_t)t->k;
		}
	}
	if (t->hist_known) {
		for (size_t j = 0; j <= t->k; j++) {
			if (!SS_VEC_PUSH(&r->histogram, (int64_t)t->hist[j])) {
				snprintf(why, whylen, "out of memory");
				return SS_ST_ERROR;
			}
		}
		r->has_histogram = true;
	}
	ss_record_compute_rate(r);
	ss_record_compute_mean(r);
	if (!ss_record_check(r, why, whylen))
		return SS_ST_MALFORMED;
	return ss_record_status(r);
}

/* A double as the shortest text that reads back the same, in t. */
static const char *num_text(char t[40], double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(t, 40, "%.*g", prec, v);
		if (strtod(t, NULL) == v)
			break;
	}
	return t;
}

/* A count as its decimal text, in t. */
static const char *count_text(char t[40], uint64_t n)
{
	snprintf(t, 40, "%" PRIu64, n);
	return t;
}

/* One metric of the composed `metrics` object: `"tag":{"value":V,"unit":"U"}`. */
static void add_metric(struct ss_buf *b, bool *first, const char *tag, const char *value,
		       const char *unit)
{
	ss_buf_adds(b, *first ? "{\"" : ",\"");
	*first = false;
	ss_buf_adds(b, tag);
	ss_buf_adds(b, "\":{\"value\":");
	ss_buf_adds(b, value);
	ss_buf_adds(b, ",\"unit\":\"");
	ss_buf_adds(b, unit);
	ss_buf_adds(b, "\"}");
}

/*
 * The composed texts in b as the outcome's views: `metadata` its first
 * meta_len bytes, `metrics` the rest when any; padded for the JSON reader.
 * One reader of composed text for the llama.cpp blocks and the harness
 * lines alike; the meta.NAME keys read from that `metadata` (on the inner
 * parser: the outer one holds a harness line). false: out of memory.
 */
static bool compose_views(struct ss_processor *p, struct ss_buf *b, size_t meta_len,
			  struct ss_outcome *o)
{
	if (!ss_buf_grow(b, SSJ_PADDING) || b->failed)
		return false;
	memset(b->data + b->len, ' ', SSJ_PADDING);
	o->metadata = b->data;
	o->metadata_len = meta_len;
	ss_meta_keys_read_span(&p->metakeys, p->inner, b->data, meta_len);
	if (!ss_meta_keys_attach(&p->metakeys, o))
		return false;
	if (b->len > meta_len) {
		o->metrics = b->data + meta_len;
		o->metrics_len = b->len - meta_len;
	}
	return true;
}

/* Whether a prefix time is plain RFC 3339 text (nothing to escape). */
static bool plain_time(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= 'a' && *s <= 'z') || *s == ':' || *s == '.' || *s == '+' || *s == '-'))
			return false;
	return true;
}

bool ss_process_llama_task(struct ss_processor *p, const struct ss_llama_task *t, uint64_t line,
			   struct ss_outcome *o)
{
	struct ss_buf *b = &p->logtext;
	enum ss_status st;
	size_t meta_len;
	bool first = true;
	char v[40];

	memset(o, 0, sizeof(*o));
	o->kind = SS_KIND_LOG;
	o->phase = SS_PHASE_PROFILING;
	o->line = line;
	st = ss_record_from_llama_task(t, &p->rec, o->reason, sizeof(o->reason));
	if (st == SS_ST_ERROR && strcmp(o->reason, "out of memory") == 0)
		return false;
	o->status = st == SS_ST_OK || st == SS_ST_ZERO_STEP ? SS_ST_OK : st;
	ss_outcome_record(p, o);
	if (o->status != SS_ST_OK && o->status != SS_ST_ZERO_STEP)
		o->record = NULL;

	ss_buf_reset(b);
	ss_buf_adds(b, "{\"slot\":");
	ss_buf_add_i64(b, t->slot);
	ss_buf_adds(b, ",\"task\":");
	ss_buf_add_i64(b, t->task);
	if (plain_time(t->time)) {
		ss_buf_adds(b, ",\"time\":\"");
		ss_buf_adds(b, t->time);
		ss_buf_addc(b, '"');
	}
	ss_buf_addc(b, '}');
	meta_len = b->len;
	/* SPEC 12.4 with 11.1: the block's times */
	if (t->has_prompt)
		add_metric(b, &first, "time_to_first_token", num_text(v, t->prompt_ms), "ms");
	if (t->has_itl)
		add_metric(b, &first, "inter_token_latency", num_text(v, t->itl_ms), "ms");
	if (t->has_total)
		add_metric(b, &first, "request_latency", num_text(v, t->total_ms), "ms");
	if (t->has_eval)
		add_metric(b, &first, "output_sequence_length", count_text(v, t->eval_tokens),
			   "tokens");
	if (!first)
		ss_buf_addc(b, '}');
	return compose_views(p, b, meta_len, o);
}

bool ss_harness_line(struct ss_processor *p, struct ss_outcome *o, bool *taken)
{
	struct ss_harness_req h;
	enum ss_harness_status st = ss_harness_visit(p->outer, &h);
	struct ss_record *r = &p->rec;
	struct ss_buf *b = &p->logtext;
	size_t meta_len;

	*taken = st != SS_HARNESS_NOT;
	if (!*taken)
		return true;
	o->kind = SS_KIND_HARNESS;
	/* metadata {"question_id", "category"}: the values as written */
	ss_buf_reset(b);
	ss_buf_addc(b, '{');
	if (h.question_id_len) {
		ss_buf_adds(b, "\"question_id\":");
		ss_buf_add(b, h.question_id, h.question_id_len);
	}
	if (h.category_len) {
		ss_buf_adds(b, h.question_id_len ? ",\"category\":" : "\"category\":");
		ss_buf_add(b, h.category, h.category_len);
	}
	ss_buf_addc(b, '}');
	meta_len = b->len;
	if (h.has_latency && isfinite(h.latency_s * 1000.0)) {
		bool first = true;
		char v[40];

		/* SPEC 12.5 with 11.1: the turns' wall time is the request's latency */
		add_metric(b, &first, "request_latency", num_text(v, h.latency_s * 1000.0), "ms");
		if (h.has_completion)
			add_metric(b, &first, "output_sequence_length",
				   count_text(v, h.completion_tokens), "tokens");
		ss_buf_addc(b, '}');
	}
	if (!compose_views(p, b, meta_len, o))
		return false;
	if (h.model_len && !ss_outcome_model(p, o, (struct ss_span){h.model, h.model_len}))
		return false;
	if (st == SS_HARNESS_MALFORMED || st == SS_HARNESS_UNRECOGNIZED) {
		ss_outcome_set(o, st == SS_HARNESS_MALFORMED ? SS_ST_MALFORMED : SS_ST_UNRECOGNIZED,
			       h.why);
		return true;
	}
	if (p->opts.only_engine != SS_ENGINE_NONE &&
	    p->opts.only_engine != (h.engine == SS_HARNESS_SPEC_BENCH ? SS_ENGINE_SPEC_BENCH
								      : SS_ENGINE_EAGLE)) {
		ss_outcome_set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
		return true;
	}
	ss_record_reset(r);
	strcpy(r->engine, h.engine == SS_HARNESS_SPEC_BENCH ? "spec_bench" : "eagle");
	r->has_num_draft_tokens = false;   /* SPEC 2.4: neither harness records them */
	r->has_steps = true;
	r->num_spec_steps = (int64_t)h.steps;
	r->num_accepted_draft_tokens = (int64_t)h.accepted;
	if (h.has_completion && h.completion_tokens <= INT64_MAX) {
		r->has_completion_tokens = true;
		r->completion_tokens = (int64_t)h.completion_tokens;
	}
	if (h.has_hist) {
		for (size_t j = 0; j <= h.k; j++)
			if (!SS_VEC_PUSH(&r->histogram, (int64_t)h.hist[j]))
				return false;
		r->has_histogram = true;
	}
	ss_record_compute_mean(r);
	o->status = SS_ST_OK;
	ss_outcome_record(p, o);
	return true;
}
