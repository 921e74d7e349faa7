#include "model/outcome.h"

#include <stdint.h>
#include <string.h>

void ss_outcome_arena_init(struct ss_outcome_arena *a)
{
	ss_buf_init(&a->bytes);
}

void ss_outcome_arena_release(struct ss_outcome_arena *a)
{
	ss_buf_release(&a->bytes);
}

void ss_outcome_arena_reset(struct ss_outcome_arena *a)
{
	ss_buf_reset(&a->bytes);
}

/* n bytes at p into the arena, at a multiple of `align`: their offset. */
static size_t put(struct ss_outcome_arena *a, const void *p, size_t n, size_t align)
{
	size_t at;

	while (a->bytes.len % align)
		ss_buf_addc(&a->bytes, '\0');
	at = a->bytes.len;
	ss_buf_add(&a->bytes, p, n);
	return at;
}

/* A string view: its bytes and a NUL (the messages print it as a C string). */
static size_t put_str(struct ss_outcome_arena *a, const char *s, size_t n)
{
	size_t at = put(a, s, n, 1);

	ss_buf_addc(&a->bytes, '\0');
	return at;
}

bool ss_outcome_arena_keep(struct ss_outcome_arena *a, struct ss_outcome *o)
{
	struct ss_outcome_at *k = &o->kept;

	k->hist = k->by_len = k->engine_long = k->input = k->model = SIZE_MAX;
	if (o->hist && o->hist_len)
		k->hist = put(a, o->hist, o->hist_len * sizeof(*o->hist), sizeof(*o->hist));
	if (o->by_len && o->by_len_len)
		k->by_len = put(a, o->by_len, o->by_len_len * sizeof(*o->by_len),
				sizeof(*o->by_len));
	if (o->engine_long)
		k->engine_long = put_str(a, o->engine_long, strlen(o->engine_long));
	if (o->input)
		k->input = put_str(a, o->input, o->input_len);
	if (o->model)
		k->model = put_str(a, o->model, o->model_len);
	o->hist = o->by_len = NULL;
	o->engine_long = o->input = o->model = NULL;
	o->record = NULL;
	o->metadata = o->metrics = o->verbatim = NULL;
	o->meta = NULL;
	return !a->bytes.failed;
}

void ss_outcome_arena_restore(const struct ss_outcome_arena *a, struct ss_outcome *o)
{
	const struct ss_outcome_at *k = &o->kept;
	const char *base = a->bytes.data;

	/* (a view is kept only when something was put, so base is not NULL) */
	if (k->hist != SIZE_MAX)
		o->hist = (const int64_t *)(const void *)(base + k->hist);
	if (k->by_len != SIZE_MAX)
		o->by_len = (const int64_t *)(const void *)(base + k->by_len);
	if (k->engine_long != SIZE_MAX)
		o->engine_long = base + k->engine_long;
	if (k->input != SIZE_MAX)
		o->input = base + k->input;
	if (k->model != SIZE_MAX)
		o->model = base + k->model;
}
