/*
 * linewalk.c - the one walk over a JSONL line: the line opened (checked
 * whole), its top-level fields read, and for an AIPerf raw line the data
 * packets of every response, joined, unescaped and fed to the capture
 * (only the elements the key prefilter lets through, unless full_parse).
 */
#include <string.h>

#include "engines/keyscan.h"
#include "engines/processor.h"
#include "json/unescape.h"
#include "util/grow.h"
#include "util/text.h"

/* ---- raw lines: responses[].packets[].value or responses[].text ---- */

struct packet_scan {
	bool is_data;
	bool has_value;
	struct ss_span value;   /* escaped text of the string */
};

static int packet_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct packet_scan *k = ctx;

	if (ss_key_is(key, n, "name")) {
		const char *s;
		size_t len;

		k->is_data = ssj_value_type(v) == SSJ_STRING &&
			     ssj_value_string(v, &s, &len) == SSJ_OK && ss_key_is(s, len, "data");
	} else if (ss_key_is(key, n, "value")) {
		k->has_value = ssj_value_type(v) == SSJ_STRING &&
			       ssj_value_raw_string(v, &k->value.p, &k->value.n) == SSJ_OK;
	}
	return 0;
}

static bool add_part(struct ss_processor *p, struct ss_span s)
{
	if (!SS_ALLOC_GROW(p->parts, p->nparts + 1, p->parts_cap))
		return false;
	p->parts[p->nparts++] = s;
	return true;
}

static bool is_done(struct ss_span s)
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

	if (ss_key_is(key, n, "perf_ns")) {
		const char *s;
		size_t len;

		ls->elem_has_perf = t == SSJ_NUMBER &&
				    ssj_value_number_text(v, &s, &len) == SSJ_OK &&
				    ss_parse_i64(s, len, &ls->elem_perf);
	} else if (ss_key_is(key, n, "packets") && t == SSJ_ARRAY) {
		ls->elem_packets = true;
		if (ssj_array_foreach(v, packet_elem, ls) != SSJ_OK && !ls->nomem)
			ls->failed = true;
	} else if (ss_key_is(key, n, "text")) {
		/* Kept aside: with a `packets` array the element is a stream. */
		ls->elem_text = false;
		if (t == SSJ_STRING) {
			if (ssj_value_raw_string(v, &ls->elem_text_span.p,
						 &ls->elem_text_span.n) != SSJ_OK)
				ls->failed = true;
			else
				ls->elem_text = true;
		}
	}
	return ls->failed || ls->nomem;
}

/*
 * Feed one response element's JSON text (the joined data packets). The
 * element as a whole was judged worth it already (response_elem).
 */
static bool feed_element(struct ss_processor *p)
{
	enum ssj_status s;

	/* the chunk's buffer changes: its last document goes first */
	ssj_close(p->inner);
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
	/*
	 * SPEC 1.4: a TEXT that is not valid JSON is skipped whole, a NaN in
	 * its timings as much as a syntax error: opening it checks it all.
	 */
	s = ssj_open(p->inner, p->chunk.data, p->chunk.len);
	if (s == SSJ_ENOMEM)
		return false;
	return s != SSJ_OK || ss_capture_object(&p->cap, p->inner);
}

/* An element passed over unvisited: it holds no content token (the key
 * scan says so), but SPEC 11.1 still needs its perf_ns. */
static int skipped_elem(struct line_scan *ls, struct ss_span raw)
{
	int64_t perf = 0;
	bool has;

	if (!ls->p->opts.want_timing && !ls->p->opts.raw_timing)
		return 0;
	has = ss_elem_perf_ns(ls->p->outer, raw.p, raw.n, &perf);
	ss_raw_timer_element(&ls->timer, has, perf, false, false, 0);
	return 0;
}

/*
 * One element of `responses`. Most elements of a stream are content chunks
 * that can change nothing once content was seen: the element's text is
 * passed over whole and scanned for keys (ss_keyscan_worth), and only an
 * element worth it is visited, where it lies in the line.
 */
static int response_elem(void *ctx, size_t index, enum ssj_type type, const char *text,
			 size_t len)
{
	struct line_scan *ls = ctx;
	struct ss_processor *p = ls->p;
	struct ss_span raw = {text, len};
	bool content_before;

	(void)index;
	if (type != SSJ_OBJECT) {
		/* SPEC 11.1: every element has a perf_ns */
		ss_raw_timer_element(&ls->timer, false, 0, false, false, 0);
		return 0;
	}
	ls->nresponses++;
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
					h = ss_keyscan_next_payload_key(ls->text, ls->scanned, lim);
					if (h < lim) {
						ls->hit = h;
						break;
					}
					ls->scanned = lim;
				}
			}
			if (ls->hit == SIZE_MAX || ls->hit >= b)
				return skipped_elem(ls, raw);
			ls->scanned = b;  /* past the hit: look again after it */
		}
		if (!ss_keyscan_worth(p->cap.content, raw.p, raw.n))
			return skipped_elem(ls, raw);
	}
	ls->elem_packets = ls->elem_text = ls->elem_has_perf = false;
	content_before = p->cap.content;
	if (ssj_visit_span(p->outer, raw.p, raw.n, response_field, ls) != SSJ_OK && !ls->nomem) {
		ls->failed = true;
		return 1;
	}
	if (ls->nomem)
		return 1;
	/* SPEC 1.4: an element with a `packets` array and a `text` is a stream. */
	if (!ls->elem_packets && ls->elem_text && ls->elem_text_span.n > 0 &&
	    !add_part(p, ls->elem_text_span)) {
		ls->nomem = true;
		return 1;
	}
	if (p->nparts && !feed_element(p)) {
		ls->nomem = true;
		return 1;
	}
	/* 11.1's content test is the capture's own (2.2), so TTFT and
	 * no_content agree */
	if (p->opts.want_timing || p->opts.raw_timing)
		ss_raw_timer_element(&ls->timer, ls->elem_has_perf, ls->elem_perf,
				     !content_before && p->cap.content, false, 0);
	return 0;
}

/* ---- the top level of a JSONL line ---- */

static int payload_n_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct line_scan *ls = ctx;
	const char *t;
	size_t len;
	int64_t x;

	if (ss_key_is(key, n, "model")) {
		ls->payload_model.p = NULL;
		if (ssj_value_type(v) == SSJ_STRING &&
		    ssj_value_raw_string(v, &ls->payload_model.p, &ls->payload_model.n) != SSJ_OK)
			ls->failed = true;
	} else if (ss_key_is(key, n, "n")) {
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

	if (ss_key_is(key, n, "responses")) {
		/*
		 * SPEC 1.2: a repeated key counts its last value: what an
		 * earlier `responses` gave is forgotten.
		 */
		if (ls->has_responses) {
			ss_capture_reset(&p->cap);
			ls->hit = SIZE_MAX;
			ls->scanned = 0;
		}
		ls->has_responses = false;
		ls->nresponses = 0;
		ss_raw_timer_init(&ls->timer);
		if (t == SSJ_ARRAY && (force == SS_KIND_UNKNOWN || force == SS_KIND_RAW)) {
			ls->has_responses = true;
			if (ssj_array_foreach_span(v, response_elem, ls) != SSJ_OK && !ls->nomem)
				ls->failed = true;
		}
	} else if (ss_key_is(key, n, "start_perf_ns")) {
		const char *s;
		size_t len;

		ls->has_start = t == SSJ_NUMBER && ssj_value_number_text(v, &s, &len) == SSJ_OK &&
				ss_parse_i64(s, len, &ls->start);
	} else if (ss_key_is(key, n, "metadata")) {
		/* Copied verbatim whatever its type (SPEC 4.4); only an object
		 * gives a phase or makes a records line. */
		ls->metadata.p = NULL;
		ls->metadata_object = t == SSJ_OBJECT;
		if (!ss_meta_scan_of(v, &ls->meta, ls->p->opts.want_time, &ls->p->metakeys) ||
		    ssj_value_raw_json(v, &ls->metadata.p, &ls->metadata.n) != SSJ_OK)
			ls->failed = true;
	} else if (ss_key_is(key, n, "metrics")) {
		ls->metrics.p = NULL;
		/* SPEC 11.1 and 11.4: its times and reasoning tokens read
		 * as it is passed (a repeated key: the last object's; read
		 * where they lie in the line's text when they can be); a
		 * walk that fails reads none. Its text is taken after the
		 * walk (json.h: On-Demand gives an object's text once it was
		 * gone through, never before a walk). */
		if (p->opts.want_timing || p->opts.want_reasoning) {
			ss_timing_clear(&ls->timing);
			ls->has_reasoning = false;
			if (t == SSJ_OBJECT &&
			    ssj_object_foreach_lens(v, SS_METRICS_TIMING_LENS,
						    ss_metrics_timing_field, ls) != SSJ_OK) {
				ss_timing_clear(&ls->timing);
				ls->has_reasoning = false;
			}
		}
		if (t == SSJ_OBJECT &&
		    ssj_value_raw_json(v, &ls->metrics.p, &ls->metrics.n) != SSJ_OK) {
			ls->metrics.p = NULL;
			ls->failed = true;
		}
	} else if (ss_key_is(key, n, "spec_decode_acceptance")) {
		ls->sda_present = t != SSJ_NULL;
		ls->sda_type = t;
		ls->sda.p = NULL;
		if (t == SSJ_OBJECT && ssj_value_raw_json(v, &ls->sda.p, &ls->sda.n) != SSJ_OK)
			ls->failed = true;
	} else if (ss_key_is(key, n, "error")) {
		ls->error = t != SSJ_NULL;
		ls->error_value.p = NULL;
		if (ls->error &&
		    ssj_value_raw_json(v, &ls->error_value.p, &ls->error_value.n) != SSJ_OK)
			ls->failed = true;
	} else if (ss_key_is(key, n, "payload")) {
		ls->n_multi = false;
		if (t == SSJ_OBJECT && ssj_object_foreach(v, payload_n_field, ls) != SSJ_OK)
			ls->failed = true;
	} else if (ss_key_is(key, n, "model") || ss_key_is(key, n, "spec_decode_status") ||
		   ss_key_is(key, n, "spec_decode_reason")) {
		struct ss_span *sp = key[0] == 'm' ? &ls->model
				  : key[12] == 's' ? &ls->status : &ls->reason;

		sp->p = NULL;
		if (t == SSJ_STRING && ssj_value_raw_string(v, &sp->p, &sp->n) != SSJ_OK)
			ls->failed = true;
	} else if (ss_key_is(key, n, "source")) {
		struct ss_source_scan src;

		memset(&src, 0, sizeof(src));
		ls->source_seen = t == SSJ_OBJECT;
		if (ls->source_seen && ssj_object_foreach(v, ss_source_field, &src) != SSJ_OK)
			ls->failed = true;
		ls->src = src;
	} else if (ss_key_is(key, n, "choices")) {
		ls->has_choices = true;
	} else if (ss_key_is(key, n, "meta_info")) {
		ls->has_meta_info = true;
	} else if (ss_key_is(key, n, "timings")) {
		ls->has_timings = true;
	} else if (ss_key_is(key, n, "question_id")) {
		ls->has_question_id = true;
	}
	return ls->failed || ls->nomem;
}

enum ssj_status ss_line_walk(struct ss_processor *p, const char *text, size_t len)
{
	static const struct ss_meta_scan none = SS_META_SCAN_NONE;
	struct line_scan *ls = &p->scan;
	enum ssj_status s;

	memset(ls, 0, sizeof(*ls));
	ls->p = p;
	ls->text = text;
	ls->len = len;
	ls->hit = SIZE_MAX;
	ls->meta = none;
	ss_raw_timer_init(&ls->timer);
	s = ssj_open(p->outer, text, len);
	if (s == SSJ_OK)
		s = ssj_visit(p->outer, line_field, ls);
	ls->parsed = s == SSJ_OK && !ls->failed;
	return s;
}
