/*
 * payload.c - a spec-decode payload's fields, collected in one visit, and
 * the strict readers the adapters use (SPEC 2.4).
 */
#include "engines/payload.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The names, in enum ss_field_id order, with their lengths for lookup(). */
#define FIELD_NAMES(X)                                                              \
	X("acceptance_histogram") X("num_spec_steps") X("mean_acceptance_length")   \
	X("draft_acceptance_rate") X("num_accepted_draft_tokens")                   \
	X("num_draft_tokens") X("num_spec_tokens") X("per_step_accepted")           \
	X("per_step_drafted") X("total_accepted_draft_tokens")                      \
	X("total_draft_tokens") X("acceptance_rate") X("draft_n")                   \
	X("draft_n_accepted") X("draft_rounds") X("spec_verify_ct")                 \
	X("spec_num_correct_drafts") X("spec_accepted_drafts")                      \
	X("spec_accept_token_num") X("spec_num_proposed_drafts")                    \
	X("spec_proposed_drafts") X("spec_draft_token_num")                         \
	X("spec_correct_drafts_histogram") X("spec_accept_histogram") X("engine")   \
	X("completion_tokens") X("prompt_tokens") X("acceptance_histogram_by_draft_length") \
	X("reasoning_tokens")
#define FIELD_NAME(lit) lit,
#define FIELD_LEN(lit) sizeof(lit) - 1,

static const char *const field_names[SS_F_COUNT] = {FIELD_NAMES(FIELD_NAME)};
static const unsigned char field_lens[] = {FIELD_NAMES(FIELD_LEN)};
_Static_assert(sizeof(field_lens) == SS_F_COUNT, "one length per field name");
_Static_assert(SS_F_COUNT <= 127, "field ids fit a signed char");

/*
 * The fields by name length, for lookup(): the first field of each length,
 * and from each field the next one of its length (-1: none), built once
 * (ss_payload_init). A key is compared with the one to three names of its
 * length instead of all of them: 2% of a records line's processing.
 */
#define NAME_LEN_MAX 40
static signed char first_of_len[NAME_LEN_MAX], next_of_len[SS_F_COUNT];
static pthread_once_t by_len_once = PTHREAD_ONCE_INIT;
#define FIELD_FITS(lit) _Static_assert(sizeof(lit) - 1 < NAME_LEN_MAX, "name too long: " lit);
FIELD_NAMES(FIELD_FITS)

static void build_by_len(void)
{
	memset(first_of_len, -1, sizeof(first_of_len));
	for (int i = SS_F_COUNT - 1; i >= 0; i--) {
		next_of_len[i] = first_of_len[field_lens[i]];
		first_of_len[field_lens[i]] = (signed char)i;
	}
}

/* a[0..n) == b[0..n), eight bytes at a time: inline, where a call to
 * memcmp for each key was 1.5% of a records run. */
static inline bool same8(const char *a, const char *b)
{
	uint64_t x, y;

	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	return x == y;
}

static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	if (n < 8) {
		for (; n; a++, b++, n--)
			if (*a != *b)
				return false;
		return true;
	}
	/* whole words, then the last eight bytes (overlapping) */
	for (size_t i = 0; i + 8 < n; i += 8)
		if (!same8(a + i, b + i))
			return false;
	return same8(a + n - 8, b + n - 8);
}

static enum ss_field_id lookup(const char *key, size_t n)
{
	if (n >= NAME_LEN_MAX)
		return SS_F_COUNT;
	for (int i = first_of_len[n]; i >= 0; i = next_of_len[i])
		if (same_bytes(field_names[i], key, n))
			return (enum ss_field_id)i;
	return SS_F_COUNT;
}

const char *ss_field_name(enum ss_field_id id)
{
	return (unsigned)id < SS_F_COUNT ? field_names[id] : "?";
}

void ss_payload_init(struct ss_payload *pl)
{
	pthread_once(&by_len_once, build_by_len);
	memset(pl, 0, sizeof(*pl));
}

void ss_payload_release(struct ss_payload *pl)
{
	for (int i = 0; i < SS_F_COUNT; i++)
		SS_VEC_RELEASE(&pl->f[i].ints);
	ss_buf_release(&pl->engine);
	memset(pl, 0, sizeof(*pl));
}

_Static_assert(SS_F_COUNT <= 64, "ss_payload.touched has a bit per field");

/*
 * Only the fields the last payload wrote are cleared (the others are still
 * as ss_payload_init or the previous reset left them): clearing all of them
 * for every line was a few percent of a records run.
 */
static void payload_reset(struct ss_payload *pl)
{
	uint64_t m = pl->touched;

	while (m) {
		struct ss_field *f = &pl->f[__builtin_ctzll(m)];

		m &= m - 1;
		/* ierr_index and ierr_key are written whenever ierr is */
		f->present = false;
		f->type = SSJ_INVALID;
		f->text = NULL;
		f->len = 0;
		f->ints.len = 0;
		f->ierr = SS_INT_OK;
	}
	pl->touched = 0;
	pl->strlen = 0;
	/* A huge engine name is not kept for the next payload. */
	if (pl->engine.cap > 4096)
		ss_buf_release(&pl->engine);
	ss_buf_reset(&pl->engine);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * Eight ASCII digits at p (the first in the lowest byte) to their value;
 * false when a byte is not a digit. A digit's high nibble is 3, and stays
 * 3 after adding 6 only for '0'-'9' (a carry out of a byte comes only from
 * a byte that already fails). Then pairs, fours and the eight digits are
 * combined by multiplication.
 */
static inline bool digits8(const char *p, uint64_t *out)
{
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0ull, ones = 0x0101010101010101ull;
	uint64_t v;

	memcpy(&v, p, 8);
	if (((v & hi) | (((v + 6 * ones) & hi) >> 4)) != 0x33 * ones)
		return false;
	v -= 0x30 * ones;
	v = v * 10 + (v >> 8);  /* two-digit values in bytes 0, 2, 4 and 6 */
	v = ((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
	     ((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
	*out = v;
	return true;
}
#endif

enum ss_int_error ss_parse_count_long(const char *s, size_t n, int64_t *out)
{
	size_t i = 0, first;
	bool neg = false, overflow = false;
	uint64_t v = 0;

	if (n > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == n)
		return SS_INT_NOT_INTEGER;
	first = i;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * A request time in nanoseconds (SPEC 7.8) has 19 digits: the first
	 * sixteen, which cannot overflow, are read eight at a time.
	 */
	if (n - i >= 16) {
		uint64_t a, b;

		if (!digits8(s + i, &a) || !digits8(s + i + 8, &b))
			return SS_INT_NOT_INTEGER;
		v = a * 100000000u + b;
		i += 16;
	}
#endif
	/*
	 * A non-digit anywhere makes it not an integer, even after the value
	 * overflowed. The first 19 digits cannot overflow 64 bits: only the
	 * later ones are checked.
	 */
	for (size_t safe = n - first > 19 ? first + 19 : n; i < safe; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return SS_INT_NOT_INTEGER;
		v = v * 10 + d;
	}
	for (; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return SS_INT_NOT_INTEGER;
		if (overflow)
			continue;
		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	if (overflow)
		return neg ? SS_INT_NEGATIVE : SS_INT_RANGE;
	if (neg && v != 0)
		return SS_INT_NEGATIVE;
	if (v > (uint64_t)INT64_MAX)
		return SS_INT_RANGE;
	*out = (int64_t)v;
	return SS_INT_OK;
}

struct array_walk {
	struct ss_field *f;
	bool nomem;
};

/* A value that must be a count. */
static enum ss_int_error value_count(struct ssj_value *v, int64_t *x)
{
	const char *t;
	size_t n;

	if (ssj_value_number_text(v, &t, &n) != SSJ_OK)
		return SS_INT_NOT_NUMBER;
	return ss_parse_count(t, n, x);
}

/* Remember the histogram key at fault. */
static void key_error(struct ss_field *f, enum ss_int_error e, const char *key, size_t keylen)
{
	f->ierr = e;
	snprintf(f->ierr_key, sizeof(f->ierr_key), "%.*s", (int)(keylen < 20 ? keylen : 20),
		 key);
	f->ierr_index = SIZE_MAX;
}

static int array_elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct array_walk *w = ctx;
	struct ss_field *f = w->f;
	int64_t x = 0;
	enum ss_int_error e;

	if (f->ints.len >= SS_HIST_MAX_BUCKETS) {
		f->ierr = SS_INT_TOO_LONG;
		return 1;
	}
	e = value_count(v, &x);
	if (e != SS_INT_OK) {
		f->ierr = e;
		f->ierr_index = index;
		return 1;
	}
	if (!SS_VEC_PUSH(&f->ints, x)) {
		w->nomem = true;
		return 1;
	}
	return 0;
}

static int hist_member(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct array_walk *w = ctx;
	struct ss_field *f = w->f;
	int64_t j = 0, x = 0;
	enum ss_int_error e;

	e = ss_parse_count(key, keylen, &j);
	/* SPEC 2.6: keys are canonical decimals: not "-0", "00" or "01". */
	if (e == SS_INT_OK && keylen > 0 && (key[0] == '-' || (key[0] == '0' && keylen > 1)))
		e = SS_INT_NOT_INTEGER;
	if (e == SS_INT_OK && j >= (int64_t)SS_HIST_MAX_BUCKETS)
		e = SS_INT_TOO_LONG;
	if (e != SS_INT_OK) {
		key_error(f, e == SS_INT_TOO_LONG ? SS_INT_TOO_LONG : SS_INT_NOT_INTEGER, key,
			  keylen);
		return 1;
	}
	e = value_count(v, &x);
	if (e != SS_INT_OK) {
		key_error(f, e, key, keylen);
		return 1;
	}
	while (f->ints.len <= (size_t)j) {
		if (!SS_VEC_PUSH(&f->ints, 0)) {
			w->nomem = true;
			return 1;
		}
	}
	f->ints.v[j] = x;  /* a repeated key keeps its last count */
	return 0;
}

/*
 * One row of acceptance_histogram_by_draft_length (SPEC 7.9): a canonical
 * decimal key d and an array of counts, kept as d, the array's length and
 * its counts (the reader checks the length and puts the rows in order).
 * A value that is not an array: ierr SS_INT_NOT_NUMBER at ierr_index
 * SIZE_MAX; a bad count: its error at its index.
 */
static int bdl_member(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct array_walk *w = ctx;
	struct ss_field *f = w->f;
	int64_t d = 0;
	size_t at;
	enum ss_int_error e;
	enum ssj_status s;

	e = ss_parse_count(key, keylen, &d);
	if (e == SS_INT_OK && keylen > 0 && (key[0] == '-' || (key[0] == '0' && keylen > 1)))
		e = SS_INT_NOT_INTEGER;
	if (e == SS_INT_OK && d >= (int64_t)SS_HIST_MAX_BUCKETS)
		e = SS_INT_TOO_LONG;
	if (e != SS_INT_OK) {
		key_error(f, e == SS_INT_TOO_LONG ? SS_INT_TOO_LONG : SS_INT_NOT_INTEGER, key,
			  keylen);
		return 1;
	}
	if (ssj_value_type(v) != SSJ_ARRAY) {
		key_error(f, SS_INT_NOT_NUMBER, key, keylen);
		return 1;
	}
	if (!SS_VEC_PUSH(&f->ints, d) || !SS_VEC_PUSH(&f->ints, 0)) {
		w->nomem = true;
		return 1;
	}
	at = f->ints.len;
	s = ssj_array_foreach(v, array_elem, w);
	if (w->nomem)
		return 1;
	if (f->ierr != SS_INT_OK) {
		size_t idx = f->ierr_index;

		key_error(f, f->ierr, key, keylen);
		f->ierr_index = idx;
		return 1;
	}
	if (s != SSJ_OK && s != SSJ_STOPPED)
		return 1;
	f->ints.v[at - 1] = (int64_t)(f->ints.len - at);
	return 0;
}

struct collect {
	struct ss_payload *pl;
	bool nomem;
	enum ssj_status err;
};

static int payload_field(void *ctx, const char *key, size_t keylen, struct ssj_value *v)
{
	struct collect *c = ctx;
	enum ss_field_id id = lookup(key, keylen);
	struct ss_field *f;
	struct array_walk w;
	enum ssj_status s = SSJ_OK;

	if (id == SS_F_COUNT)
		return 0;
	f = &c->pl->f[id];
	if (c->pl->touched & (uint64_t)1 << id) {
		/* a repeated key: its last value is kept */
		f->ints.len = 0;
		f->ierr = SS_INT_OK;
		f->text = NULL;
		f->len = 0;
	}
	/* (a field not yet touched is as payload_reset left it) */
	c->pl->touched |= (uint64_t)1 << id;
	f->present = true;
	f->type = ssj_value_type(v);
	w.f = f;
	w.nomem = false;
	switch (f->type) {
	case SSJ_NUMBER:
		/* its double is read from the text when an adapter asks */
		s = ssj_value_number_text(v, &f->text, &f->len);
		break;
	case SSJ_STRING: {
		const char *t;
		size_t n;

		s = ssj_value_string(v, &t, &n);
		if (s == SSJ_OK) {
			size_t room = sizeof(c->pl->strbuf) - c->pl->strlen;
			size_t keep = n < SS_ENGINE_NAME_MAX ? n : SS_ENGINE_NAME_MAX;

			if (keep > room)
				keep = 0;
			memcpy(c->pl->strbuf + c->pl->strlen, t, keep);
			f->text = c->pl->strbuf + c->pl->strlen;
			f->len = n;  /* the real length: the adapter checks it */
			c->pl->strlen += keep;
			if (id == SS_F_ENGINE) {
				/* Kept whole (SPEC 2.6); a repeated key: the last. */
				ss_buf_reset(&c->pl->engine);
				ss_buf_add(&c->pl->engine, t, n);
				if (c->pl->engine.failed || !ss_buf_grow(&c->pl->engine, 1)) {
					w.nomem = true;
					break;
				}
				c->pl->engine.data[n] = '\0';
				f->text = c->pl->engine.data;
			}
		}
		break;
	}
	case SSJ_ARRAY:
		s = ssj_array_foreach(v, array_elem, &w);
		break;
	case SSJ_OBJECT:
		s = ssj_object_foreach(v, id == SS_F_BY_DRAFT_LENGTH ? bdl_member : hist_member, &w);
		break;
	case SSJ_INVALID:
		s = SSJ_ESYNTAX;
		break;
	default:
		break;
	}
	if (w.nomem) {
		c->nomem = true;
		return 1;
	}
	if (s != SSJ_OK && s != SSJ_STOPPED) {
		c->err = s;
		return 1;
	}
	return 0;
}

/* A walk's status, unless its callbacks met something first. */
static enum ssj_status collected(const struct collect *c, enum ssj_status s)
{
	if (c->nomem)
		return SSJ_ENOMEM;
	if (c->err != SSJ_OK)
		return c->err;
	return s;
}

enum ssj_status ss_payload_collect(struct ss_payload *pl, struct ssj_parser *parser,
				   const char *text, size_t len)
{
	struct collect c = {pl, false, SSJ_OK};

	payload_reset(pl);
	return collected(&c, ssj_visit_span(parser, text, len, payload_field, &c));
}

bool ss_field_given(const struct ss_payload *pl, enum ss_field_id id)
{
	return pl->f[id].present && pl->f[id].type != SSJ_NULL;
}

static const char *int_error_text(enum ss_int_error e)
{
	switch (e) {
	case SS_INT_NOT_NUMBER: return "is not a number";
	case SS_INT_NOT_INTEGER: return "is not an integer";
	case SS_INT_NEGATIVE: return "is negative";
	case SS_INT_RANGE: return "is out of range";
	case SS_INT_TOO_LONG: return "is too long";
	default: return "is invalid";
	}
}

/* Quote at most 24 bytes of a number's text in a reason. */
static int shown(size_t n)
{
	return (int)(n < 24 ? n : 24);
}

void ss_reader_init(struct ss_reader *rd, struct ss_payload *pl, char *why,
		    size_t whylen)
{
	rd->pl = pl;
	rd->why = why;
	rd->whylen = whylen;
	rd->bad = false;
}

void ss_reader_fail(struct ss_reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->bad)
		return;
	va_start(ap, fmt);
	vsnprintf(rd->why, rd->whylen, fmt, ap);
	va_end(ap);
	rd->bad = true;
}

static void set_has(bool *has, bool v)
{
	if (has)
		*has = v;
}

/*
 * The part every reader shares: the field, when it is given and of JSON
 * type `want`; NULL otherwise, with a failure when that is an error.
 * Nothing is done once an earlier read failed: the first reason stands.
 */
static __attribute__((noinline)) void given_fail(struct ss_reader *rd, enum ss_field_id id,
						 enum ssj_type want, bool required)
{
	const struct ss_field *f = &rd->pl->f[id];

	if (!ss_field_given(rd->pl, id)) {
		if (required)
			ss_reader_fail(rd, "%s is %s", field_names[id],
				       f->present ? "null" : "missing");
	} else {
		ss_reader_fail(rd, "%s is not %s", field_names[id],
			       want == SSJ_NUMBER ? "a number" : "an array");
	}
}

/*
 * Inline in each reader (a call per read was about 1% of a records run);
 * the failures' messages are made out of line, in given_fail.
 */
static inline __attribute__((always_inline)) struct ss_field *
given_field(struct ss_reader *rd, enum ss_field_id id, enum ssj_type want, bool required,
	    bool *has)
{
	struct ss_field *f = &rd->pl->f[id];
	bool given = f->present && f->type != SSJ_NULL;

	set_has(has, given && !rd->bad);
	if (rd->bad)
		return NULL;
	if (given && f->type == want)
		return f;
	given_fail(rd, id, want, required);
	return NULL;
}

bool ss_read_count(struct ss_reader *rd, enum ss_field_id id, bool required, bool *has,
		   int64_t *out)
{
	const struct ss_field *f = given_field(rd, id, SSJ_NUMBER, required, has);
	enum ss_int_error e;

	if (!f)
		return false;
	e = ss_parse_count(f->text, f->len, out);
	if (e != SS_INT_OK) {
		ss_reader_fail(rd, "%s %s (%.*s)", field_names[id], int_error_text(e),
			       shown(f->len), f->text);
		return false;
	}
	return true;
}

bool ss_read_double(struct ss_reader *rd, enum ss_field_id id, bool required, bool *has,
		    double *out)
{
	const struct ss_field *f = given_field(rd, id, SSJ_NUMBER, required, has);
	double d;

	if (!f)
		return false;
	if (ssj_number_double(f->text, f->len, &d) != SSJ_OK) {
		ss_reader_fail(rd, "%s is not finite (%.*s)", field_names[id], shown(f->len),
			       f->text);
		return false;
	}
	*out = d;
	return true;
}

void ss_read_array(struct ss_reader *rd, enum ss_field_id id, bool required, bool *has,
		   struct ss_vec_i64 *dst)
{
	struct ss_field *f;
	struct ss_vec_i64 tmp;

	dst->len = 0;
	f = given_field(rd, id, SSJ_ARRAY, required, has);
	if (!f)
		return;
	if (f->ierr == SS_INT_TOO_LONG) {
		ss_reader_fail(rd, "%s has more than %u entries", field_names[id],
			       SS_HIST_MAX_BUCKETS);
		return;
	}
	if (f->ierr != SS_INT_OK) {
		ss_reader_fail(rd, "%s[%zu] %s", field_names[id], f->ierr_index,
			       int_error_text(f->ierr));
		return;
	}
	tmp = *dst;
	*dst = f->ints;
	f->ints = tmp;
	f->ints.len = 0;
}
