/*
 * request.c - one framed request to one outcome: detect the line kind,
 * walk the line once, feed the request's objects to the capture, and
 * decide the status in the order of SPEC 2.1.
 */
#include "engines/request.h"

#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"
#include "engines/capture.h"
#include "engines/payload.h"
#include "json/json.h"
#include "util/alloc.h"

struct span {
	const char *p;
	size_t n;
};

/* How far ahead of the element at hand the key scan may run. */
#define SCAN_STEP ((size_t)64 << 10)

/* What the walk over one JSONL line found at its top level. */
struct line_scan {
	struct ss_processor *p;
	bool has_responses;
	bool has_choices, has_meta_info, has_timings;
	struct span metadata;
	struct span metrics;           /* object */
	bool sda_present;              /* spec_decode_acceptance, not null */
	enum ssj_type sda_type;
	struct span sda;
	bool error;                    /* `error` present and not null */
	struct span error_value;
	bool n_multi;
	int64_t n;
	const char *text;              /* the line */
	size_t len;
	size_t hit;                    /* next place a key may be (response_elem) */
	size_t scanned;                /* the line is scanned up to here */
	bool failed;                   /* a walk below the top level failed */
	bool nomem;
};

struct ss_processor {
	struct ss_process_opts opts;
	struct ssj_parser *outer;      /* the line */
	struct ssj_parser *element;    /* one element of `responses` */
	struct ssj_parser *inner;      /* objects, payloads, metadata */
	struct ss_buf chunk;           /* an unescaped object text (padded) */
	struct ss_capture cap;
	struct ss_payload pl;
	struct ss_record rec;
	struct line_scan scan;
	/* one response element: the raw spans of its data packets */
	struct span *parts;
	size_t nparts, parts_cap;
};

struct ss_processor *ss_processor_new(const struct ss_process_opts *opts)
{
	struct ss_processor *p = ss_calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->opts = *opts;
	ss_buf_init(&p->chunk);
	ss_capture_init(&p->cap);
	ss_payload_init(&p->pl);
	ss_record_init(&p->rec);
	p->outer = ssj_parser_new();
	p->element = ssj_parser_new();
	p->inner = ssj_parser_new();
	if (!p->outer || !p->element || !p->inner) {
		ss_processor_free(p);
		return NULL;
	}
	return p;
}

void ss_processor_free(struct ss_processor *p)
{
	if (!p)
		return;
	ssj_parser_free(p->outer);
	ssj_parser_free(p->element);
	ssj_parser_free(p->inner);
	ss_buf_release(&p->chunk);
	ss_capture_release(&p->cap);
	ss_payload_release(&p->pl);
	ss_record_release(&p->rec);
	ss_free(p->parts);
	ss_free(p);
}

static bool key_is(const char *key, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n == l && memcmp(key, lit, l) == 0;
}

/* ---- raw lines: responses[].packets[].value or responses[].text ---- */

struct packet_scan {
	bool is_data;
	bool has_value;
	struct span value;   /* escaped text of the string */
};

static int packet_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct packet_scan *k = ctx;

	if (key_is(key, n, "name")) {
		const char *s;
		size_t len;

		k->is_data = ssj_value_type(v) == SSJ_STRING &&
			     ssj_value_string(v, &s, &len) == SSJ_OK && key_is(s, len, "data");
	} else if (key_is(key, n, "value")) {
		k->has_value = ssj_value_type(v) == SSJ_STRING &&
			       ssj_value_raw_string(v, &k->value.p, &k->value.n) == SSJ_OK;
	}
	return 0;
}

static bool add_part(struct ss_processor *p, struct span s)
{
	if (p->nparts == p->parts_cap) {
		size_t cap = p->parts_cap ? p->parts_cap * 2 : 8;
		struct span *np = ss_reallocarray(p->parts, cap, sizeof(*np));

		if (!np)
			return false;
		p->parts = np;
		p->parts_cap = cap;
	}
	p->parts[p->nparts++] = s;
	return true;
}

static bool is_done(struct span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t'))
		s.p++, s.n--;
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s.n == 6 && memcmp(s.p, "[DONE]", 6) == 0;
}

static int packet_elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct line_scan *ls = ctx;
	struct packet_scan k = {false, false, {NULL, 0}};

	(void)index;
	if (ssj_value_type(v) != SSJ_OBJECT)
		return 0;
	if (ssj_object_foreach(v, packet_field, &k) != SSJ_OK) {
		ls->failed = true;
		return 1;
	}
	if (k.is_data && k.has_value && k.value.n > 0 && !is_done(k.value)) {
		if (!add_part(ls->p, k.value)) {
			ls->nomem = true;
			return 1;
		}
	}
	return 0;
}

static int response_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct line_scan *ls = ctx;
	enum ssj_type t = ssj_value_type(v);

	if (key_is(key, n, "packets") && t == SSJ_ARRAY) {
		if (ssj_array_foreach(v, packet_elem, ls) != SSJ_OK && !ls->nomem)
			ls->failed = true;
	} else if (key_is(key, n, "text") && t == SSJ_STRING) {
		struct span s;

		if (ssj_value_raw_string(v, &s.p, &s.n) != SSJ_OK)
			ls->failed = true;
		else if (s.n > 0 && !add_part(ls->p, s))
			ls->nomem = true;
	}
	return ls->failed || ls->nomem;
}

/*
 * Feed one response element's JSON text (the joined data packets). The
 * element as a whole was judged worth it already (response_elem).
 */
static bool feed_element(struct ss_processor *p)
{
	ss_buf_reset(&p->chunk);
	for (size_t i = 0; i < p->nparts; i++) {
		if (i > 0)
			ss_buf_addc(&p->chunk, '\n');
		if (!ss_json_unescape(p->parts[i].p, p->parts[i].n, &p->chunk)) {
			if (p->chunk.failed)
				return false;
			return true;  /* not a valid string: the text is skipped */
		}
	}
	if (p->chunk.failed || !ss_buf_grow(&p->chunk, SSJ_PADDING))
		return false;
	return ss_capture_object(&p->cap, p->inner, p->chunk.data, p->chunk.len);
}

/*
 * One element of `responses`. Most elements of a stream are content chunks
 * that can change nothing once content was seen: the element's text is
 * skipped over whole and scanned for keys (ss_capture_worth), and only an
 * element worth it is walked, with a parser of its own.
 */
static int response_elem(void *ctx, size_t index, enum ssj_type type, const char *text,
			 size_t len)
{
	struct line_scan *ls = ctx;
	struct ss_processor *p = ls->p;
	struct span raw = {text, len};

	(void)index;
	if (type != SSJ_OBJECT)
		return 0;
	p->nparts = 0;
	if (!p->opts.full_parse) {
		size_t a = (size_t)(raw.p - ls->text), b = a + raw.n;

		if (p->cap.content) {
			/*
			 * Once content was seen only payload and usage keys
			 * matter: a scan ahead over the line, in steps of at
			 * most SCAN_STEP bytes past the element at hand, finds
			 * the next place one may be, and every element before
			 * it is skipped without a look.
			 */
			if (ls->hit == SIZE_MAX || ls->hit < a) {
				ls->hit = SIZE_MAX;
				if (ls->scanned < a)
					ls->scanned = a;
				while (ls->scanned < b) {
					size_t lim = ls->scanned + SCAN_STEP;
					size_t h;

					if (lim < b)
						lim = b;
					if (lim > ls->len)
						lim = ls->len;
					h = ss_capture_next_payload_key(ls->text, ls->scanned, lim);
					if (h < lim) {
						ls->hit = h;
						break;
					}
					ls->scanned = lim;
				}
			}
			if (ls->hit == SIZE_MAX || ls->hit >= b)
				return 0;
			ls->scanned = b;  /* past the hit: look again after it */
		}
		if (!ss_capture_worth(&p->cap, raw.p, raw.n))
			return 0;
	}
	if (ssj_parse(p->element, raw.p, raw.n, response_field, ls) != SSJ_OK && !ls->nomem) {
		ls->failed = true;
		return 1;
	}
	if (ls->nomem)
		return 1;
	if (p->nparts && !feed_element(p)) {
		ls->nomem = true;
		return 1;
	}
	return 0;
}

/* ---- the top level of a JSONL line ---- */

static int payload_n_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct line_scan *ls = ctx;
	const char *t;
	size_t len;
	int64_t x;

	if (key_is(key, n, "n")) {
		ls->n_multi = false;
		if (ssj_value_type(v) == SSJ_NUMBER &&
		    ssj_value_number_text(v, &t, &len) == SSJ_OK) {
			enum ss_int_error e = ss_parse_count(t, len, &x);

			if (e == SS_INT_RANGE || (e == SS_INT_OK && x > 1)) {
				ls->n_multi = true;
				ls->n = e == SS_INT_OK ? x : INT64_MAX;
			}
		}
	}
	return 0;
}

static int line_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct line_scan *ls = ctx;
	struct ss_processor *p = ls->p;
	enum ssj_type t = ssj_value_type(v);
	enum ss_kind force = p->opts.force_kind;

	if (key_is(key, n, "responses")) {
		if (t == SSJ_ARRAY && (force == SS_KIND_UNKNOWN || force == SS_KIND_RAW)) {
			ls->has_responses = true;
			if (ssj_array_foreach_span(v, response_elem, ls) != SSJ_OK && !ls->nomem)
				ls->failed = true;
		}
	} else if (key_is(key, n, "metadata")) {
		ls->metadata.p = NULL;
		if (t == SSJ_OBJECT &&
		    ssj_value_raw_json(v, &ls->metadata.p, &ls->metadata.n) != SSJ_OK)
			ls->failed = true;
	} else if (key_is(key, n, "metrics")) {
		ls->metrics.p = NULL;
		if (t == SSJ_OBJECT &&
		    ssj_value_raw_json(v, &ls->metrics.p, &ls->metrics.n) != SSJ_OK)
			ls->failed = true;
	} else if (key_is(key, n, "spec_decode_acceptance")) {
		ls->sda_present = t != SSJ_NULL;
		ls->sda_type = t;
		ls->sda.p = NULL;
		if (t == SSJ_OBJECT && ssj_value_raw_json(v, &ls->sda.p, &ls->sda.n) != SSJ_OK)
			ls->failed = true;
	} else if (key_is(key, n, "error")) {
		ls->error = t != SSJ_NULL;
		ls->error_value.p = NULL;
		if (ls->error &&
		    ssj_value_raw_json(v, &ls->error_value.p, &ls->error_value.n) != SSJ_OK)
			ls->failed = true;
	} else if (key_is(key, n, "payload")) {
		ls->n_multi = false;
		if (t == SSJ_OBJECT && ssj_object_foreach(v, payload_n_field, ls) != SSJ_OK)
			ls->failed = true;
	} else if (key_is(key, n, "choices")) {
		ls->has_choices = true;
	} else if (key_is(key, n, "meta_info")) {
		ls->has_meta_info = true;
	} else if (key_is(key, n, "timings")) {
		ls->has_timings = true;
	}
	return ls->failed || ls->nomem;
}

/* ---- metadata ---- */

struct meta_scan {
	bool cancelled;
	int phase;          /* -1 unknown */
	int credit_phase;   /* -1 unknown */
};

static int phase_of(struct ssj_value *v)
{
	const char *s;
	size_t n;

	if (ssj_value_type(v) != SSJ_STRING || ssj_value_string(v, &s, &n) != SSJ_OK)
		return -1;
	if (key_is(s, n, "warmup"))
		return SS_PHASE_WARMUP;
	if (key_is(s, n, "profiling"))
		return SS_PHASE_PROFILING;
	return -1;
}

static int meta_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct meta_scan *m = ctx;

	if (key_is(key, n, "was_cancelled")) {
		bool b = false;

		m->cancelled = ssj_value_type(v) == SSJ_BOOL &&
			       ssj_value_bool(v, &b) == SSJ_OK && b;
	} else if (key_is(key, n, "benchmark_phase")) {
		m->phase = phase_of(v);
	} else if (key_is(key, n, "credit_phase")) {
		m->credit_phase = phase_of(v);
	}
	return 0;
}

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

	if ((key_is(key, n, "message") || (!e->found && key_is(key, n, "type"))) &&
	    ssj_value_type(v) == SSJ_STRING && ssj_value_string(v, &s, &len) == SSJ_OK &&
	    len > 0) {
		snprintf(e->text, sizeof(e->text), "%.*s", (int)(len < 100 ? len : 100), s);
		e->found = true;
	}
	return 0;
}

/* Keep a reason printable on one line. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20)
			*s = ' ';
}

static void error_reason(struct ss_processor *p, struct span v, char *why, size_t whylen)
{
	struct error_scan e;

	memset(&e, 0, sizeof(e));
	if (v.p && v.n && v.p[0] == '{')
		ssj_parse(p->inner, v.p, v.n, error_field, &e);
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
	sanitize(why);
}

/* ---- the decision ---- */

static void set(struct ss_outcome *o, enum ss_status s, const char *reason)
{
	o->status = s;
	if (reason)
		snprintf(o->reason, sizeof(o->reason), "%s", reason);
}

static bool engine_allowed(const struct ss_processor *p, const struct ss_adapter *a)
{
	return p->opts.only_engine == SS_ENGINE_NONE || p->opts.only_engine == a->engine;
}

/* Map the captured payload through the adapter that claims it. */
static bool map_payload(struct ss_processor *p, struct ss_outcome *o)
{
	const struct ss_adapter *claim = NULL, *other = NULL;
	enum ssj_status s;

	s = ss_payload_collect(&p->pl, p->inner, p->cap.payload.data, p->cap.payload.len);
	if (s == SSJ_ENOMEM)
		return false;
	if (s != SSJ_OK) {
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
		set(o, SS_ST_UNRECOGNIZED,
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
	if (!claim->map(&p->pl, &p->rec, o->reason, sizeof(o->reason))) {
		o->status = SS_ST_MALFORMED;
		return true;
	}
	if (p->cap.has_completion_tokens) {
		p->rec.has_completion_tokens = true;
		p->rec.completion_tokens = p->cap.completion_tokens;
	}
	o->status = SS_ST_OK;
	return true;
}

static void finish_record(struct ss_processor *p, struct ss_outcome *o)
{
	if (o->status != SS_ST_OK)
		return;
	if (!ss_record_check(&p->rec, o->reason, sizeof(o->reason))) {
		o->status = SS_ST_MALFORMED;
		return;
	}
	o->status = ss_record_status(&p->rec);
	o->record = &p->rec;
	snprintf(o->engine, sizeof(o->engine), "%s", p->rec.engine);
	if (o->status == SS_ST_ZERO_STEP) {
		snprintf(o->reason, sizeof(o->reason), "%s",
			 p->rec.has_steps ? "no verify steps" : "no drafts");
		return;
	}
	o->has_steps = p->rec.has_steps;
	o->steps = p->rec.num_spec_steps;
	o->accepted = p->rec.num_accepted_draft_tokens;
	o->drafted = p->rec.num_draft_tokens;
	o->has_k = p->rec.has_spec_tokens;
	o->k = p->rec.num_spec_tokens;
	if (p->rec.has_histogram) {
		o->hist = p->rec.histogram.v;
		o->hist_len = p->rec.histogram.len;
	}
	ss_req_values_of(&p->rec, &o->values);
}

/* raw, body and sse requests, once their objects were captured. */
static bool decide_captured(struct ss_processor *p, struct ss_outcome *o, bool multi_n)
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
		set(o, SS_ST_MULTI_CHOICE, c->multi_reason);
		return true;
	}
	if (!c->content) {
		set(o, SS_ST_NO_CONTENT, "no response carries content");
		return true;
	}
	if (c->payload_objects == 0) {
		set(o, SS_ST_NO_STATS, "no spec-decode payload");
		return true;
	}
	if (c->payload_objects > 1 && !c->all_timings) {
		snprintf(o->reason, sizeof(o->reason), "%u responses carry a spec-decode payload",
			 c->payload_objects);
		o->status = SS_ST_AMBIGUOUS;
		return true;
	}
	if (!map_payload(p, o))
		return false;
	finish_record(p, o);
	return true;
}

static bool decide_records(struct ss_processor *p, struct ss_outcome *o)
{
	struct line_scan *ls = &p->scan;
	enum ssj_status s;
	enum ss_engine e;

	if (!ls->sda_present) {
		set(o, SS_ST_NO_STATS, "no spec_decode_acceptance record");
		return true;
	}
	if (ls->sda_type != SSJ_OBJECT) {
		set(o, SS_ST_MALFORMED, "spec_decode_acceptance is not an object");
		return true;
	}
	s = ss_payload_collect(&p->pl, p->inner, ls->sda.p, ls->sda.n);
	if (s == SSJ_ENOMEM)
		return false;
	if (s != SSJ_OK) {
		snprintf(o->reason, sizeof(o->reason), "spec_decode_acceptance: %s",
			 ssj_strerror(s));
		o->status = SS_ST_MALFORMED;
		return true;
	}
	if (!ss_records_line_map(&p->pl, &p->rec, o->reason, sizeof(o->reason))) {
		o->status = SS_ST_MALFORMED;
		return true;
	}
	e = ss_engine_from_name(p->rec.engine);
	if (p->opts.only_engine != SS_ENGINE_NONE && e != p->opts.only_engine) {
		set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
		return true;
	}
	o->status = SS_ST_OK;
	finish_record(p, o);
	return true;
}

static enum ss_kind detect(const struct ss_processor *p)
{
	const struct line_scan *ls = &p->scan;

	if (p->opts.force_kind != SS_KIND_UNKNOWN && p->opts.force_kind != SS_KIND_SSE)
		return p->opts.force_kind;
	if (ls->has_responses)
		return SS_KIND_RAW;
	if (ls->metadata.p && ls->metrics.p)
		return SS_KIND_RECORDS;
	if (ls->has_choices || ls->has_meta_info || ls->has_timings)
		return SS_KIND_BODY;
	return SS_KIND_UNKNOWN;
}

static bool process_line(struct ss_processor *p, const char *text, size_t len,
			 struct ss_outcome *o)
{
	struct line_scan *ls = &p->scan;
	enum ssj_status s;
	enum ss_kind kind;
	struct meta_scan meta = {false, -1, -1};

	memset(ls, 0, sizeof(*ls));
	ls->p = p;
	ls->text = text;
	ls->len = len;
	ls->hit = SIZE_MAX;
	s = ssj_parse(p->outer, text, len, line_field, ls);
	if (ls->nomem || p->cap.nomem || s == SSJ_ENOMEM)
		return false;
	if (ls->failed && s == SSJ_STOPPED)
		s = SSJ_ESYNTAX;
	if (s != SSJ_OK) {
		set(o, SS_ST_UNPARSABLE, ssj_strerror(s));
		return true;
	}
	/* Spans copied verbatim into the outputs must be valid to the letter. */
	if (ls->metadata.p) {
		struct meta_scan m = {false, -1, -1};

		s = ssj_validate(p->inner, ls->metadata.p, ls->metadata.n);
		if (s == SSJ_OK)
			s = ssj_parse(p->inner, ls->metadata.p, ls->metadata.n, meta_field, &m);
		if (s != SSJ_OK) {
			if (s == SSJ_ENOMEM)
				return false;
			set(o, SS_ST_UNPARSABLE, ssj_strerror(s));
			return true;
		}
		o->metadata = ls->metadata.p;
		o->metadata_len = ls->metadata.n;
		meta = m;
	}
	kind = detect(p);
	o->kind = kind;
	/* Phase and cancellation are AIPerf's: bodies have no such metadata. */
	if (kind == SS_KIND_RAW || kind == SS_KIND_RECORDS) {
		o->phase = meta.phase >= 0 ? (enum ss_phase)meta.phase
			   : meta.credit_phase >= 0 ? (enum ss_phase)meta.credit_phase
						    : SS_PHASE_PROFILING;
		if (meta.cancelled)
			o->status = SS_ST_CANCELLED;  /* applied below, after `error` */
	}
	if (kind == SS_KIND_RECORDS && ls->metrics.p) {
		s = ssj_validate(p->inner, ls->metrics.p, ls->metrics.n);
		if (s != SSJ_OK) {
			if (s == SSJ_ENOMEM)
				return false;
			o->kind = SS_KIND_UNKNOWN;
			set(o, SS_ST_UNPARSABLE, ssj_strerror(s));
			return true;
		}
		o->metrics = ls->metrics.p;
		o->metrics_len = ls->metrics.n;
	}
	if (kind == SS_KIND_UNKNOWN) {
		set(o, SS_ST_UNRECOGNIZED,
		    "not an AIPerf raw or records line nor a response body");
		return true;
	}
	if ((kind == SS_KIND_RAW || kind == SS_KIND_RECORDS) && ls->error) {
		o->status = SS_ST_ERROR;
		error_reason(p, ls->error_value, o->reason, sizeof(o->reason));
		return true;
	}
	if (o->status == SS_ST_CANCELLED) {
		set(o, SS_ST_CANCELLED, "request was cancelled");
		return true;
	}
	if (kind == SS_KIND_RECORDS)
		return decide_records(p, o);
	if (kind == SS_KIND_BODY) {
		/* The line is itself the request's one object. */
		if (!ss_capture_object(&p->cap, p->inner, text, len))
			return false;
	}
	return decide_captured(p, o, kind == SS_KIND_RAW && ls->n_multi);
}

bool ss_process(struct ss_processor *p, const struct ss_request_text *req,
		struct ss_outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->line = req->line;
	o->phase = SS_PHASE_PROFILING;
	o->status = SS_ST_OK;
	ss_capture_reset(&p->cap);
	ss_record_reset(&p->rec);

	if (req->oversize) {
		o->kind = req->sse ? SS_KIND_SSE : SS_KIND_UNKNOWN;
		set(o, SS_ST_OVERSIZE, "record longer than --max-record-size");
		return true;
	}
	if (req->sse) {
		o->kind = SS_KIND_SSE;
		for (size_t i = 0; i < req->nparts; i++)
			if (!ss_capture_object(&p->cap, p->inner, req->parts[i], req->lens[i]))
				return false;
		return decide_captured(p, o, false);
	}
	if (req->nparts != 1) {
		set(o, SS_ST_UNPARSABLE, "empty record");
		return true;
	}
	return process_line(p, req->parts[0], req->lens[0], o);
}
