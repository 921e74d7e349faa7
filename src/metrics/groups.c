#include "metrics/groups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

static int cmp_bytes(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	if (c)
		return c;
	return (na > nb) - (na < nb);
}

/* null < false < true < numbers < strings: one rank per type and boolean. */
static int rank(const struct ss_kv *v)
{
	switch (v->type) {
	case SS_KV_NULL:
		return 0;
	case SS_KV_BOOL:
		return v->b ? 2 : 1;
	case SS_KV_INT:
	case SS_KV_QUARTERS:
		return 3;
	case SS_KV_STR:
		break;
	}
	return 4;
}

int ss_kv_cmp(const struct ss_kv *a, const struct ss_kv *b)
{
	int ra = rank(a), rb = rank(b);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->type == SS_KV_INT && b->type == SS_KV_INT)
		return (a->i > b->i) - (a->i < b->i);
	if (ra == 3) {
		/* a number: both in quarters, wide enough for 4 * INT64_MAX */
		__int128 x = (__int128)a->i * (a->type == SS_KV_INT ? 4 : 1);
		__int128 y = (__int128)b->i * (b->type == SS_KV_INT ? 4 : 1);

		return (x > y) - (x < y);
	}
	if (a->type == SS_KV_STR)
		return cmp_bytes(a->s, a->len, b->s, b->len);
	return 0;
}

int ss_kv_tuple_cmp(const struct ss_kv *a, const struct ss_kv *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = ss_kv_cmp(&a[i], &b[i]);

		if (c)
			return c;
	}
	return 0;
}

/* A decimal integer, the whole text: [+-]digits, in int64 range. */
static bool parse_int(const char *text, int64_t *out)
{
	const char *p = text;
	char *end;
	long long v;

	if (*p == '+' || *p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* A decimal number, the whole text, equal to q / 4 (exact in a double). */
static bool quarters_match(const char *text, int64_t q)
{
	char *end;
	double d;

	if (!(*text >= '0' && *text <= '9') && *text != '.' && *text != '-' && *text != '+')
		return false;   /* no inf, nan or leading space */
	errno = 0;
	d = strtod(text, &end);
	return !errno && *end == '\0' && end != text && d == (double)q / 4.0;
}

bool ss_kv_matches_text(const struct ss_kv *v, const char *text)
{
	int64_t i;

	switch (v->type) {
	case SS_KV_NULL:
		return strcmp(text, "null") == 0;
	case SS_KV_BOOL:
		return strcmp(text, v->b ? "true" : "false") == 0;
	case SS_KV_INT:
		return parse_int(text, &i) && i == v->i;
	case SS_KV_QUARTERS:
		return quarters_match(text, v->i);
	case SS_KV_STR:
		break;
	}
	return strlen(text) == v->len && memcmp(text, v->s, v->len) == 0;
}

void ss_kv_add_text(struct ss_buf *b, const struct ss_kv *v)
{
	switch (v->type) {
	case SS_KV_NULL:
		ss_buf_adds(b, "null");
		break;
	case SS_KV_BOOL:
		ss_buf_adds(b, v->b ? "true" : "false");
		break;
	case SS_KV_INT:
		ss_buf_add_i64(b, v->i);
		break;
	case SS_KV_QUARTERS: {
		static const char *const frac[4] = {".0", ".25", ".5", ".75"};
		uint64_t m = v->i < 0 ? -(uint64_t)v->i : (uint64_t)v->i;

		if (v->i < 0)
			ss_buf_addc(b, '-');
		ss_buf_add_u64(b, m / 4);
		ss_buf_adds(b, frac[m % 4]);
		break;
	}
	case SS_KV_STR:
		ss_buf_add(b, v->s, v->len);
		break;
	}
}

int64_t ss_osl_bucket(int64_t c)
{
	if (c < 1)
		return 0;
	return (int64_t)1 << (63 - __builtin_clzll((unsigned long long)c));
}

/* ---- the group table ---- */

void ss_group_table_init(struct ss_group_table *t, size_t nkeys)
{
	memset(t, 0, sizeof(*t));
	t->nkeys = nkeys;
}

void ss_group_table_release(struct ss_group_table *t)
{
	for (size_t i = 0; i < t->n * t->nkeys; i++)
		if (t->vals[i].type == SS_KV_STR)
			ss_free((char *)t->vals[i].s);
	ss_free(t->vals);
	ss_free(t->slots);
	ss_free(t->hashes);
	ss_group_table_init(t, t->nkeys);
}

/* FNV-1a over each value's type and contents. */
static uint64_t hash_tuple(const struct ss_kv *v, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++) {
		unsigned char r = (unsigned char)rank(&v[i]);

		h = (h ^ r) * UINT64_C(0x100000001b3);
		/* a whole quarters value hashes as the integer it equals */
		if (v[i].type == SS_KV_INT || v[i].type == SS_KV_QUARTERS) {
			uint64_t x = (uint64_t)v[i].i;

			if (v[i].type == SS_KV_QUARTERS)
				x = v[i].i % 4 ? x ^ UINT64_C(0x9e3779b97f4a7c15)
					       : (uint64_t)(v[i].i / 4);
			for (int s = 0; s < 64; s += 8)
				h = (h ^ ((x >> s) & 0xff)) * UINT64_C(0x100000001b3);
		}
		else if (v[i].type == SS_KV_STR)
			for (size_t j = 0; j < v[i].len; j++)
				h = (h ^ (unsigned char)v[i].s[j]) * UINT64_C(0x100000001b3);
	}
	return h;
}

static bool rehash(struct ss_group_table *t, size_t nslots)
{
	uint32_t *slots = ss_calloc(nslots, sizeof(*slots));

	if (!slots)
		return false;
	for (size_t id = 0; id < t->n; id++) {
		size_t s = (size_t)t->hashes[id] & (nslots - 1);

		while (slots[s])
			s = (s + 1) & (nslots - 1);
		slots[s] = (uint32_t)id + 1;
	}
	ss_free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return true;
}

/* Append a copy of `tuple` as group t->n. */
static bool append(struct ss_group_table *t, const struct ss_kv *tuple, uint64_t h)
{
	struct ss_kv *dst;

	if (!SS_ALLOC_GROW(t->vals, (t->n + 1) * t->nkeys, t->vals_cap) ||
	    !SS_ALLOC_GROW(t->hashes, t->n + 1, t->hashes_cap))
		return false;
	dst = &t->vals[t->n * t->nkeys];
	for (size_t i = 0; i < t->nkeys; i++) {
		dst[i] = tuple[i];
		if (tuple[i].type == SS_KV_STR) {
			char *s = ss_malloc(tuple[i].len + 1);

			if (!s) {
				while (i-- > 0)
					if (dst[i].type == SS_KV_STR)
						ss_free((char *)dst[i].s);
				return false;
			}
			memcpy(s, tuple[i].s, tuple[i].len);
			s[tuple[i].len] = '\0';
			dst[i].s = s;
		}
	}
	t->hashes[t->n] = h;
	t->n++;
	return true;
}

bool ss_group_table_id(struct ss_group_table *t, const struct ss_kv *tuple, size_t *id,
		       bool *is_new)
{
	uint64_t h;
	size_t s;

	*is_new = false;
	/* Requests come in runs (one input, one model): try the last group first. */
	if (t->n && ss_kv_tuple_cmp(ss_group_table_key(t, t->last), tuple, t->nkeys) == 0) {
		*id = t->last;
		return true;
	}
	h = hash_tuple(tuple, t->nkeys);
	if (t->nslots) {
		for (s = (size_t)h & (t->nslots - 1); t->slots[s]; s = (s + 1) & (t->nslots - 1)) {
			size_t g = t->slots[s] - 1;

			if (t->hashes[g] == h &&
			    ss_kv_tuple_cmp(ss_group_table_key(t, g), tuple, t->nkeys) == 0) {
				*id = t->last = g;
				return true;
			}
		}
	}
	if (t->n >= UINT32_MAX - 1)
		return false;
	/* Keep the load at most one half. */
	if ((t->n + 1) * 2 > t->nslots && !rehash(t, t->nslots ? t->nslots * 2 : 16))
		return false;
	if (!append(t, tuple, h))
		return false;
	for (s = (size_t)h & (t->nslots - 1); t->slots[s]; s = (s + 1) & (t->nslots - 1))
		;
	t->slots[s] = (uint32_t)t->n;
	*id = t->last = t->n - 1;
	*is_new = true;
	return true;
}

const struct ss_kv *ss_group_table_key(const struct ss_group_table *t, size_t id)
{
	return &t->vals[id * t->nkeys];
}

struct sort_item {
	const struct ss_kv *key;
	size_t nkeys;
	size_t id;
};

static int cmp_item(const void *x, const void *y)
{
	const struct sort_item *a = x, *b = y;

	return ss_kv_tuple_cmp(a->key, b->key, a->nkeys);
}

bool ss_group_table_sorted(const struct ss_group_table *t, size_t *order)
{
	struct sort_item *items;

	if (t->n == 0)
		return true;
	items = ss_reallocarray(NULL, t->n, sizeof(*items));
	if (!items)
		return false;
	for (size_t i = 0; i < t->n; i++) {
		items[i].key = ss_group_table_key(t, i);
		items[i].nkeys = t->nkeys;
		items[i].id = i;
	}
	/* Keys are distinct, so qsort's instability cannot show. */
	qsort(items, t->n, sizeof(*items), cmp_item);
	for (size_t i = 0; i < t->n; i++)
		order[i] = items[i].id;
	ss_free(items);
	return true;
}
