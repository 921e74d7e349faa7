/*
 * capture.c - what each of a request's objects says (SPEC 2.2, 2.3): its
 * content, its payload by the first location that applies, its usage and
 * its model, gathered in one visit of the object and added to the
 * request's capture.
 */
#include "engines/capture.h"

#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "engines/payload.h"
#include "json/unescape.h"
#include "util/text.h"

void ss_capture_init(struct ss_capture *c)
{
	memset(c, 0, sizeof(*c));
	ss_buf_init(&c->payload);
	ss_buf_init(&c->model);
}

void ss_capture_release(struct ss_capture *c)
{
	ss_buf_release(&c->payload);
	ss_buf_release(&c->model);
	memset(c, 0, sizeof(*c));
}

void ss_capture_reset(struct ss_capture *c)
{
	struct ss_buf keep = c->payload, keep_model = c->model;

	ss_clear_around(c, sizeof(*c), offsetof(struct ss_capture, multi_reason),
			offsetof(struct ss_capture, multi_reason) + sizeof(c->multi_reason));
	c->multi_reason[0] = '\0';
	c->payload = keep;
	c->model = keep_model;
	ss_buf_reset(&c->payload);
	ss_buf_reset(&c->model);
}

/* What one object says, gathered in one visit of it. */
struct object_scan {
	bool content;
	struct ss_span metrics_sd;
	bool metrics_seen;                 /* a `metrics` object */
	bool usage_key;                    /* a `usage` key, whatever its value */
	struct ss_span choice_sd;
	size_t choice_sd_count;
	int64_t choice_sd_index;
	struct ss_span timings;
	struct ss_span sglext;
	size_t sglext_count;
	struct ss_span meta_root;
	struct ss_span meta_choice0;
	bool usage_nonempty;
	struct ss_span completion_tokens;  /* number texts */
	struct ss_span output_tokens;
	struct ss_span prompt_tokens;
	struct ss_span input_tokens;
	struct ss_span reasoning_tokens;   /* completion_tokens_details's */
	struct ss_span model;              /* a string's escaped text */
	bool failed;                    /* a walk error: treat as invalid */
};

/* A non-empty string or a non-empty array (SPEC 2.2). */
static bool has_content(struct ssj_value *v)
{
	const char *p;
	size_t n;
	bool empty = true;

	switch (ssj_value_type(v)) {
	case SSJ_STRING:
		return ssj_value_raw_string(v, &p, &n) == SSJ_OK && n > 0;
	case SSJ_ARRAY:
		return ssj_value_is_empty(v, &empty) == SSJ_OK && !empty;
	default:
		return false;
	}
}

static bool take_span(struct ssj_value *v, struct ss_span *s)
{
	return ssj_value_raw_json(v, &s->p, &s->n) == SSJ_OK;
}

static int message_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (ss_key_is(key, n, "content") || ss_key_is(key, n, "reasoning_content") ||
	    ss_key_is(key, n, "reasoning") || ss_key_is(key, n, "tool_calls")) {
		if (has_content(v))
			o->content = true;
	}
	return 0;
}

struct choice_scan {
	struct object_scan *o;
	size_t position;
	bool has_index;
	int64_t index;
	struct ss_span sd;
};

static int choice_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct choice_scan *c = ctx;
	struct object_scan *o = c->o;
	enum ssj_type t = ssj_value_type(v);

	if (ss_key_is(key, n, "speculative_decoding")) {
		c->sd.p = NULL;
		if (t == SSJ_OBJECT && !take_span(v, &c->sd))
			o->failed = true;
	} else if (ss_key_is(key, n, "index")) {
		const char *p;
		size_t len;

		c->has_index = t == SSJ_NUMBER && ssj_value_number_text(v, &p, &len) == SSJ_OK &&
			       ss_parse_count(p, len, &c->index) == SS_INT_OK;
	} else if (c->position == 0) {
		if ((ss_key_is(key, n, "delta") || ss_key_is(key, n, "message")) && t == SSJ_OBJECT) {
			if (ssj_object_foreach(v, message_field, o) != SSJ_OK)
				o->failed = true;
		} else if (ss_key_is(key, n, "text")) {
			if (has_content(v))
				o->content = true;
		} else if (ss_key_is(key, n, "meta_info")) {
			o->meta_choice0.p = NULL;
			if (t == SSJ_OBJECT && !take_span(v, &o->meta_choice0))
				o->failed = true;
		}
	}
	return o->failed;
}

static int choice_elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct object_scan *o = ctx;
	struct choice_scan c = {o, index, false, 0, {NULL, 0}};

	if (ssj_value_type(v) != SSJ_OBJECT)
		return 0;
	if (ssj_object_foreach(v, choice_field, &c) != SSJ_OK)
		o->failed = true;
	if (c.sd.p) {
		o->choice_sd_count++;
		o->choice_sd = c.sd;
		o->choice_sd_index = c.has_index ? c.index : (int64_t)index;
	}
	return o->failed;
}

static int metrics_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (ss_key_is(key, n, "speculative_decoding")) {
		o->metrics_sd.p = NULL;
		if (ssj_value_type(v) == SSJ_OBJECT && !take_span(v, &o->metrics_sd))
			o->failed = true;
	}
	return o->failed;
}

static int sglext_elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	o->sglext_count++;
	if (index == 0 && ssj_value_type(v) == SSJ_OBJECT && !take_span(v, &o->sglext))
		o->failed = true;
	return o->failed;
}

static int sglext_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (ss_key_is(key, n, "spec_tokens_details")) {
		enum ssj_type t = ssj_value_type(v);

		o->sglext.p = NULL;
		o->sglext_count = 0;
		if (t == SSJ_OBJECT) {
			o->sglext_count = 1;
			if (!take_span(v, &o->sglext))
				o->failed = true;
		} else if (t == SSJ_ARRAY) {
			if (ssj_array_foreach(v, sglext_elem, o) != SSJ_OK)
				o->failed = true;
			if (o->sglext_count != 1)
				o->sglext.p = NULL;
		}
	}
	return o->failed;
}

/* usage.completion_tokens_details (SPEC 11.4): its reasoning_tokens. */
static int details_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (ss_key_is(key, n, "reasoning_tokens")) {
		o->reasoning_tokens.p = NULL;
		if (ssj_value_type(v) == SSJ_NUMBER &&
		    ssj_value_number_text(v, &o->reasoning_tokens.p, &o->reasoning_tokens.n) !=
			    SSJ_OK)
			o->reasoning_tokens.p = NULL;
	}
	return 0;
}

static int usage_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;
	struct ss_span *dst = NULL;

	o->usage_nonempty = true;
	if (ss_key_is(key, n, "completion_tokens_details")) {
		o->reasoning_tokens.p = NULL;
		if (ssj_value_type(v) == SSJ_OBJECT &&
		    ssj_object_foreach(v, details_field, o) != SSJ_OK)
			o->failed = true;
		return o->failed;
	}
	if (ss_key_is(key, n, "completion_tokens"))
		dst = &o->completion_tokens;
	else if (ss_key_is(key, n, "output_tokens"))
		dst = &o->output_tokens;
	else if (ss_key_is(key, n, "prompt_tokens"))
		dst = &o->prompt_tokens;
	else if (ss_key_is(key, n, "input_tokens"))
		dst = &o->input_tokens;
	if (dst) {
		dst->p = NULL;
		if (ssj_value_type(v) == SSJ_NUMBER &&
		    ssj_value_number_text(v, &dst->p, &dst->n) != SSJ_OK)
			dst->p = NULL;
	}
	return 0;
}

static int object_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;
	enum ssj_type t = ssj_value_type(v);
	enum ssj_status s = SSJ_OK;

	if (ss_key_is(key, n, "model")) {
		o->model.p = NULL;
		if (t == SSJ_STRING && ssj_value_raw_string(v, &o->model.p, &o->model.n) != SSJ_OK)
			o->failed = true;
	} else if (ss_key_is(key, n, "choices")) {
		o->choice_sd_count = 0;
		o->choice_sd.p = NULL;
		o->meta_choice0.p = NULL;
		if (t == SSJ_ARRAY)
			s = ssj_array_foreach(v, choice_elem, o);
	} else if (ss_key_is(key, n, "metrics")) {
		o->metrics_sd.p = NULL;
		o->metrics_seen = t == SSJ_OBJECT;
		if (t == SSJ_OBJECT)
			s = ssj_object_foreach(v, metrics_field, o);
	} else if (ss_key_is(key, n, "timings")) {
		o->timings.p = NULL;
		if (t == SSJ_OBJECT && !take_span(v, &o->timings))
			o->failed = true;
	} else if (ss_key_is(key, n, "sglext")) {
		o->sglext.p = NULL;
		o->sglext_count = 0;
		if (t == SSJ_OBJECT)
			s = ssj_object_foreach(v, sglext_field, o);
	} else if (ss_key_is(key, n, "meta_info")) {
		o->meta_root.p = NULL;
		if (t == SSJ_OBJECT && !take_span(v, &o->meta_root))
			o->failed = true;
	} else if (ss_key_is(key, n, "usage")) {
		o->usage_key = true;
		o->usage_nonempty = false;
		o->completion_tokens.p = o->output_tokens.p = NULL;
		o->prompt_tokens.p = o->input_tokens.p = NULL;
		o->reasoning_tokens.p = NULL;
		if (t == SSJ_OBJECT)
			s = ssj_object_foreach(v, usage_field, o);
	} else if (ss_key_is(key, n, "text") || ss_key_is(key, n, "content")) {
		if (has_content(v))
			o->content = true;
	}
	if (s != SSJ_OK)
		o->failed = true;
	return o->failed;
}

/* Peek into a span: llama.cpp timings need both counters, not null. */
struct peek {
	bool draft_n, draft_n_accepted, spec_verify_ct;
};

static int peek_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct peek *k = ctx;

	if (ss_key_is(key, n, "draft_n"))
		k->draft_n = !ssj_value_is_null(v);
	else if (ss_key_is(key, n, "draft_n_accepted"))
		k->draft_n_accepted = !ssj_value_is_null(v);
	else if (ss_key_is(key, n, "spec_verify_ct"))
		k->spec_verify_ct = true;
	return 0;
}

/* What a span of the object's document says (visited where it lies). */
static bool peek_span(struct ssj_parser *parser, struct ss_span s, struct peek *k)
{
	memset(k, 0, sizeof(*k));
	return s.p && ssj_visit_span(parser, s.p, s.n, peek_field, k) == SSJ_OK;
}

static void set_multi(struct ss_capture *c, const char *fmt, long long a)
{
	if (c->multi_choice)
		return;
	c->multi_choice = true;
	snprintf(c->multi_reason, sizeof(c->multi_reason), fmt, a);
}

/* What one object said (its scan done), into the capture. */
static bool capture_scanned(struct ss_capture *c, struct ssj_parser *parser,
			    const struct object_scan *scan)
{
	struct object_scan o = *scan;
	struct ss_span chosen = {NULL, 0};
	enum ss_payload_loc loc = SS_LOC_NONE;
	struct peek k;

	if (o.content)
		c->content = true;
	c->saw_usage |= o.usage_key;

	/*
	 * SPEC 7.3's model: that of the first object naming one. (A raw
	 * line's elements skipped unread by the fast path carry neither
	 * content nor a payload; the first element, read before any content,
	 * normally names the model, as every chunk of a stream does.)
	 */
	if (!c->has_model && o.model.p) {
		ss_buf_reset(&c->model);
		if (ss_json_unescape(o.model.p, o.model.n, &c->model))
			c->has_model = true;
		else if (c->model.failed)
			c->nomem = true;
	}

	if (o.usage_nonempty) {
		int64_t v;

		c->has_completion_tokens = false;
		if (o.completion_tokens.p &&
		    ss_parse_count(o.completion_tokens.p, o.completion_tokens.n, &v) == SS_INT_OK &&
		    v > 0) {
			c->has_completion_tokens = true;
			c->completion_tokens = v;
		} else if (o.output_tokens.p &&
			   ss_parse_count(o.output_tokens.p, o.output_tokens.n, &v) == SS_INT_OK) {
			c->has_completion_tokens = true;
			c->completion_tokens = v;
		}
		/*
		 * SPEC 7.10, 7.13: prompt_tokens when a count (0 kept), else
		 * input_tokens; a negative or too large one counts as absent.
		 */
		c->has_prompt_tokens = false;
		if (o.prompt_tokens.p &&
		    ss_parse_count(o.prompt_tokens.p, o.prompt_tokens.n, &v) == SS_INT_OK) {
			c->has_prompt_tokens = true;
			c->prompt_tokens = v;
		} else if (o.input_tokens.p &&
			   ss_parse_count(o.input_tokens.p, o.input_tokens.n, &v) == SS_INT_OK) {
			c->has_prompt_tokens = true;
			c->prompt_tokens = v;
		}
		/* SPEC 11.4: t of the same object, an integer >= 0 */
		c->has_reasoning_tokens =
			o.reasoning_tokens.p &&
			ss_parse_count(o.reasoning_tokens.p, o.reasoning_tokens.n, &v) == SS_INT_OK;
		if (c->has_reasoning_tokens)
			c->reasoning_tokens = v;
	}

	/* Multi-choice signals (SPEC 2.1 order 4, 2.3 points 2 and 4). */
	if (o.choice_sd_count >= 2)
		set_multi(c, "%lld choices carry a speculative_decoding payload",
			  (long long)o.choice_sd_count);
	if (o.choice_sd_count == 1) {
		if (c->have_choice_index && c->choice_index != o.choice_sd_index)
			set_multi(c, "payloads for choices %lld and another",
				  (long long)c->choice_index);
		c->have_choice_index = true;
		c->choice_index = o.choice_sd_index;
	}
	if (o.sglext_count > 1)
		set_multi(c, "spec_tokens_details has %lld elements", (long long)o.sglext_count);

	/* The first location that applies gives this object's payload. */
	if (o.metrics_sd.p) {
		chosen = o.metrics_sd;
		loc = SS_LOC_METRICS;
	} else if (o.choice_sd_count == 1) {
		chosen = o.choice_sd;
		loc = SS_LOC_CHOICE;
	} else if (peek_span(parser, o.timings, &k) && k.draft_n && k.draft_n_accepted) {
		chosen = o.timings;
		loc = SS_LOC_TIMINGS;
	} else if (o.sglext.p && o.sglext_count == 1) {
		chosen = o.sglext;
		loc = SS_LOC_SGLEXT;
	} else if (peek_span(parser, o.meta_root, &k) && k.spec_verify_ct) {
		chosen = o.meta_root;
		loc = SS_LOC_META_INFO;
	} else if (peek_span(parser, o.meta_choice0, &k) && k.spec_verify_ct) {
		chosen = o.meta_choice0;
		loc = SS_LOC_META_INFO;
	}
	if (loc == SS_LOC_NONE) {
		/* what a missing payload's cause may be read from */
		c->metrics_no_sd |= o.metrics_seen;
		c->metrics_with_usage |= o.metrics_seen && o.usage_key;
		if (o.timings.p && peek_span(parser, o.timings, &k))
			c->timings_no_draft = true;
		if ((o.meta_root.p && peek_span(parser, o.meta_root, &k)) ||
		    (o.meta_choice0.p && peek_span(parser, o.meta_choice0, &k)))
			c->meta_no_verify = true;
		return true;
	}

	c->all_timings = (c->payload_objects == 0 || c->all_timings) && loc == SS_LOC_TIMINGS;
	c->payload_objects++;
	c->loc = loc;
	ss_buf_reset(&c->payload);
	ss_buf_add(&c->payload, chosen.p, chosen.n);
	c->payload_at = chosen.p;
	if (c->payload.failed) {
		c->nomem = true;
		return false;
	}
	return true;
}

bool ss_capture_object(struct ss_capture *c, struct ssj_parser *parser)
{
	struct object_scan o;
	enum ssj_status s;

	memset(&o, 0, sizeof(o));
	s = ssj_visit(parser, object_field, &o);
	if (s == SSJ_ENOMEM) {
		c->nomem = true;
		return false;
	}
	if (s != SSJ_OK || o.failed)
		return true;  /* not expected of a checked document: nothing taken */
	return capture_scanned(c, parser, &o);
}
