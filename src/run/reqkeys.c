#include "run/reqkeys.h"

#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"
#include "util/text.h"

/* every meta.NAME key of a spec is one of the outcome's meta values */
_Static_assert(SS_META_KEYS_MAX >= SS_GROUP_MAX_KEYS, "outcome.meta holds every meta key");

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

/*
 * The value of the j-th meta.NAME key, as the engines read it from the
 * line's metadata (outcome.meta): null when the outcome has none.
 */
static void set_meta(struct ss_keybuf *kb, struct ss_kv *v, const struct ss_outcome *o, size_t j)
{
	const struct ss_meta_value *mv;

	if (!o->meta || j >= o->nmeta)
		return;
	mv = &o->meta[j];
	switch (mv->type) {
	case SS_META_INT:
		set_int(v, mv->i);
		break;
	case SS_META_BOOL:
		v->type = SS_KV_BOOL;
		v->b = mv->b;
		break;
	case SS_META_STR:
		set_str(kb, v, mv->s, mv->len);
		break;
	case SS_META_NULL:
		break;
	}
}

bool ss_keybuf_add(struct ss_keybuf *kb, const struct ss_group_spec *spec, const char *input,
		   const struct ss_outcome *o)
{
	const struct ss_record *r = o->record;
	struct ss_kv *vals;
	size_t nmeta = 0;   /* meta.NAME keys so far: outcome.meta's order */

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
			set_meta(kb, v, o, nmeta++);
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

size_t ss_keybuf_meta_names(const struct ss_group_spec *spec, const char **names)
{
	size_t n = 0;

	for (size_t k = 0; spec && k < spec->n && n < SS_GROUP_MAX_KEYS; k++)
		if (spec->keys[k].kind == SS_GK_META)
			names[n++] = spec->keys[k].meta;
	return n;
}
