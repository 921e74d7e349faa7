/*
 * enriched.c - specscan's own enriched lines read back (SPEC 8.1): the
 * partial results of a shard, taken as written. Its status, reason,
 * source, model, metadata, metrics and record come from the line (the
 * record validated by SPEC 2.4-2.5); the line itself, checked whole when
 * it was opened, is written back unchanged (outcome's `verbatim`).
 */
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"
#include "engines/processor.h"
#include "json/unescape.h"
#include "model/timing.h"

int ss_source_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct ss_source_scan *k = ctx;
	enum ssj_type t = ssj_value_type(v);
	const char *s;
	size_t len;

	if (ss_key_is(key, n, "input")) {
		k->has_input = t == SSJ_STRING &&
			       ssj_value_raw_string(v, &k->input.p, &k->input.n) == SSJ_OK;
		if (!k->has_input)
			k->bad = "source.input is not a string";
	} else if (ss_key_is(key, n, "line")) {
		int64_t x;

		k->has_line = t == SSJ_NUMBER && ssj_value_number_text(v, &s, &len) == SSJ_OK &&
			      ss_parse_count(s, len, &x) == SS_INT_OK;
		if (!k->has_line)
			k->bad = "source.line is not a line number";
		else
			k->line = (uint64_t)x;
	} else if (ss_key_is(key, n, "concurrency")) {
		/* SPEC 11.4: its value when read back (an integer >= 1, else none) */
		k->has_concurrency = t == SSJ_NUMBER &&
				     ssj_value_number_text(v, &s, &len) == SSJ_OK &&
				     ss_concurrency_of(s, len, &k->concurrency);
	} else if (ss_key_is(key, n, "kind")) {
		k->has_kind = false;
		if (t == SSJ_STRING && ssj_value_string(v, &s, &len) == SSJ_OK) {
			for (int i = 0; i < SS_KIND_COUNT; i++) {
				const char *name = ss_kind_name((enum ss_kind)i);

				/* a server input holds no request (SPEC 10.1) */
				if (i != SS_KIND_SCRAPE && ss_key_is(s, len, name)) {
					k->kind = (enum ss_kind)i;
					k->has_kind = true;
				}
			}
		}
		if (!k->has_kind)
			k->bad = "source.kind is not a line kind";
	}
	return 0;
}

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
	ss_outcome_set(o, SS_ST_MALFORMED, why);
	return true;
}

/* The line's status: *st, or false with the outcome broken (*nomem: out
 * of memory instead). */
static bool line_status(struct ss_processor *p, struct ss_outcome *o, enum ss_status *st,
			bool *nomem)
{
	const struct line_scan *ls = &p->scan;
	struct ss_buf tmp = SS_BUF_INIT;
	char why[SS_REASON_MAX];
	bool known;

	*nomem = false;
	if (!ls->status.p)
		return !enriched_broken(o, "spec_decode_status is missing or not a string");
	if (!ss_json_unescape(ls->status.p, ls->status.n, &tmp)) {
		*nomem = tmp.failed;
		ss_buf_release(&tmp);
		return !enriched_broken(o, "spec_decode_status: invalid escape");
	}
	known = status_of(tmp.data ? tmp.data : "", tmp.len, st);
	if (!known)
		snprintf(why, sizeof(why), "unknown spec_decode_status \"%.60s\"",
			 tmp.data ? tmp.data : "");
	ss_buf_release(&tmp);
	if (!known) {
		ss_reason_sanitize(why);
		return !enriched_broken(o, why);
	}
	return true;
}

/* What record_of() made of a line. */
enum record_verdict { REC_NOMEM, REC_BROKEN, REC_TAKEN };

static enum record_verdict broken(struct ss_outcome *o, const char *why)
{
	enriched_broken(o, why);
	return REC_BROKEN;
}

/*
 * An ok or zero_step line: its record validated (SPEC 2.4, 2.5) and
 * matching the status (REC_BROKEN: the outcome says why not). *rewrite:
 * the line no longer says what specscan makes of it (--engine excludes
 * its engine) and is written anew.
 */
static enum record_verdict record_of(struct ss_processor *p, struct ss_outcome *o,
				     enum ss_status st, bool *rewrite)
{
	const struct line_scan *ls = &p->scan;
	char why[SS_REASON_MAX];
	struct ss_reader rd;
	enum ssj_status s;
	enum ss_engine e;

	if (!ls->sda_present || ls->sda_type != SSJ_OBJECT)
		return broken(o, "no spec_decode_acceptance record for an ok or zero_step status");
	s = ss_payload_collect(&p->pl, p->outer, ls->sda.p, ls->sda.n);
	if (s == SSJ_ENOMEM)
		return REC_NOMEM;
	if (s != SSJ_OK) {
		snprintf(why, sizeof(why), "spec_decode_acceptance: %s", ssj_strerror(s));
		return broken(o, why);
	}
	ss_reader_init(&rd, &p->pl, why, sizeof(why));
	if (!ss_records_line_map(&rd, &p->rec))
		return broken(o, why);
	if (!ss_record_check(&p->rec, why, sizeof(why)))
		return broken(o, why);
	if (ss_record_status(&p->rec) != st)
		return broken(o, st == SS_ST_OK
					  ? "spec_decode_status is ok but the record is zero-step"
					  : "spec_decode_status is zero_step but the record has steps");
	e = ss_engine_from_name(p->rec.engine);
	o->status = SS_ST_OK;
	if (p->opts.only_engine != SS_ENGINE_NONE && e != p->opts.only_engine) {
		ss_outcome_set(o, SS_ST_UNRECOGNIZED, "record of an engine excluded by --engine");
		*rewrite = true;
	} else {
		ss_outcome_record(p, o);
		o->reason[0] = '\0';
	}
	return REC_TAKEN;
}

/* The line's own reason, for a status without a record. */
static void reason_of(const struct line_scan *ls, struct ss_outcome *o)
{
	struct ss_buf tmp = SS_BUF_INIT;

	o->reason[0] = '\0';
	if (!ls->reason.p)
		return;
	if (ss_json_unescape(ls->reason.p, ls->reason.n, &tmp) && tmp.len)
		snprintf(o->reason, sizeof(o->reason), "%.*s",
			 (int)(tmp.len < SS_REASON_MAX - 1 ? tmp.len : SS_REASON_MAX - 1), tmp.data);
	ss_buf_release(&tmp);
	ss_reason_sanitize(o->reason);
}

/* Its status, reason, source, metadata and record, as written. */
static bool decide_enriched(struct ss_processor *p, struct ss_outcome *o, const char *text,
			    size_t len)
{
	const struct line_scan *ls = &p->scan;
	const struct ss_source_scan *src = &ls->src;
	enum ss_status st;
	bool nomem, rewrite = false;

	o->kind = SS_KIND_ENRICHED;
	if (!line_status(p, o, &st, &nomem))
		return !nomem;
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
		enum record_verdict r = record_of(p, o, st, &rewrite);

		if (r != REC_TAKEN)
			return r == REC_BROKEN;
	} else {
		o->status = st;
		reason_of(ls, o);
	}
	o->kind = src->kind;
	o->line = src->line;
	o->has_concurrency = src->has_concurrency;
	o->concurrency = src->concurrency;
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
		o->phase = ss_meta_phase(&ls->meta);
	return true;
}

bool ss_enriched_line(struct ss_processor *p, struct ss_outcome *o, const char *text,
		      size_t len)
{
	const struct line_scan *ls = &p->scan;

	if (!decide_enriched(p, o, text, len))
		return false;
	/* SPEC 8.1: model and metadata as written, for --group-by too */
	if (ls->metadata.p) {
		o->metadata = ls->metadata.p;
		o->metadata_len = ls->metadata.n;
		if (!ss_meta_keys_attach(&p->metakeys, o))
			return false;
	}
	return !ls->model.p || ss_outcome_model(p, o, ls->model);
}
