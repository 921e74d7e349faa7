/*
 * flat.c - the flat per-request table of flat.h, on the table model.
 */
#include "report/flat.h"

#include <stdio.h>
#include <string.h>

#include "model/record.h"
#include "model/timing.h"
#include "util/alloc.h"

/* The columns before the keys, then those after them (the timing). */
static const struct ss_tab_col fixed_cols[] = {
	{"input", SS_COL_NAME, true, SS_TAB_CSV, NULL, NULL, false},
	{"line", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"kind", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"status", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	{"reason", SS_COL_NAME, true, SS_TAB_CSV, NULL, NULL, false},
	{"engine", SS_COL_NAME, true, SS_TAB_CSV, NULL, NULL, false},
	{"model", SS_COL_NAME, true, SS_TAB_CSV, NULL, NULL, false},
	{"k", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"steps", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"accepted", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"drafted", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"acceptance_length", SS_COL_REAL, false, SS_TAB_CSV, NULL, NULL, false},
	{"draft_acceptance_rate", SS_COL_REAL, false, SS_TAB_CSV, NULL, NULL, false},
	{"completion_tokens", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"prompt_tokens", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
	{"reasoning_tokens", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
};
static const struct ss_tab_col time_cols[] = {
	{"time_to_first_token_ms", SS_COL_REAL, false, SS_TAB_CSV, NULL, NULL, false},
	{"inter_token_latency_ms", SS_COL_REAL, false, SS_TAB_CSV, NULL, NULL, false},
	{"request_latency_ms", SS_COL_REAL, false, SS_TAB_CSV, NULL, NULL, false},
	{"output_tokens", SS_COL_INT, false, SS_TAB_CSV, NULL, NULL, false},
};
#define NFIXED (sizeof(fixed_cols) / sizeof(fixed_cols[0]))
#define NTIME (sizeof(time_cols) / sizeof(time_cols[0]))

bool ss_flat_init(struct ss_flat *f, const struct ss_group_spec *spec)
{
	size_t nkeys = spec ? spec->n : 0, len = 0, at = 0;

	memset(f, 0, sizeof(*f));
	for (size_t k = 0; k < nkeys; k++)
		len += strlen("key.") + strlen(spec->keys[k].name) + 1;
	f->cols = ss_reallocarray(NULL, NFIXED + nkeys + NTIME, sizeof(*f->cols));
	f->heads = ss_malloc(len + 1);
	if (!f->cols || !f->heads) {
		ss_flat_release(f);
		return false;
	}
	memcpy(f->cols, fixed_cols, sizeof(fixed_cols));
	for (size_t k = 0; k < nkeys; k++) {
		char *h = f->heads + at;

		at += (size_t)sprintf(h, "key.%s", spec->keys[k].name) + 1;
		/* a key's value is a name from an input when it is text */
		f->cols[NFIXED + k] = (struct ss_tab_col){h, SS_COL_NAME, true, SS_TAB_CSV,
							  NULL, NULL, false};
	}
	memcpy(f->cols + NFIXED + nkeys, time_cols, sizeof(time_cols));
	f->ncols = NFIXED + nkeys + NTIME;
	f->nkeys = nkeys;
	return true;
}

void ss_flat_release(struct ss_flat *f)
{
	ss_free(f->cols);
	ss_free(f->heads);
	memset(f, 0, sizeof(*f));
}

void ss_flat_head(const struct ss_flat *f, struct ss_buf *out)
{
	struct ss_tab t;

	ss_tab_init(&t, f->cols, f->ncols);
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

static void opt_int(struct ss_tab *t, bool has, __int128 v)
{
	if (has)
		ss_tab_int(t, v);
	else
		ss_tab_empty(t);
}

static void opt_num(struct ss_tab *t, bool has, double v)
{
	if (has)
		ss_tab_num(t, v);
	else
		ss_tab_empty(t);
}

static void bytes(struct ss_tab *t, const char *s, size_t n)
{
	ss_buf_add(ss_tab_begin(t), s, n);
	ss_tab_end(t);
}

/*
 * The request's timing (SPEC 11.1) as the outcome carries it, for the
 * statuses timing is taken from (ok, zero_step, no_stats): a records or
 * enriched line's with --speedup, a raw line's always (run.c asks the
 * processor for it when there is a flat table). Otherwise every time is
 * unknown and its cells are empty.
 */
static void request_timing(const struct ss_outcome *o, struct ss_timing *tm)
{
	if (o->status == SS_ST_OK || o->status == SS_ST_ZERO_STEP ||
	    o->status == SS_ST_NO_STATS)
		*tm = o->timing;
	else
		ss_timing_clear(tm);
}

/* The cells of the record: engine .. reasoning_tokens. */
static void record_cells(struct ss_tab *t, const struct ss_outcome *o)
{
	const struct ss_record *r = o->status == SS_ST_OK || o->status == SS_ST_ZERO_STEP
					    ? o->record : NULL;
	const char *engine = r ? ss_record_engine(r) : NULL;
	bool ok = o->status == SS_ST_OK;

	bytes(t, engine ? engine : "", engine ? strlen(engine) : 0);
	bytes(t, o->model ? o->model : "", o->model ? o->model_len : 0);
	opt_int(t, r && r->has_spec_tokens, r ? r->num_spec_tokens : 0);
	opt_int(t, r && r->has_steps, r ? r->num_spec_steps : 0);
	opt_int(t, r != NULL, r ? r->num_accepted_draft_tokens : 0);
	opt_int(t, r != NULL, r ? r->num_draft_tokens : 0);
	opt_num(t, ok && o->values.has[SS_M_ACCEPTANCE_LENGTH],
		o->values.v[SS_M_ACCEPTANCE_LENGTH]);
	opt_num(t, ok && o->values.has[SS_M_DRAFT_ACCEPTANCE_RATE],
		o->values.v[SS_M_DRAFT_ACCEPTANCE_RATE]);
	if (r) {   /* zero_step too */
		opt_int(t, r->has_completion_tokens, r->completion_tokens);
		opt_int(t, r->has_prompt_tokens, r->prompt_tokens);
	} else {
		opt_int(t, o->has_completion, o->completion_tokens);
		opt_int(t, o->has_prompt, o->prompt_tokens);
	}
	opt_int(t, r && r->has_reasoning_tokens, r ? r->reasoning_tokens : 0); /* SPEC 11.4 */
}

void ss_flat_row(const struct ss_flat *f, struct ss_buf *out, const char *input_name,
		 const struct ss_outcome *o, const struct ss_kv *key)
{
	enum ss_status st = (unsigned)o->status < SS_ST_COUNT ? o->status : SS_ST_UNRECOGNIZED;
	struct ss_timing tm;
	struct ss_tab t;

	ss_tab_init(&t, f->cols, f->ncols);
	if (o->input)   /* an enriched line read back keeps its source */
		bytes(&t, o->input, o->input_len);
	else
		ss_tab_text(&t, input_name);
	ss_tab_int(&t, (__int128)o->line);
	ss_tab_text(&t, ss_kind_name(o->kind));
	ss_tab_text(&t, ss_status_name(st));
	bytes(&t, o->reason, st == SS_ST_OK ? 0 : strnlen(o->reason, SS_REASON_MAX));
	record_cells(&t, o);
	for (size_t k = 0; k < f->nkeys; k++) {
		if (!key || key[k].type == SS_KV_NULL) {
			ss_tab_empty(&t);
		} else if (key[k].type == SS_KV_INT) {
			ss_tab_int(&t, key[k].i);
		} else {
			ss_kv_add_text(ss_tab_begin(&t), &key[k]);
			ss_tab_end(&t);
		}
	}
	request_timing(o, &tm);
	for (int i = 0; i < SS_T_COUNT; i++)
		opt_num(&t, tm.has[i], tm.ms[i]);
	opt_int(&t, tm.has_output, tm.output_tokens);
	ss_tab_csv(out, &t, false);
	ss_tab_release(&t);
}
