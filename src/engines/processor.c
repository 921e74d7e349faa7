/*
 * processor.c - the life of a worker's processor (its parsers, buffers
 * and record), and the helpers every decision of the engines stage
 * shares: setting a status, the model name, and the outcome of a record.
 */
#include "engines/processor.h"

#include <stdio.h>
#include <string.h>

#include "json/unescape.h"
#include "util/alloc.h"

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
	ss_buf_init(&p->logtext);
	ss_meta_keys_init(&p->metakeys, opts->meta_names, opts->meta_n);
	p->opts.meta_names = p->metakeys.names;   /* the caller's array may go */
	p->opts.meta_n = p->metakeys.n;
	p->outer = ssj_parser_new();
	p->inner = ssj_parser_new();
	if (!p->outer || !p->inner) {
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
	ssj_parser_free(p->inner);
	ss_buf_release(&p->chunk);
	ss_capture_release(&p->cap);
	ss_payload_release(&p->pl);
	ss_record_release(&p->rec);
	ss_buf_release(&p->model);
	ss_buf_release(&p->input);
	ss_buf_release(&p->logtext);
	ss_meta_keys_release(&p->metakeys);
	ss_free(p->parts);
	ss_free(p);
}

struct ssj_parser *ss_processor_document(struct ss_processor *p)
{
	return p->outer;
}

void ss_outcome_set(struct ss_outcome *o, enum ss_status s, const char *reason)
{
	o->status = s;
	if (reason)
		ss_copy_str(o->reason, sizeof(o->reason), reason);
}

bool ss_outcome_model(struct ss_processor *p, struct ss_outcome *o, struct ss_span esc)
{
	ss_buf_reset(&p->model);
	if (!ss_json_unescape(esc.p, esc.n, &p->model))
		return !p->model.failed;  /* an invalid escape: no model */
	o->model = p->model.data ? p->model.data : "";
	o->model_len = p->model.len;
	return true;
}

void ss_outcome_record(struct ss_processor *p, struct ss_outcome *o)
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
	/* a zero_step record's counts too: reconciliation sums them (SPEC 10.3, 13) */
	o->has_steps = p->rec.has_steps;
	o->steps = p->rec.num_spec_steps;
	o->accepted = p->rec.num_accepted_draft_tokens;
	o->drafted = p->rec.num_draft_tokens;
	o->no_drafted = !p->rec.has_num_draft_tokens;
	if (o->status == SS_ST_ZERO_STEP) {
		ss_copy_str(o->reason, sizeof(o->reason),
			    p->rec.has_steps ? "no verify steps" : "no drafts");
		return;
	}
	if (p->rec.has_histogram) {
		o->hist = p->rec.histogram.v;
		o->hist_len = p->rec.histogram.len;
	}
}

void ss_reason_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20)
			*s = ' ';
}
