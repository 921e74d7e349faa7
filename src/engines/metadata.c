/*
 * metadata.c - an AIPerf line's metadata object to its phase and its
 * cancelled flag (SPEC 1.5), its time (SPEC 7.8) and the values of the
 * meta.NAME group keys (SPEC 7.3), in one pass over it.
 */
#include "engines/metadata.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/payload.h"
#include "util/text.h"

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
/* ... and those of the times, read only for --windows */
#define META_TIME_LENS                                                          \
	(SSJ_LEN_BIT(sizeof("request_end_ns") - 1) |                            \
	 SSJ_LEN_BIT(sizeof("request_start_ns") - 1))

/* A number's text, or NULL. */
static void number_span(struct ssj_value *v, const char **p, size_t *n)
{
	*p = NULL;
	*n = 0;
	if (ssj_value_type(v) != SSJ_NUMBER || ssj_value_number_text(v, p, n) != SSJ_OK)
		*p = NULL;
}

/*
 * A JSON integer in 0..2^63-1 (SPEC 7.13): decimal digits only (no
 * fraction or exponent: 1e9 is a float to Python), at most 19 of them;
 * `-0` is the integer 0 (SPEC 13, 7.8).
 */
static bool time_of(const char *p, size_t n, int64_t *out)
{
	if (p && n == 2 && p[0] == '-' && p[1] == '0') {
		*out = 0;
		return true;
	}
	return p && n > 0 && n <= 19 && p[0] != '-' && ss_parse_count(p, n, out) == SS_INT_OK;
}

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

/*
 * v as the value of meta key k (a repeated key: each overwrites); *num
 * (*num_len) the text of a number, else NULL.
 */
static void meta_value(struct ss_meta_keys *mk, size_t k, struct ssj_value *v, const char **num,
		       size_t *num_len)
{
	struct ss_meta_value *mv = &mk->vals[k];
	const char *p;
	size_t n;
	bool b;
	int64_t i;

	memset(mv, 0, sizeof(*mv));
	*num = NULL;
	switch (ssj_value_type(v)) {
	case SSJ_STRING:
		if (ssj_value_string(v, &p, &n) == SSJ_OK) {
			mv->type = SS_META_STR;
			mv->len = n;
			mk->at[k] = mk->text.len;
			ss_buf_add(&mk->text, p, n);
		}
		break;
	case SSJ_BOOL:
		if (ssj_value_bool(v, &b) == SSJ_OK) {
			mv->type = SS_META_BOOL;
			mv->b = b;
		}
		break;
	case SSJ_NUMBER:
		if (ssj_value_number_text(v, &p, &n) == SSJ_OK) {
			*num = p;
			*num_len = n;
			if (int_of(p, n, &i)) {
				mv->type = SS_META_INT;
				mv->i = i;
			}
		}
		break;
	default:
		break;
	}
}

/*
 * The meta keys named key: the first one's index (SIZE_MAX: none), its
 * value read once (json.h) and copied to any other of that name.
 */
static size_t meta_keys_field(struct ss_meta_keys *mk, const char *key, size_t n,
			      struct ssj_value *v, const char **num, size_t *num_len)
{
	size_t first = SIZE_MAX;

	for (size_t k = 0; k < mk->n; k++) {
		if (mk->name_len[k] != n || memcmp(mk->names[k], key, n) != 0)
			continue;
		if (first == SIZE_MAX) {
			meta_value(mk, k, v, num, num_len);
			first = k;
		} else {
			mk->vals[k] = mk->vals[first];
			mk->at[k] = mk->at[first];
		}
	}
	return first;
}

/* The visit's context: the scan, and the group keys' values (NULL: none). */
struct meta_visit {
	struct ss_meta_scan *m;
	struct ss_meta_keys *keys;
};

/*
 * The scan's own keys from a value a group key read already (a key is
 * read once): what meta_field below reads from it directly.
 */
static void scan_from_key(struct ss_meta_scan *m, const char *key, size_t n,
			  const struct ss_meta_keys *mk, size_t k, const char *num, size_t num_len)
{
	const struct ss_meta_value *mv = &mk->vals[k];
	const char *s = mv->type == SS_META_STR && mk->text.data ? mk->text.data + mk->at[k] : "";
	int phase = -1;

	if (mv->type == SS_META_STR && !mk->text.failed) {
		if (ss_key_is(s, mv->len, "warmup"))
			phase = SS_PHASE_WARMUP;
		else if (ss_key_is(s, mv->len, "profiling"))
			phase = SS_PHASE_PROFILING;
	}
	if (ss_key_is(key, n, "was_cancelled")) {
		m->cancelled = mv->type == SS_META_BOOL && mv->b;
	} else if (ss_key_is(key, n, "benchmark_phase")) {
		m->phase = phase;
	} else if (ss_key_is(key, n, "credit_phase")) {
		m->credit_phase = phase;
	} else if (ss_key_is(key, n, "request_end_ns")) {
		m->end = num;
		m->end_len = num ? num_len : 0;
	} else if (ss_key_is(key, n, "request_start_ns")) {
		m->start = num;
		m->start_len = num ? num_len : 0;
	}
}

/* A repeated key: the last counts (SPEC 1.2), as each one overwrites. */
static int meta_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct meta_visit *mv = ctx;
	struct ss_meta_scan *m = mv->m;

	if (mv->keys) {
		const char *num = NULL;
		size_t num_len = 0;
		size_t k = meta_keys_field(mv->keys, key, n, v, &num, &num_len);

		if (k != SIZE_MAX) {
			scan_from_key(m, key, n, mv->keys, k, num, num_len);
			return 0;
		}
	}
	if (ss_key_is(key, n, "was_cancelled")) {
		bool b = false;

		m->cancelled = ssj_value_type(v) == SSJ_BOOL &&
			       ssj_value_bool(v, &b) == SSJ_OK && b;
	} else if (ss_key_is(key, n, "benchmark_phase")) {
		m->phase = phase_of(v);
	} else if (ss_key_is(key, n, "credit_phase")) {
		m->credit_phase = phase_of(v);
	} else if (ss_key_is(key, n, "request_end_ns")) {
		number_span(v, &m->end, &m->end_len);
	} else if (ss_key_is(key, n, "request_start_ns")) {
		number_span(v, &m->start, &m->start_len);
	}
	return 0;
}

/* The scan's callback for the keys alone (a composed text). */
static int meta_keys_only(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	const char *num;
	size_t num_len;

	(void)meta_keys_field(ctx, key, n, v, &num, &num_len);
	return 0;
}

/* Every value null, nothing held. */
static void meta_keys_clear(struct ss_meta_keys *mk)
{
	memset(mk->vals, 0, sizeof(mk->vals));
	ss_buf_reset(&mk->text);
}

void ss_meta_keys_init(struct ss_meta_keys *mk, const char *const *names, size_t n)
{
	memset(mk, 0, sizeof(*mk));
	ss_buf_init(&mk->text);
	mk->n = n < SS_META_KEYS_MAX ? n : SS_META_KEYS_MAX;
	for (size_t k = 0; k < mk->n; k++) {
		mk->names[k] = names[k];
		mk->name_len[k] = strlen(names[k]);
		mk->lens |= SSJ_LEN_BIT(mk->name_len[k]);
	}
}

void ss_meta_keys_release(struct ss_meta_keys *mk)
{
	ss_buf_release(&mk->text);
}

void ss_meta_keys_read_span(struct ss_meta_keys *mk, struct ssj_parser *parser,
			    const char *text, size_t len)
{
	meta_keys_clear(mk);
	/* not an object, or not valid: what it read before stays (none) */
	if (mk->n && len)
		(void)ssj_visit_span(parser, text, len, meta_keys_only, mk);
}

bool ss_meta_keys_attach(struct ss_meta_keys *mk, struct ss_outcome *o)
{
	if (!mk->n)
		return true;
	if (mk->text.failed)
		return false;
	for (size_t k = 0; k < mk->n; k++)
		if (mk->vals[k].type == SS_META_STR)
			mk->vals[k].s = mk->text.data ? mk->text.data + mk->at[k] : "";
	o->meta = mk->vals;
	o->nmeta = mk->n;
	return true;
}

bool ss_meta_scan_of(struct ssj_value *v, struct ss_meta_scan *m, bool want_time,
		     struct ss_meta_keys *keys)
{
	static const struct ss_meta_scan none = SS_META_SCAN_NONE;
	struct meta_visit mv = {m, keys && keys->n ? keys : NULL};
	uint64_t lens = want_time ? META_KEY_LENS | META_TIME_LENS : META_KEY_LENS;

	*m = none;
	if (mv.keys) {
		meta_keys_clear(mv.keys);
		lens |= mv.keys->lens;
	}
	return ssj_value_type(v) != SSJ_OBJECT ||
	       ssj_object_foreach_lens(v, lens, meta_field, &mv) == SSJ_OK;
}

enum ss_phase ss_meta_phase(const struct ss_meta_scan *m)
{
	if (m->phase >= 0)
		return (enum ss_phase)m->phase;
	if (m->credit_phase >= 0)
		return (enum ss_phase)m->credit_phase;
	return SS_PHASE_PROFILING;
}

bool ss_meta_time(const struct ss_meta_scan *m, int64_t *t_ns)
{
	return time_of(m->end, m->end_len, t_ns) || time_of(m->start, m->start_len, t_ns);
}
