/*
 * request.c - one framed request to one outcome, in the order of SPEC
 * 2.1: the line opened and walked (linewalk.c), its kind detected, and
 * each status tried in turn; a line specscan wrote goes to enriched.c.
 */
#include "engines/request.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"
#include "engines/keyscan.h"
#include "engines/processor.h"
#include "json/unescape.h"
#include "util/text.h"

/* ---- error reasons ---- */

struct error_scan {
	char text[120];
	bool found;
};

static int error_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct error_scan *e = ctx;
	const char *s;
	size_t len;

	if ((ss_key_is(key, n, "message") || (!e->found && ss_key_is(key, n, "type"))) &&
	    ssj_value_type(v) == SSJ_STRING && ssj_value_string(v, &s, &len) == SSJ_OK &&
	    len > 0) {
		snprintf(e->text, sizeof(e->text), "%.*s", (int)(len < 100 ? len : 100), s);
		e->found = true;
	}
	return 0;
}

static void error_reason(struct ss_processor *p, struct ss_span v, char *why, size_t whylen)
{
	struct error_scan e;

	memset(&e, 0, sizeof(e));
	if (v.p && v.n && v.p[0] == '{')
		(void)ssj_visit_span(p->outer, v.p, v.n, error_field, &e);
	if (!e.found && v.p && v.n && v.p[0] == '"') {
		struct ss_buf b = SS_BUF_INIT;

		if (ss_json_unescape(v.p + 1, v.n >= 2 ? v.n - 2 : 0, &b) && b.len) {
			snprintf(e.text, sizeof(e.text), "%.*s", (int)(b.len < 100 ? b.len : 100),
				 b.data);
			e.found = true;
		}
		ss_buf_release(&b);
	}
	if (e.found)
		snprintf(why, whylen, "request failed: %s", e.text);
	else
		snprintf(why, whylen, "request failed");
	ss_reason_sanitize(why);
}

/* ---- the decision ---- */

static bool engine_allowed(const struct ss_processor *p, const struct ss_adapter *a)
{
	return p->opts.only_engine == SS_ENGINE_NONE || p->opts.only_engine == a->engine;
}

/*
 * Map the captured payload through the adapter that claims it. `in_line`:
 * it was captured from the line, still open (a body), and is visited
 * where it lies; else its copy is read (the chunk or event it came from
 * may be gone).
 */
static bool map_payload(struct ss_processor *p, struct ss_outcome *o, bool in_line)
{
	const struct ss_adapter *claim = NULL, *other = NULL;
	struct ss_reader rd;
	enum ssj_status s;

	if (in_line) {
		s = ss_payload_collect(&p->pl, p->outer, p->cap.payload_at, p->cap.payload.len);
	} else {
		ssj_close(p->inner);
		s = ss_payload_collect(&p->pl, p->inner, p->cap.payload.data, p->cap.payload.len);
	}
	if (s == SSJ_ENOMEM)
		return false;
	if (s != SSJ_OK) {
		/* not expected: the payload's text was checked with its object */
		snprintf(o->reason, sizeof(o->reason), "payload: %s", ssj_strerror(s));
		o->status = SS_ST_MALFORMED;
		return true;
	}
	for (const struct ss_adapter *const *a = ss_adapters; *a; a++) {
		if (!engine_allowed(p, *a) || !(*a)->claims(&p->pl))
			continue;
		if (!claim)
			claim = *a;
		else
			other = *a;
	}
	if (!claim) {
		ss_outcome_set(o, SS_ST_UNRECOGNIZED,
			       p->opts.only_engine != SS_ENGINE_NONE
				       ? "payload not claimed by the adapter chosen with --engine"
				       : "payload not claimed by any adapter");
		return true;
	}
	if (other) {
		snprintf(o->reason, sizeof(o->reason), "payload claimed by both %s and %s",
			 ss_engine_name(claim->engine), ss_engine_name(other->engine));
		o->status = SS_ST_AMBIGUOUS;
		return true;
	}
	ss_reader_init(&rd, &p->pl, o->reason, sizeof(o->reason));
	if (!claim->map(&rd, &p->rec)) {
		o->status = SS_ST_MALFORMED;
		return true;
	}
	if (p->cap.has_completion_tokens) {
		p->rec.has_completion_tokens = true;
		p->rec.completion_tokens = p->cap.completion_tokens;
	}
	if (p->cap.has_prompt_tokens) {
		p->rec.has_prompt_tokens = true;
		p->rec.prompt_tokens = p->cap.prompt_tokens;
	}
	if (p->cap.has_reasoning_tokens) {
		p->rec.has_reasoning_tokens = true;
		p->rec.reasoning_tokens = p->cap.reasoning_tokens;
	}
	o->status = SS_ST_OK;
	return true;
}

/*
 * What a request without a payload showed instead, the likeliest cause
 * first (SPEC 5, "When nothing shows up"). A stream is an SSE capture or
 * a raw line of several responses; one without a usage chunk cannot have
 * had vLLM's per-request metrics, which come with it. In a stream only a
 * `metrics` object beside a `usage` key counts (capture.h: the chunks the
 * prefilter may skip say nothing); a body, or a raw line's one response,
 * is read whole either way.
 */
static enum ss_nostats_cause nostats_cause(const struct ss_processor *p, bool in_line,
					   bool stream)
{
	const struct ss_capture *c = &p->cap;

	if (in_line || !stream ? c->metrics_no_sd : c->metrics_with_usage)
		return SS_NOSTATS_VLLM_FLAG;
	if (c->timings_no_draft)
		return SS_NOSTATS_LLAMACPP_DRAFT;
	if (c->meta_no_verify)
		return SS_NOSTATS_SGLANG_OFF;
	if (stream && !c->saw_usage)
		return SS_NOSTATS_STREAM_USAGE;
	return SS_NOSTATS_GENERAL;
}

/* A line read as a kind it is not (--input-kind) says so: it has no
 * content because it has none of that kind's keys. */
static const char *no_content_reason(const struct ss_processor *p)
{
	const struct line_scan *ls = &p->scan;

	if (p->opts.force_kind == SS_KIND_RAW && !ls->has_responses)
		return "no responses array (read as raw: --input-kind raw)";
	if (p->opts.force_kind == SS_KIND_BODY &&
	    !(ls->has_choices || ls->has_meta_info || ls->has_timings))
		return "no choices, meta_info or timings (read as a body: --input-kind body)";
	return "no response carries content";
}

/* raw, body and sse requests, once their objects were captured (orders
 * 4 to 11); `in_line`: the one object was the line itself (a body);
 * `stream`: the objects were the chunks of a stream. */
static bool decide_captured(struct ss_processor *p, struct ss_outcome *o, bool multi_n,
			    bool in_line, bool stream)
{
	struct ss_capture *c = &p->cap;

	if (c->nomem)
		return false;
	if (multi_n) {
		snprintf(o->reason, sizeof(o->reason), "the request asked for n = %lld choices",
			 (long long)p->scan.n);
		o->status = SS_ST_MULTI_CHOICE;
		return true;
	}
	if (c->multi_choice) {
		ss_outcome_set(o, SS_ST_MULTI_CHOICE, c->multi_reason);
		return true;
	}
	if (!c->content) {
		ss_outcome_set(o, SS_ST_NO_CONTENT, no_content_reason(p));
		return true;
	}
	if (c->payload_objects == 0) {
		ss_outcome_set(o, SS_ST_NO_STATS, ss_nostats_reason(nostats_cause(p, in_line, stream)));
		return true;
	}
	if (c->payload_objects > 1 && !c->all_timings) {
		snprintf(o->reason, sizeof(o->reason), "%u responses carry a spec-decode payload",
			 c->payload_objects);
		o->status = SS_ST_AMBIGUOUS;
		return true;
	}
	if (!map_payload(p, o, in_line))
		return false;
	ss_outcome_record(p, o);
	return true;
}

/* A records line (orders 6 to 11): its own spec_decode_acceptance record. */
static bool decide_records(struct ss_processor *p, struct ss_outcome *o)
{
	struct line_scan *ls = &p->scan;
	struct ss_reader rd;
	enum ssj_status s;

	if (!ls->sda_present) {
		ss_outcome_set(o, SS_ST_NO_STATS, ss_nostats_reason(SS_NOSTATS_RECORDS));
		return true;
	}
	if (ls->sda_type != SSJ_OBJECT) {
		ss_outcome_set(o, SS_ST_MALFORMED, "spec_decode_acceptance is not an object");
		return true;
	}
	s = ss_payload_collect(&p->pl, p->outer, ls->sda.p, ls->sda.n);
	if (s == SSJ_ENOMEM)
		return false;
	if (s != SSJ_OK) {
		snprintf(o->reason, sizeof(o->reason), "spec_decode_acceptance: %s",
			 ssj_strerror(s));
		o->status = SS_ST_MALFORMED;
		return true;
	}
	/* SPEC 2.6: --engine decides before any field is checked. */
	if (p->opts.only_engine != SS_ENGINE_NONE) {
		const struct ss_field *eng = &p->pl.f[SS_F_ENGINE];
		const char *want = ss_engine_name(p->opts.only_engine);

		if (ss_field_given(&p->pl, SS_F_ENGINE) && eng->type == SSJ_STRING &&
		    (eng->len != strlen(want) || memcmp(eng->text, want, eng->len) != 0)) {
			ss_outcome_set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
			return true;
		}
	}
	ss_reader_init(&rd, &p->pl, o->reason, sizeof(o->reason));
	if (!ss_records_line_map(&rd, &p->rec)) {
		o->status = SS_ST_MALFORMED;
		return true;
	}
	/* SPEC 11.4: the line's metrics.reasoning_token_count gives t */
	if (ls->has_reasoning) {
		p->rec.has_reasoning_tokens = true;
		p->rec.reasoning_tokens = ls->reasoning;
	}
	if (p->opts.only_engine != SS_ENGINE_NONE &&
	    ss_engine_from_name(ss_record_engine(&p->rec)) != p->opts.only_engine) {
		ss_outcome_set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
		return true;
	}
	o->status = SS_ST_OK;
	ss_outcome_record(p, o);
	return true;
}

/* SPEC 1.3's line kinds, from the walk (or forced with --input-kind). */
static enum ss_kind detect(const struct ss_processor *p)
{
	const struct line_scan *ls = &p->scan;

	if (p->opts.force_kind != SS_KIND_UNKNOWN && p->opts.force_kind != SS_KIND_SSE)
		return p->opts.force_kind;
	/* specscan's own line first: it also has `metadata` and `metrics` */
	if (ls->status.p && ls->source_seen)
		return SS_KIND_ENRICHED;
	if (ls->has_responses)
		return SS_KIND_RAW;
	if (ls->metadata.p && ls->metadata_object && ls->metrics.p)
		return SS_KIND_RECORDS;
	/* SPEC 12.5: checked before body (a harness line has choices) */
	if (ls->has_question_id && ls->has_choices)
		return SS_KIND_HARNESS;
	if (ls->has_choices || ls->has_meta_info || ls->has_timings)
		return SS_KIND_BODY;
	return SS_KIND_UNKNOWN;
}

/*
 * SPEC 11.1: a records or enriched line's timing from its metrics (read,
 * with a records line's reasoning tokens of SPEC 11.4, by the line walk), a raw
 * line's from the perf_ns its walk fed the timer, with c the completion
 * tokens the capture kept (those of the last object that has them).
 */
static void line_timing(struct ss_processor *p, enum ss_kind kind, struct ss_outcome *o)
{
	struct line_scan *ls = &p->scan;

	/* SPEC 11.4: only a records line's metrics give reasoning tokens (an
	 * enriched line's are its own field, records_line.c) */
	if (kind != SS_KIND_RECORDS || !ls->metrics.p)
		ls->has_reasoning = false;
	if ((kind == SS_KIND_RECORDS || kind == SS_KIND_ENRICHED) && ls->metrics.p &&
	    p->opts.want_timing) {
		o->timing = ls->timing;  /* read by the line walk */
	} else if (kind == SS_KIND_RAW && ls->has_responses) {
		if (ls->has_start)
			ss_raw_timer_start(&ls->timer, ls->start);
		ls->timer.has_c = p->cap.has_completion_tokens;
		ls->timer.c = p->cap.completion_tokens;
		ss_raw_timer_finish(&ls->timer, &o->timing);
	}
}

/* One JSONL line, in the order of SPEC 2.1. */
static bool process_line(struct ss_processor *p, const char *text, size_t len,
			 struct ss_outcome *o)
{
	struct line_scan *ls = &p->scan;
	enum ssj_status s;
	enum ss_kind kind;

	/* 1: the line is checked whole as it is opened, then walked */
	s = ss_line_walk(p, text, len);
	if (ls->nomem || p->cap.nomem || s == SSJ_ENOMEM)
		return false;
	if (s != SSJ_OK || ls->failed) {
		ss_outcome_set(o, SS_ST_UNPARSABLE, ssj_strerror(s == SSJ_OK || s == SSJ_STOPPED
								 ? SSJ_ESYNTAX : s));
		return true;
	}
	kind = detect(p);
	if (kind == SS_KIND_HARNESS) {
		bool taken;

		if (!ss_harness_line(p, o, &taken))
			return false;
		if (taken)
			return true;
		if (p->opts.force_kind == SS_KIND_HARNESS) {
			ss_outcome_set(o, SS_ST_UNRECOGNIZED, "not a harness answer line (a question_id "
				       "and a first choice with turns; read as harness: --input-kind "
				       "harness)");
			return true;
		}
		kind = ls->has_choices || ls->has_meta_info || ls->has_timings ? SS_KIND_BODY
									       : SS_KIND_UNKNOWN;
	}
	if (p->opts.want_timing || p->opts.raw_timing || p->opts.want_reasoning)
		line_timing(p, kind, o);
	/* SPEC 7.8: any line's metadata times it (an enriched line's as written) */
	o->timed = p->opts.want_time && ss_meta_time(&ls->meta, &o->time_ns);
	if (kind == SS_KIND_ENRICHED)
		return ss_enriched_line(p, o, text, len);
	o->kind = kind;
	if (ls->metadata.p) {
		o->metadata = ls->metadata.p;
		o->metadata_len = ls->metadata.n;
		if (!ss_meta_keys_attach(&p->metakeys, o))
			return false;
	}
	if (kind == SS_KIND_RECORDS && ls->metrics.p) {
		o->metrics = ls->metrics.p;
		o->metrics_len = ls->metrics.n;
	}
	/* Phase and cancellation are AIPerf's: bodies have no such metadata. */
	if (kind == SS_KIND_RAW || kind == SS_KIND_RECORDS)
		o->phase = ss_meta_phase(&ls->meta);
	if (kind == SS_KIND_UNKNOWN) {
		ss_outcome_set(o, SS_ST_UNRECOGNIZED,
			       "not an AIPerf raw or records line nor a response body");
		return true;
	}
	/* 2: error */
	if ((kind == SS_KIND_RAW || kind == SS_KIND_RECORDS) && ls->error) {
		o->status = SS_ST_ERROR;
		error_reason(p, ls->error_value, o->reason, sizeof(o->reason));
		return true;
	}
	/* 3: cancelled */
	if ((kind == SS_KIND_RAW || kind == SS_KIND_RECORDS) && ls->meta.cancelled) {
		ss_outcome_set(o, SS_ST_CANCELLED, "request was cancelled");
		return true;
	}
	if (kind == SS_KIND_RECORDS)
		return decide_records(p, o);
	/* a body is itself the request's one object, still open */
	if (kind == SS_KIND_BODY && !ss_capture_object(&p->cap, p->outer))
		return false;
	return decide_captured(p, o, kind == SS_KIND_RAW && ls->n_multi, kind == SS_KIND_BODY,
			       kind == SS_KIND_RAW && ls->nresponses > 1);
}

/*
 * SPEC 7.3's model: a raw line's `payload.model`, else the model of the
 * first of the request's objects that names one (a body or records line is
 * its own object; an enriched line's is taken as written, enriched.c).
 */
static bool find_model(struct ss_processor *p, struct ss_outcome *o, bool sse)
{
	const struct line_scan *ls = &p->scan;

	if (!sse && !ls->parsed)
		return true;
	if (!sse && o->kind == SS_KIND_RAW && ls->payload_model.p)
		return ss_outcome_model(p, o, ls->payload_model);
	if (sse || o->kind == SS_KIND_RAW) {
		if (p->cap.has_model) {
			o->model = p->cap.model.data ? p->cap.model.data : "";
			o->model_len = p->cap.model.len;
		}
		return true;
	}
	return ls->model.p ? ss_outcome_model(p, o, ls->model) : true;
}

/* One SSE stream: each event worth it opened (checked whole) and captured. */
static bool process_stream(struct ss_processor *p, const struct ss_request_text *req,
			   struct ss_outcome *o)
{
	o->kind = SS_KIND_SSE;
	for (size_t i = 0; i < req->nparts; i++) {
		enum ssj_status s;

		/*
		 * Most events of a stream are content chunks that can change
		 * nothing once content was seen: the key scan passes them by,
		 * unless full_parse.
		 */
		if (!p->opts.full_parse &&
		    !ss_keyscan_worth_plain(p->cap.content, p->cap.has_model, req->parts[i],
					    req->lens[i]))
			continue;
		/* an event that is not valid JSON gives nothing (README) */
		s = ssj_open(p->inner, req->parts[i], req->lens[i]);
		if (s == SSJ_ENOMEM)
			return false;
		if (s == SSJ_OK && !ss_capture_object(&p->cap, p->inner))
			return false;
	}
	return decide_captured(p, o, false, false, true) && find_model(p, o, true);
}

/* ss_process clears an outcome around its two text arrays and the arena's
 * offsets (set whole when kept), which lie side by side before
 * `engine_long`. */
_Static_assert(offsetof(struct ss_outcome, engine) ==
		       offsetof(struct ss_outcome, reason) + SS_REASON_MAX &&
	       offsetof(struct ss_outcome, kept) ==
		       offsetof(struct ss_outcome, engine) + SS_ENGINE_NAME_MAX &&
	       offsetof(struct ss_outcome, engine_long) ==
		       offsetof(struct ss_outcome, kept) + sizeof(struct ss_outcome_at),
	       "reason, engine and kept are the only fields skipped");

bool ss_process(struct ss_processor *p, const struct ss_request_text *req,
		struct ss_outcome *o)
{
	ss_clear_around(o, sizeof(*o), offsetof(struct ss_outcome, reason),
			offsetof(struct ss_outcome, engine_long));
	o->reason[0] = '\0';
	o->engine[0] = '\0';
	o->line = req->line;
	o->phase = SS_PHASE_PROFILING;
	o->status = SS_ST_OK;
	ss_capture_reset(&p->cap);
	ss_record_reset(&p->rec);
	/*
	 * Nothing of the previous line may survive into this request: its
	 * text may be gone (the document, and the walk's spans that
	 * find_model() reads: found by fuzz_records).
	 */
	ssj_close(p->outer);
	p->scan.parsed = false;

	if (req->oversize) {
		o->kind = req->sse ? SS_KIND_SSE : SS_KIND_UNKNOWN;
		ss_outcome_set(o, SS_ST_OVERSIZE, "record longer than --max-record-size");
		return true;
	}
	if (req->sse)
		return process_stream(p, req, o);
	if (req->nparts != 1) {
		ss_outcome_set(o, SS_ST_UNPARSABLE, "empty record");
		return true;
	}
	if (!process_line(p, req->parts[0], req->lens[0], o))
		return false;
	/* an enriched line has its model as written (enriched.c) */
	if (p->scan.parsed && detect(p) == SS_KIND_ENRICHED)
		return true;
	return find_model(p, o, false);
}
