/*
 * request.c - one framed request to one outcome: detect the line kind
 * from the walk over the line (linewalk.c), read its metadata, and decide
 * the status in the order of SPEC 2.1.
 */
#include "engines/request.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"
#include "engines/keyscan.h"
#include "engines/processor.h"
#include "json/unescape.h"
#include "util/alloc.h"
#include "util/text.h"

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
	ss_buf_init(&p->model);
	ss_buf_init(&p->input);
	p->outer = ssj_parser_new();
	p->element = ssj_parser_new();
	p->inner = ssj_parser_new();
	if (!p->outer || !p->element || !p->inner) {
		ss_processor_free(p);
		return NULL;
	}
	return p;
}

/* A fresh parser in place of `*pp` (kept when none can be made). */
static void renew(struct ssj_parser **pp)
{
	struct ssj_parser *n = ssj_parser_new();

	if (n) {
		ssj_parser_free(*pp);
		*pp = n;
	}
}

void ss_processor_trim(struct ss_processor *p)
{
	renew(&p->outer);
	renew(&p->element);
	renew(&p->inner);
	ss_buf_release(&p->chunk);
	ss_payload_release(&p->pl);
	ss_payload_init(&p->pl);
	ss_record_release(&p->rec);
	ss_record_init(&p->rec);
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
	ss_buf_release(&p->model);
	ss_buf_release(&p->input);
	ss_free(p->parts);
	ss_free(p);
}

/* ---- metadata ---- */

static int phase_of(struct ssj_value *v)
{
	const char *s;
	size_t n;

	if (ssj_value_type(v) != SSJ_STRING || ssj_value_string(v, &s, &n) != SSJ_OK)
		return -1;
	if (ss_key_is(s, n, "warmup"))
		return SS_PHASE_WARMUP;
	if (ss_key_is(s, n, "profiling"))
		return SS_PHASE_PROFILING;
	return -1;
}

/* The lengths of the keys meta_field reads, for ssj_object_foreach_lens. */
#define META_KEY_LENS                                                           \
	(SSJ_LEN_BIT(sizeof("was_cancelled") - 1) |                             \
	 SSJ_LEN_BIT(sizeof("benchmark_phase") - 1) |                           \
	 SSJ_LEN_BIT(sizeof("credit_phase") - 1))

static int meta_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct ss_meta_scan *m = ctx;

	if (ss_key_is(key, n, "was_cancelled")) {
		bool b = false;

		m->cancelled = ssj_value_type(v) == SSJ_BOOL &&
			       ssj_value_bool(v, &b) == SSJ_OK && b;
	} else if (ss_key_is(key, n, "benchmark_phase")) {
		m->phase = phase_of(v);
	} else if (ss_key_is(key, n, "credit_phase")) {
		m->credit_phase = phase_of(v);
	}
	return 0;
}

bool ss_meta_scan_of(struct ssj_value *v, struct ss_meta_scan *m)
{
	static const struct ss_meta_scan none = SS_META_SCAN_NONE;

	*m = none;
	return ssj_value_type(v) != SSJ_OBJECT ||
	       ssj_object_foreach_lens(v, META_KEY_LENS, meta_field, m) == SSJ_OK;
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

	if ((ss_key_is(key, n, "message") || (!e->found && ss_key_is(key, n, "type"))) &&
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
		ss_copy_str(o->reason, sizeof(o->reason), reason);
}

static bool engine_allowed(const struct ss_processor *p, const struct ss_adapter *a)
{
	return p->opts.only_engine == SS_ENGINE_NONE || p->opts.only_engine == a->engine;
}

/* Map the captured payload through the adapter that claims it. */
static bool map_payload(struct ss_processor *p, struct ss_outcome *o)
{
	const struct ss_adapter *claim = NULL, *other = NULL;
	struct ss_reader rd;
	enum ssj_status s;

	/*
	 * A payload read from the line itself (a body) lies in it: visited
	 * over the line's index when the walk checked it whole, without
	 * indexing and checking its text again.
	 */
	s = SSJ_EINTERNAL;
	if (p->cap.payload_at)
		s = ss_payload_collect_within(&p->pl, p->outer, p->cap.payload_at,
					      p->cap.payload.len);
	if (s == SSJ_EINTERNAL)
		s = ss_payload_collect(&p->pl, p->inner, p->cap.payload.data, p->cap.payload.len);
	if (s == SSJ_ENOMEM)
		return false;
	if (s != SSJ_OK) {
		/*
		 * SPEC 1.2: a body line whose payload is not valid JSON (a NaN
		 * in `timings`) is not valid JSON: unparsable, however fast the
		 * first pass skipped over it.
		 */
		snprintf(o->reason, sizeof(o->reason), "%s%s",
			 o->kind == SS_KIND_BODY ? "" : "payload: ", ssj_strerror(s));
		o->status = o->kind == SS_KIND_BODY ? SS_ST_UNPARSABLE : SS_ST_MALFORMED;
		if (o->kind == SS_KIND_BODY)
			o->kind = SS_KIND_UNKNOWN;
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
	ss_reader_init(&rd, &p->pl, o->reason, sizeof(o->reason));
	if (!claim->map(&rd, &p->rec)) {
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
	ss_copy_str(o->engine, sizeof(o->engine), p->rec.engine);
	o->engine_long = p->rec.engine_long;
	if (o->status == SS_ST_ZERO_STEP) {
		ss_copy_str(o->reason, sizeof(o->reason),
			    p->rec.has_steps ? "no verify steps" : "no drafts");
		return;
	}
	o->has_steps = p->rec.has_steps;
	o->steps = p->rec.num_spec_steps;
	o->accepted = p->rec.num_accepted_draft_tokens;
	o->drafted = p->rec.num_draft_tokens;
	if (p->rec.has_histogram) {
		o->hist = p->rec.histogram.v;
		o->hist_len = p->rec.histogram.len;
	}
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

/*
 * sda_status: SSJ_EINTERNAL when the payload is still to be collected,
 * else what collecting it from the validated line gave (p->pl filled).
 */
static bool decide_records(struct ss_processor *p, struct ss_outcome *o,
			   enum ssj_status sda_status)
{
	struct line_scan *ls = &p->scan;
	struct ss_reader rd;
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
	/* a payload read with the validated line is not checked again */
	s = sda_status != SSJ_EINTERNAL ? sda_status
					: ss_payload_collect(&p->pl, p->inner, ls->sda.p, ls->sda.n);
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
			set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
			return true;
		}
	}
	ss_reader_init(&rd, &p->pl, o->reason, sizeof(o->reason));
	if (!ss_records_line_map(&rd, &p->rec)) {
		o->status = SS_ST_MALFORMED;
		return true;
	}
	e = ss_engine_from_name(ss_record_engine(&p->rec));
	if (p->opts.only_engine != SS_ENGINE_NONE && e != p->opts.only_engine) {
		set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
		return true;
	}
	o->status = SS_ST_OK;
	finish_record(p, o);
	return true;
}

/* ---- enriched lines read back (SPEC 8.1) ---- */

static bool status_of(const char *s, size_t n, enum ss_status *out)
{
	for (int i = 0; i < SS_ST_COUNT; i++) {
		if (ss_key_is(s, n, ss_status_name((enum ss_status)i))) {
			*out = (enum ss_status)i;
			return true;
		}
	}
	return false;
}

/* A broken enriched line: malformed, counted under the file it is in. */
static bool enriched_broken(struct ss_outcome *o, const char *why)
{
	o->input = NULL;
	o->verbatim = NULL;
	o->kind = SS_KIND_ENRICHED;
	o->phase = SS_PHASE_PROFILING;
	o->record = NULL;
	set(o, SS_ST_MALFORMED, why);
	return true;
}

/*
 * An enriched line: its status, reason, source, model, metadata, metrics
 * and record are taken as written; the record is validated (SPEC 2.4, 2.5)
 * and must agree with the status. `meta` is what its metadata said.
 */
static bool decide_enriched(struct ss_processor *p, struct ss_outcome *o, const char *text,
			    size_t len, const struct ss_meta_scan *meta)
{
	struct line_scan *ls = &p->scan;
	const struct ss_source_scan *src = &ls->src;
	enum ss_status st;
	enum ssj_status s;
	char why[SS_REASON_MAX];
	struct ss_buf tmp = SS_BUF_INIT;
	bool known, rewrite = false;

	o->kind = SS_KIND_ENRICHED;
	if (!ls->status.p)
		return enriched_broken(o, "spec_decode_status is missing or not a string");
	if (!ss_json_unescape(ls->status.p, ls->status.n, &tmp)) {
		bool nomem = tmp.failed;

		ss_buf_release(&tmp);
		return nomem ? false : enriched_broken(o, "spec_decode_status: invalid escape");
	}
	known = status_of(tmp.data ? tmp.data : "", tmp.len, &st);
	if (!known)
		snprintf(why, sizeof(why), "unknown spec_decode_status \"%.60s\"",
			 tmp.data ? tmp.data : "");
	ss_buf_release(&tmp);
	if (!known) {
		sanitize(why);
		return enriched_broken(o, why);
	}
	if (!ls->source_seen)
		return enriched_broken(o, "source is missing or not an object");
	if (src->bad)
		return enriched_broken(o, src->bad);
	if (!src->has_input || !src->has_line || !src->has_kind)
		return enriched_broken(o, !src->has_input ? "source.input is missing"
					  : !src->has_line ? "source.line is missing"
							    : "source.kind is missing");
	ss_buf_reset(&p->input);
	if (!ss_json_unescape(src->input.p, src->input.n, &p->input) || p->input.len == 0 ||
	    memchr(p->input.data, '\0', p->input.len)) {
		if (p->input.failed)
			return false;
		return enriched_broken(o, "source.input is not a file name");
	}

	if (st == SS_ST_OK || st == SS_ST_ZERO_STEP) {
		enum ss_engine e;
		struct ss_reader rd;

		if (!ls->sda_present || ls->sda_type != SSJ_OBJECT)
			return enriched_broken(o, "no spec_decode_acceptance record for an ok or zero_step status");
		/* the whole line was validated (enriched_line) */
		s = ss_payload_collect_valid(&p->pl, p->inner, ls->sda.p, ls->sda.n);
		if (s == SSJ_ENOMEM)
			return false;
		if (s != SSJ_OK) {
			snprintf(why, sizeof(why), "spec_decode_acceptance: %s", ssj_strerror(s));
			return enriched_broken(o, why);
		}
		ss_reader_init(&rd, &p->pl, why, sizeof(why));
		if (!ss_records_line_map(&rd, &p->rec))
			return enriched_broken(o, why);
		if (!ss_record_check(&p->rec, why, sizeof(why)))
			return enriched_broken(o, why);
		if (ss_record_status(&p->rec) != st)
			return enriched_broken(o, st == SS_ST_OK
						  ? "spec_decode_status is ok but the record is zero-step"
						  : "spec_decode_status is zero_step but the record has steps");
		e = ss_engine_from_name(p->rec.engine);
		o->status = SS_ST_OK;
		if (p->opts.only_engine != SS_ENGINE_NONE && e != p->opts.only_engine) {
			/* no longer what the line says: it is written anew */
			set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
			rewrite = true;
		} else {
			finish_record(p, o);
			o->reason[0] = '\0';
		}
	} else {
		o->status = st;
		o->reason[0] = '\0';
		if (ls->reason.p) {
			ss_buf_reset(&tmp);
			if (ss_json_unescape(ls->reason.p, ls->reason.n, &tmp) && tmp.len)
				snprintf(o->reason, sizeof(o->reason), "%.*s",
					 (int)(tmp.len < SS_REASON_MAX - 1 ? tmp.len : SS_REASON_MAX - 1),
					 tmp.data);
			ss_buf_release(&tmp);
			sanitize(o->reason);
		}
	}
	o->kind = src->kind;
	o->line = src->line;
	o->input = p->input.data;
	o->input_len = p->input.len;
	o->verbatim = rewrite ? NULL : text;
	o->verbatim_len = rewrite ? 0 : len;
	/*
	 * The phase, as the run that wrote the line decided it (SPEC 1.5): from
	 * the metadata of AIPerf lines; a records line whose metrics were
	 * unreadable kept its phase but is written with kind unknown.
	 */
	o->phase = SS_PHASE_PROFILING;
	if (src->kind == SS_KIND_RAW || src->kind == SS_KIND_RECORDS ||
	    (src->kind == SS_KIND_UNKNOWN && st == SS_ST_UNPARSABLE))
		o->phase = meta->phase >= 0 ? (enum ss_phase)meta->phase
			   : meta->credit_phase >= 0 ? (enum ss_phase)meta->credit_phase
						    : SS_PHASE_PROFILING;
	return true;
}

static enum ss_kind detect(const struct ss_processor *p);

/*
 * An enriched line, once its walk succeeded. It is written back unchanged,
 * so the whole line is validated to the letter (its metadata with it, once).
 */
static bool enriched_line(struct ss_processor *p, struct ss_outcome *o, const char *text,
			  size_t len)
{
	struct line_scan *ls = &p->scan;
	struct ss_meta_scan meta = SS_META_SCAN_NONE;
	enum ssj_status s = SSJ_OK;

	if (ls->meta_inline) {
		/* validated before the walk, which read the metadata */
		if (ls->meta_seen)
			meta = ls->meta;
	} else {
		s = ssj_validate(p->inner, text, len);
		if (s == SSJ_OK && ls->metadata.p && ls->metadata_object)
			s = ssj_parse(p->inner, ls->metadata.p, ls->metadata.n, meta_field,
				      &meta);
	}
	if (s != SSJ_OK) {
		if (s == SSJ_ENOMEM)
			return false;
		set(o, SS_ST_UNPARSABLE, ssj_strerror(s));
		return true;
	}
	if (!decide_enriched(p, o, text, len, &meta))
		return false;
	if (!o->verbatim && ls->meta_inline && ls->meta_seen) {
		/* written anew, with its metadata: walk again for the span */
		s = ss_line_walk(p, text, len, false);
		if (s != SSJ_OK || ls->nomem || p->cap.nomem)
			return s == SSJ_ENOMEM || ls->nomem || p->cap.nomem ? false : true;
	}
	if (ls->metadata.p) {
		o->metadata = ls->metadata.p;
		o->metadata_len = ls->metadata.n;
	}
	return true;
}

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
	if (ls->has_choices || ls->has_meta_info || ls->has_timings)
		return SS_KIND_BODY;
	return SS_KIND_UNKNOWN;
}

/*
 * The parts of a records line validated whole, read from the outer
 * parser's index: its metadata and its spec_decode_acceptance payload.
 * The last of a repeated key counts (SPEC 1.2), as in the walk that found
 * their spans; a payload is read only while it can be the last one.
 */
struct line_parts {
	struct ss_processor *p;
	struct ss_meta_scan meta;
	enum ssj_status sda;  /* the last object payload's collect status */
};

static int line_parts_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct line_parts *lp = ctx;

	if (ss_key_is(key, n, "metadata")) {
		if (!ss_meta_scan_of(v, &lp->meta))
			return 1;
	} else if (ss_key_is(key, n, "spec_decode_acceptance")) {
		if (ssj_value_type(v) == SSJ_OBJECT) {
			lp->sda = ss_payload_collect_value(&lp->p->pl, v);
			if (lp->sda == SSJ_ENOMEM)
				return 1;
		}
	}
	return 0;
}

static bool process_line(struct ss_processor *p, const char *text, size_t len,
			 struct ss_outcome *o)
{
	struct line_scan *ls = &p->scan;
	enum ssj_status s;
	enum ss_kind kind;
	struct ss_meta_scan meta = SS_META_SCAN_NONE;
	bool validated, whole = false, line_valid = false;
	struct line_parts parts = {p, SS_META_SCAN_NONE, SSJ_EINTERNAL};

	/*
	 * specscan's own lines start with their source: they are copied to
	 * --records unchanged, so validated whole, and validating first lets
	 * the walk reuse the validated document.
	 */
	/*
	 * Nothing of the previous line's walk may survive a line refused
	 * before its walk: find_model() would read its spans (found by
	 * fuzz_records: a dangling span, and another line's model).
	 */
	ls->parsed = false;
	validated = len > 11 && memcmp(text, "{\"source\":{", 11) == 0;
	/*
	 * A records line is read or copied almost whole (metadata, metrics,
	 * its record), a body is walked twice, and specscan's own lines are
	 * copied whole: such a line (for records and bodies: a line after
	 * one) is first checked whole by the whole-text path, one pass
	 * instead of the walks, the validating walk and the read. A line that
	 * does not pass goes the usual way below, which decides; one that
	 * does is read with the same callbacks, so every outcome is the same.
	 * (Raw lines stay on the usual way: most of their text is skipped.)
	 */
	if (len <= SSJ_WHOLE_MAX &&
	    (validated ||
	     ((p->last_kind == SS_KIND_RECORDS || p->last_kind == SS_KIND_BODY) &&
	      (p->opts.force_kind == SS_KIND_UNKNOWN || p->opts.force_kind == p->last_kind)))) {
		s = ss_line_walk_whole(p, text, len, validated);
		if (ls->nomem || p->cap.nomem || s == SSJ_ENOMEM)
			return false;
		whole = s == SSJ_OK && !ls->failed;
		if (!whole)
			ss_capture_reset(&p->cap);
	}
	if (validated && !whole) {
		s = ssj_validate(p->outer, text, len);
		if (s != SSJ_OK) {
			if (s == SSJ_ENOMEM)
				return false;
			set(o, SS_ST_UNPARSABLE, ssj_strerror(s));
			return true;
		}
	}
	if (!whole) {
		s = ss_line_walk(p, text, len, validated);
		if (ls->nomem || p->cap.nomem || s == SSJ_ENOMEM)
			return false;
		if (ls->failed && s == SSJ_STOPPED)
			s = SSJ_ESYNTAX;
		if (s != SSJ_OK) {
			set(o, SS_ST_UNPARSABLE, ssj_strerror(s));
			return true;
		}
	}
	if (detect(p) == SS_KIND_ENRICHED)
		return enriched_line(p, o, text, len);
	if (validated) {
		/* it looked like one of specscan's lines but is not: walk as usual */
		ss_capture_reset(&p->cap);
		s = ss_line_walk(p, text, len, false);
		if (ls->nomem || p->cap.nomem || s == SSJ_ENOMEM)
			return false;
		if (s != SSJ_OK || ls->failed) {
			set(o, SS_ST_UNPARSABLE, ssj_strerror(s == SSJ_OK ? SSJ_ESYNTAX : s));
			return true;
		}
	}
	/*
	 * Spans copied verbatim into the outputs must be valid to the letter.
	 * A records line is mostly those spans: it is validated whole over
	 * the walk's index (no second stage 1), and its parts need no check
	 * of their own. If the whole line is not valid, each span is checked
	 * alone as before, so outcomes and reasons do not change.
	 */
	if (detect(p) == SS_KIND_RECORDS && whole && ls->read_parts) {
		/* valid to the letter, and read during the walk */
		line_valid = true;
		parts.meta = ls->parts_meta;
		parts.sda = ls->parts_sda;
	} else if (detect(p) == SS_KIND_RECORDS) {
		s = ssj_validate_again(p->outer);
		if (s == SSJ_ENOMEM)
			return false;
		line_valid = s == SSJ_OK;
		if (line_valid) {
			s = ssj_parse_again(p->outer, line_parts_field, &parts);
			if (parts.sda == SSJ_ENOMEM || s == SSJ_ENOMEM)
				return false;
			if (s != SSJ_OK) {
				/* not expected of a valid line: read it as before */
				line_valid = false;
				parts.sda = SSJ_EINTERNAL;
			}
		}
	}
	if (ls->metadata.p) {
		struct ss_meta_scan m = SS_META_SCAN_NONE;

		if (line_valid) {
			m = parts.meta;
			s = SSJ_OK;
		} else if (ls->metadata_object)
			s = ssj_validate_parse(p->inner, ls->metadata.p, ls->metadata.n, meta_field,
					       &m);
		else
			s = ssj_validate(p->inner, ls->metadata.p, ls->metadata.n);
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
		s = line_valid ? SSJ_OK : ssj_validate(p->inner, ls->metrics.p, ls->metrics.n);
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
		return decide_records(p, o, parts.sda);
	if (kind == SS_KIND_BODY) {
		/*
		 * The line is itself the request's one object: the walk
		 * above parsed it, and its index serves again.
		 */
		if (!ss_capture_object_again(&p->cap, p->outer))
			return false;
	}
	return decide_captured(p, o, kind == SS_KIND_RAW && ls->n_multi);
}

/* Point o->model at a name given as a string's escaped text. */
static bool model_from(struct ss_processor *p, struct ss_outcome *o, struct span esc)
{
	ss_buf_reset(&p->model);
	if (!ss_json_unescape(esc.p, esc.n, &p->model))
		return !p->model.failed;  /* an invalid escape: no model */
	o->model = p->model.data ? p->model.data : "";
	o->model_len = p->model.len;
	return true;
}

/*
 * SPEC 7.3's model: a raw line's `payload.model`, else the model of the
 * first of the request's objects that names one (a body or records line is
 * its own object; an enriched line's is taken as written).
 */
static bool find_model(struct ss_processor *p, struct ss_outcome *o, bool sse)
{
	const struct line_scan *ls = &p->scan;

	if (!sse && !ls->parsed)
		return true;
	if (!sse && o->kind == SS_KIND_RAW && ls->payload_model.p)
		return model_from(p, o, ls->payload_model);
	if (sse || o->kind == SS_KIND_RAW) {
		if (p->cap.has_model) {
			o->model = p->cap.model.data ? p->cap.model.data : "";
			o->model_len = p->cap.model.len;
		}
		return true;
	}
	return ls->model.p ? model_from(p, o, ls->model) : true;
}

/* ss_process clears an outcome around its two text arrays, which lie side
 * by side before `engine_long`. */
_Static_assert(offsetof(struct ss_outcome, engine) ==
		       offsetof(struct ss_outcome, reason) + SS_REASON_MAX &&
	       offsetof(struct ss_outcome, engine_long) ==
		       offsetof(struct ss_outcome, engine) + SS_ENGINE_NAME_MAX,
	       "reason and engine are the only fields skipped");

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

	if (req->oversize) {
		o->kind = req->sse ? SS_KIND_SSE : SS_KIND_UNKNOWN;
		set(o, SS_ST_OVERSIZE, "record longer than --max-record-size");
		return true;
	}
	if (req->sse) {
		o->kind = SS_KIND_SSE;
		for (size_t i = 0; i < req->nparts; i++) {
			/*
			 * Most events of a stream are content chunks that can
			 * change nothing once content was seen: the key scan
			 * passes them by, unless full_parse.
			 */
			if (!p->opts.full_parse &&
			    !ss_keyscan_worth_plain(p->cap.content, p->cap.has_model, req->parts[i],
						    req->lens[i]))
				continue;
			if (!ss_capture_object(&p->cap, p->inner, req->parts[i], req->lens[i]))
				return false;
		}
		return decide_captured(p, o, false) && find_model(p, o, true);
	}
	if (req->nparts != 1) {
		set(o, SS_ST_UNPARSABLE, "empty record");
		return true;
	}
	if (!process_line(p, req->parts[0], req->lens[0], o))
		return false;
	p->last_kind = o->kind;
	return find_model(p, o, false);
}
