#include "run/reqkeys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"
#include "util/text.h"

void ss_keybuf_init(struct ss_keybuf *kb)
{
	memset(kb, 0, sizeof(*kb));
	ss_buf_init(&kb->text);
}

void ss_keybuf_release(struct ss_keybuf *kb)
{
	ss_free(kb->vals);
	ss_buf_release(&kb->text);
	ss_keybuf_init(kb);
}

void ss_keybuf_reset(struct ss_keybuf *kb)
{
	kb->n = 0;
	ss_buf_reset(&kb->text);
}

static void set_null(struct ss_kv *v)
{
	memset(v, 0, sizeof(*v));
}

static void set_int(struct ss_kv *v, int64_t i)
{
	set_null(v);
	v->type = SS_KV_INT;
	v->i = i;
}

/* A string value: its bytes go to the arena, its offset to `i`. */
static void set_str(struct ss_keybuf *kb, struct ss_kv *v, const char *s, size_t n)
{
	set_null(v);
	v->type = SS_KV_STR;
	v->i = (int64_t)kb->text.len;
	v->len = n;
	ss_buf_add(&kb->text, s, n);
}

/* The `dir` of an input's name: its bytes up to the last '/', or "." (util/text.h). */
static void set_dir(struct ss_keybuf *kb, struct ss_kv *v, const char *name, size_t n)
{
	size_t keep;
	const char *sfx = ss_name_dir(name, n, &keep);

	set_str(kb, v, name, keep);
	ss_buf_adds(&kb->text, sfx);
	v->len += strlen(sfx);
}

/* The meta.NAME keys being looked for in one metadata object. */
struct meta_scan {
	struct ss_keybuf *kb;
	const struct ss_group_spec *spec;
	struct ss_kv *vals;
};

/* An integer literal that fits 64 bits; anything else is not an integer. */
static bool int_of(const char *p, size_t n, int64_t *out)
{
	char tmp[32], *end;
	long long v;

	if (n == 0 || n >= sizeof(tmp))
		return false;
	for (size_t j = 0; j < n; j++)
		if (p[j] == '.' || p[j] == 'e' || p[j] == 'E')
			return false;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static int meta_field(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct meta_scan *m = ctx;

	for (size_t k = 0; k < m->spec->n; k++) {
		const struct ss_group_key *gk = &m->spec->keys[k];
		const char *p;
		size_t n;
		bool b;
		int64_t i;

		if (gk->kind != SS_GK_META || strlen(gk->meta) != keylen ||
		    memcmp(gk->meta, key, keylen) != 0)
			continue;
		/* a later duplicate key wins, as everywhere (SPEC 1.2) */
		set_null(&m->vals[k]);
		switch (ssj_value_type(v)) {
		case SSJ_STRING:
			if (ssj_value_string(v, &p, &n) == SSJ_OK)
				set_str(m->kb, &m->vals[k], p, n);
			break;
		case SSJ_BOOL:
			if (ssj_value_bool(v, &b) == SSJ_OK) {
				m->vals[k].type = SS_KV_BOOL;
				m->vals[k].b = b;
			}
			break;
		case SSJ_NUMBER:
			if (ssj_value_number_text(v, &p, &n) == SSJ_OK && int_of(p, n, &i))
				set_int(&m->vals[k], i);
			break;
		default:
			break;
		}
	}
	return 0;
}

bool ss_keybuf_add(struct ss_keybuf *kb, const struct ss_group_spec *spec, const char *input,
		   const struct ss_outcome *o, struct ssj_parser *parser)
{
	const struct ss_record *r = o->record;
	struct ss_kv *vals;
	bool any_meta = false;

	if (!SS_ALLOC_GROW(kb->vals, (kb->n + 1) * spec->n, kb->cap))
		return false;
	vals = &kb->vals[kb->n * spec->n];
	for (size_t k = 0; k < spec->n; k++) {
		struct ss_kv *v = &vals[k];

		set_null(v);
		switch (spec->keys[k].kind) {
		case SS_GK_INPUT:
			/* an enriched line counts under its source.input (SPEC 8.1) */
			if (o->input)
				set_str(kb, v, o->input, o->input_len);
			else
				set_str(kb, v, input, strlen(input));
			break;
		case SS_GK_DIR:
			/* the directory of the same name `input` gives (SPEC 7.3) */
			if (o->input)
				set_dir(kb, v, o->input, o->input_len);
			else
				set_dir(kb, v, input, strlen(input));
			break;
		case SS_GK_ENGINE:
			if (r)
				set_str(kb, v, ss_outcome_engine(o), strlen(ss_outcome_engine(o)));
			break;
		case SS_GK_K:
			if (r && r->has_spec_tokens)
				set_int(v, r->num_spec_tokens);
			break;
		case SS_GK_PHASE:
			set_str(kb, v, o->phase == SS_PHASE_WARMUP ? "warmup" : "profiling",
				o->phase == SS_PHASE_WARMUP ? 6 : 9);
			break;
		case SS_GK_MODEL:
			if (o->model)
				set_str(kb, v, o->model, o->model_len);
			break;
		case SS_GK_META:
			any_meta = true;
			break;
		case SS_GK_OSL:
			if (r && r->has_completion_tokens && r->completion_tokens >= 1)
				set_int(v, ss_osl_bucket(r->completion_tokens));
			break;
		case SS_GK_CONCURRENCY:
			/* SPEC 11.4: the input's artifact directory, or source.concurrency */
			if (o->has_concurrency)
				set_int(v, o->concurrency);
			break;
		case SS_GK_REASONING: {
			/* SPEC 11.4: t / c in quarters; null without a record */
			int q;

			if (r && ss_reasoning_quarters(r->has_reasoning_tokens, r->reasoning_tokens,
						       r->has_completion_tokens,
						       r->completion_tokens, &q)) {
				set_int(v, q);
				v->type = SS_KV_QUARTERS;
			}
			break;
		}
		case SS_GK_ISL:
			/* SPEC 7.10: the same buckets; 0 prompt tokens is null */
			if (r && r->has_prompt_tokens && r->prompt_tokens >= 1)
				set_int(v, ss_osl_bucket(r->prompt_tokens));
			break;
		}
	}
	if (any_meta && o->metadata_len) {
		struct meta_scan m = {kb, spec, vals};

		/* Not an object, or broken: every meta key stays null. */
		(void)ssj_visit_span(parser, o->metadata, o->metadata_len, meta_field, &m);
	}
	if (kb->text.failed)
		return false;
	kb->n++;
	return true;
}

void ss_keybuf_tuple(const struct ss_keybuf *kb, size_t nkeys, size_t i, struct ss_kv *out)
{
	for (size_t k = 0; k < nkeys; k++) {
		out[k] = kb->vals[i * nkeys + k];
		if (out[k].type == SS_KV_STR)
			out[k].s = kb->text.data ? kb->text.data + out[k].i : "";
	}
}
