#include "engines/capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#endif

#include "engines/payload.h"

void ss_capture_init(struct ss_capture *c)
{
	memset(c, 0, sizeof(*c));
	ss_buf_init(&c->payload);
}

void ss_capture_release(struct ss_capture *c)
{
	ss_buf_release(&c->payload);
	memset(c, 0, sizeof(*c));
}

void ss_capture_reset(struct ss_capture *c)
{
	struct ss_buf keep = c->payload;

	memset(c, 0, sizeof(*c));
	c->payload = keep;
	ss_buf_reset(&c->payload);
}

/* What one object says, gathered in one walk over it. */
struct span {
	const char *p;
	size_t n;
};

struct object_scan {
	bool content;
	struct span metrics_sd;
	struct span choice_sd;
	size_t choice_sd_count;
	int64_t choice_sd_index;
	struct span timings;
	struct span sglext;
	size_t sglext_count;
	struct span meta_root;
	struct span meta_choice0;
	bool usage_nonempty;
	struct span completion_tokens;  /* number texts */
	struct span output_tokens;
	bool failed;                    /* a walk error: treat as invalid */
};

static bool key_is(const char *key, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n == l && memcmp(key, lit, l) == 0;
}

/* A non-empty string or a non-empty array (SPEC 2.2). */
static bool has_content(struct ssj_value *v)
{
	const char *p;
	size_t n;
	bool empty = true;

	switch (ssj_value_type(v)) {
	case SSJ_STRING:
		return ssj_value_raw_string(v, &p, &n) == SSJ_OK && n > 0;
	case SSJ_ARRAY:
		return ssj_value_is_empty(v, &empty) == SSJ_OK && !empty;
	default:
		return false;
	}
}

static bool take_span(struct ssj_value *v, struct span *s)
{
	return ssj_value_raw_json(v, &s->p, &s->n) == SSJ_OK;
}

static int message_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (key_is(key, n, "content") || key_is(key, n, "reasoning_content") ||
	    key_is(key, n, "reasoning") || key_is(key, n, "tool_calls")) {
		if (has_content(v))
			o->content = true;
	}
	return 0;
}

struct choice_scan {
	struct object_scan *o;
	size_t position;
	bool has_index;
	int64_t index;
	struct span sd;
};

static int choice_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct choice_scan *c = ctx;
	struct object_scan *o = c->o;
	enum ssj_type t = ssj_value_type(v);

	if (key_is(key, n, "speculative_decoding")) {
		c->sd.p = NULL;
		if (t == SSJ_OBJECT && !take_span(v, &c->sd))
			o->failed = true;
	} else if (key_is(key, n, "index")) {
		const char *p;
		size_t len;

		c->has_index = t == SSJ_NUMBER && ssj_value_number_text(v, &p, &len) == SSJ_OK &&
			       ss_parse_count(p, len, &c->index) == SS_INT_OK;
	} else if (c->position == 0) {
		if ((key_is(key, n, "delta") || key_is(key, n, "message")) && t == SSJ_OBJECT) {
			if (ssj_object_foreach(v, message_field, o) != SSJ_OK)
				o->failed = true;
		} else if (key_is(key, n, "text")) {
			if (has_content(v))
				o->content = true;
		} else if (key_is(key, n, "meta_info")) {
			o->meta_choice0.p = NULL;
			if (t == SSJ_OBJECT && !take_span(v, &o->meta_choice0))
				o->failed = true;
		}
	}
	return o->failed;
}

static int choice_elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct object_scan *o = ctx;
	struct choice_scan c = {o, index, false, 0, {NULL, 0}};

	if (ssj_value_type(v) != SSJ_OBJECT)
		return 0;
	if (ssj_object_foreach(v, choice_field, &c) != SSJ_OK)
		o->failed = true;
	if (c.sd.p) {
		o->choice_sd_count++;
		o->choice_sd = c.sd;
		o->choice_sd_index = c.has_index ? c.index : (int64_t)index;
	}
	return o->failed;
}

static int metrics_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (key_is(key, n, "speculative_decoding")) {
		o->metrics_sd.p = NULL;
		if (ssj_value_type(v) == SSJ_OBJECT && !take_span(v, &o->metrics_sd))
			o->failed = true;
	}
	return o->failed;
}

static int sglext_elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	o->sglext_count++;
	if (index == 0 && ssj_value_type(v) == SSJ_OBJECT && !take_span(v, &o->sglext))
		o->failed = true;
	return o->failed;
}

static int sglext_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;

	if (key_is(key, n, "spec_tokens_details")) {
		enum ssj_type t = ssj_value_type(v);

		o->sglext.p = NULL;
		o->sglext_count = 0;
		if (t == SSJ_OBJECT) {
			o->sglext_count = 1;
			if (!take_span(v, &o->sglext))
				o->failed = true;
		} else if (t == SSJ_ARRAY) {
			if (ssj_array_foreach(v, sglext_elem, o) != SSJ_OK)
				o->failed = true;
			if (o->sglext_count != 1)
				o->sglext.p = NULL;
		}
	}
	return o->failed;
}

static int usage_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;
	struct span *dst = NULL;

	o->usage_nonempty = true;
	if (key_is(key, n, "completion_tokens"))
		dst = &o->completion_tokens;
	else if (key_is(key, n, "output_tokens"))
		dst = &o->output_tokens;
	if (dst) {
		dst->p = NULL;
		if (ssj_value_type(v) == SSJ_NUMBER &&
		    ssj_value_number_text(v, &dst->p, &dst->n) != SSJ_OK)
			dst->p = NULL;
	}
	return 0;
}

static int object_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct object_scan *o = ctx;
	enum ssj_type t = ssj_value_type(v);
	enum ssj_status s = SSJ_OK;

	if (key_is(key, n, "choices")) {
		o->choice_sd_count = 0;
		o->choice_sd.p = NULL;
		o->meta_choice0.p = NULL;
		if (t == SSJ_ARRAY)
			s = ssj_array_foreach(v, choice_elem, o);
	} else if (key_is(key, n, "metrics")) {
		o->metrics_sd.p = NULL;
		if (t == SSJ_OBJECT)
			s = ssj_object_foreach(v, metrics_field, o);
	} else if (key_is(key, n, "timings")) {
		o->timings.p = NULL;
		if (t == SSJ_OBJECT && !take_span(v, &o->timings))
			o->failed = true;
	} else if (key_is(key, n, "sglext")) {
		o->sglext.p = NULL;
		o->sglext_count = 0;
		if (t == SSJ_OBJECT)
			s = ssj_object_foreach(v, sglext_field, o);
	} else if (key_is(key, n, "meta_info")) {
		o->meta_root.p = NULL;
		if (t == SSJ_OBJECT && !take_span(v, &o->meta_root))
			o->failed = true;
	} else if (key_is(key, n, "usage")) {
		o->usage_nonempty = false;
		o->completion_tokens.p = o->output_tokens.p = NULL;
		if (t == SSJ_OBJECT)
			s = ssj_object_foreach(v, usage_field, o);
	} else if (key_is(key, n, "text") || key_is(key, n, "content")) {
		if (has_content(v))
			o->content = true;
	}
	if (s != SSJ_OK)
		o->failed = true;
	return o->failed;
}

/* Peek into a span: llama.cpp timings need both counters, not null. */
struct peek {
	bool draft_n, draft_n_accepted, spec_verify_ct;
};

static int peek_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct peek *k = ctx;

	if (key_is(key, n, "draft_n"))
		k->draft_n = !ssj_value_is_null(v);
	else if (key_is(key, n, "draft_n_accepted"))
		k->draft_n_accepted = !ssj_value_is_null(v);
	else if (key_is(key, n, "spec_verify_ct"))
		k->spec_verify_ct = true;
	return 0;
}

static bool peek_span(struct ssj_parser *parser, struct span s, struct peek *k)
{
	memset(k, 0, sizeof(*k));
	return s.p && ssj_parse(parser, s.p, s.n, peek_field, k) == SSJ_OK;
}

static void set_multi(struct ss_capture *c, const char *fmt, long long a)
{
	if (c->multi_choice)
		return;
	c->multi_choice = true;
	snprintf(c->multi_reason, sizeof(c->multi_reason), fmt, a);
}

bool ss_capture_object(struct ss_capture *c, struct ssj_parser *parser,
		       const char *text, size_t len)
{
	struct object_scan o;
	struct span chosen = {NULL, 0};
	enum ss_payload_loc loc = SS_LOC_NONE;
	struct peek k;

	memset(&o, 0, sizeof(o));
	if (ssj_parse(parser, text, len, object_field, &o) != SSJ_OK || o.failed)
		return true;  /* not a valid JSON object: skipped */

	if (o.content)
		c->content = true;

	if (o.usage_nonempty) {
		int64_t v;

		c->has_completion_tokens = false;
		if (o.completion_tokens.p &&
		    ss_parse_count(o.completion_tokens.p, o.completion_tokens.n, &v) == SS_INT_OK &&
		    v > 0) {
			c->has_completion_tokens = true;
			c->completion_tokens = v;
		} else if (o.output_tokens.p &&
			   ss_parse_count(o.output_tokens.p, o.output_tokens.n, &v) == SS_INT_OK) {
			c->has_completion_tokens = true;
			c->completion_tokens = v;
		}
	}

	/* Multi-choice signals (SPEC 2.1 order 4, 2.3 points 2 and 4). */
	if (o.choice_sd_count >= 2)
		set_multi(c, "%lld choices carry a speculative_decoding payload",
			  (long long)o.choice_sd_count);
	if (o.choice_sd_count == 1) {
		if (c->have_choice_index && c->choice_index != o.choice_sd_index)
			set_multi(c, "payloads for choices %lld and another",
				  (long long)c->choice_index);
		c->have_choice_index = true;
		c->choice_index = o.choice_sd_index;
	}
	if (o.sglext_count > 1)
		set_multi(c, "spec_tokens_details has %lld elements", (long long)o.sglext_count);

	/* The first location that applies gives this object's payload. */
	if (o.metrics_sd.p) {
		chosen = o.metrics_sd;
		loc = SS_LOC_METRICS;
	} else if (o.choice_sd_count == 1) {
		chosen = o.choice_sd;
		loc = SS_LOC_CHOICE;
	} else if (peek_span(parser, o.timings, &k) && k.draft_n && k.draft_n_accepted) {
		chosen = o.timings;
		loc = SS_LOC_TIMINGS;
	} else if (o.sglext.p && o.sglext_count == 1) {
		chosen = o.sglext;
		loc = SS_LOC_SGLEXT;
	} else if (peek_span(parser, o.meta_root, &k) && k.spec_verify_ct) {
		chosen = o.meta_root;
		loc = SS_LOC_META_INFO;
	} else if (peek_span(parser, o.meta_choice0, &k) && k.spec_verify_ct) {
		chosen = o.meta_choice0;
		loc = SS_LOC_META_INFO;
	}
	if (loc == SS_LOC_NONE)
		return true;

	c->all_timings = (c->payload_objects == 0 || c->all_timings) && loc == SS_LOC_TIMINGS;
	c->payload_objects++;
	c->loc = loc;
	ss_buf_reset(&c->payload);
	ss_buf_add(&c->payload, chosen.p, chosen.n);
	if (c->payload.failed) {
		c->nomem = true;
		return false;
	}
	return true;
}

/* The keys that make an object worth parsing (SPEC 2.2, 2.3). */
enum key_class { KEY_OTHER = 0, KEY_CONTENT, KEY_PAYLOAD };

static enum key_class classify_key(const char *k, size_t n)
{
	switch (n) {
	case 4:
		return memcmp(k, "text", 4) == 0 ? KEY_CONTENT : KEY_OTHER;
	case 5:
		return memcmp(k, "usage", 5) == 0 ? KEY_PAYLOAD : KEY_OTHER;
	case 6:
		return memcmp(k, "sglext", 6) == 0 ? KEY_PAYLOAD : KEY_OTHER;
	case 7:
		if (memcmp(k, "timings", 7) == 0)
			return KEY_PAYLOAD;
		return memcmp(k, "content", 7) == 0 ? KEY_CONTENT : KEY_OTHER;
	case 9:
		if (memcmp(k, "meta_info", 9) == 0)
			return KEY_PAYLOAD;
		return memcmp(k, "reasoning", 9) == 0 ? KEY_CONTENT : KEY_OTHER;
	case 10:
		return memcmp(k, "tool_calls", 10) == 0 ? KEY_CONTENT : KEY_OTHER;
	case 17:
		return memcmp(k, "reasoning_content", 17) == 0 ? KEY_CONTENT : KEY_OTHER;
	case 20:
		return memcmp(k, "speculative_decoding", 20) == 0 ? KEY_PAYLOAD : KEY_OTHER;
	default:
		return KEY_OTHER;
	}
}

/*
 * The careful scan. The text is the inside of a JSON string holding an
 * object's JSON, so a key of that object reads \"key\" followed by white
 * space and a colon. Every colon is looked at: when what precedes it is a
 * plainly written key, the key is classified; when it is anything unusual
 * (white space written as an escape, a key holding a backslash, a very
 * long key), the object is parsed, to be safe. A colon inside a string
 * value costs at worst a needless parse.
 */
static bool worth_careful(const struct ss_capture *c, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while ((p = memchr(p, ':', (size_t)(end - p))) != NULL) {
		const char *q = p++;
		const char *close, *open;

		while (q > s && q[-1] == ' ')
			q--;
		if (q - s < 2)
			continue;
		if (q[-1] != '"' || q[-2] != '\\') {
			/* \n \t \r before a colon may be escaped white space. */
			if (q[-2] == '\\' && (q[-1] == 'n' || q[-1] == 't' || q[-1] == 'r'))
				return true;
			continue;
		}
		close = q - 2;  /* at the backslash of the closing \" */
		open = close;
		while (open > s && close - open <= 40) {
			open--;
			if (*open == '\\')
				break;
		}
		if (*open != '\\' || close - open > 40)
			return true;  /* no plain opening quote near: be safe */
		if (open + 1 >= close || open[1] != '"')
			return true;  /* a backslash inside the key */
		switch (classify_key(open + 2, (size_t)(close - open - 2))) {
		case KEY_PAYLOAD:
			return true;
		case KEY_CONTENT:
			if (!c->content)
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/*
 * At a plain key end (s[at] is the colon, s[at-2..at-1] the closing \"),
 * whether the key is one that matters, tried by its last letter and length.
 */
/*
 * At a plain key end (s[at] is the colon, s[at-2..at-1] the closing \"),
 * whether the key is one that matters, tried by its last letter. Content
 * keys matter only while no content was seen.
 */
#define KEY_IS(lit)                                                    \
	(end >= sizeof(lit) + 1 &&                                     \
	 memcmp(s + end - (sizeof(lit) - 1) - 2, "\\\"" lit, sizeof(lit) + 1) == 0)

static inline bool key_matters(const struct ss_capture *c, const char *s, size_t at)
{
	size_t end = at - 2;  /* the key's end */
	bool want_content = !c->content;

	/* `\":` at the very start of the text: no key, nothing before it. */
	if (at < 3)
		return false;
	switch (s[end - 1]) {
	case 'e':
		return KEY_IS("usage");
	case 's':
		return KEY_IS("timings") || (want_content && KEY_IS("tool_calls"));
	case 't':
		return KEY_IS("sglext") ||
		       (want_content && (KEY_IS("text") || KEY_IS("content") ||
					 KEY_IS("reasoning_content")));
	case 'o':
		return KEY_IS("meta_info");
	case 'g':
		return KEY_IS("speculative_decoding") || (want_content && KEY_IS("reasoning"));
	default:
		return false;
	}
}

/*
 * The fast scan over s[from, n): the first position that needs a look,
 * or n. A position needs a look when a plainly written key that matters
 * ends there (content keys only when `content_keys`), or when something
 * there cannot be judged fast (*odd: a \u escape, white space before a
 * colon); the careful scan or a parse then decides.
 */
/* One position of the scan, in plain C: see scan(). */
static int scan_one(const struct ss_capture *k, const char *s, size_t i)
{
	if (s[i] == 'u' && s[i - 1] == '\\' && s[i - 2] == '\\')
		return 2;
	if (s[i] != ':')
		return 0;
	if (s[i - 1] == ' ' || (s[i - 2] == '\\' && s[i - 1] != '"'))
		return 2;
	return s[i - 1] == '"' && s[i - 2] == '\\' && key_matters(k, s, i);
}

/*
 * The vector loop, as a macro over the vector width: V is the vector type,
 * LOAD, EQ, OR, AND and MASK its operations. A key end is kept only when
 * its last two letters are those of a key that matters (so most keys never
 * reach key_matters()); `oddm` marks what the fast scan cannot judge.
 */
#define SCAN_LOOP(W, V, LOAD, SET1, EQ, OR, AND, ANDNOT, MASK)                      \
	do {                                                                          \
		const V colon = SET1(':'), quote = SET1('"'), bslash = SET1('\\');     \
		const V u = SET1('u'), space = SET1(' ');                              \
		const V le = SET1('e'), ls = SET1('s'), lt = SET1('t'), lo = SET1('o'); \
		const V lg = SET1('g'), lx = SET1('x'), lf = SET1('f'), ln = SET1('n'); \
		const V ll = SET1('l');                                                \
		for (; i + (W) <= n; i += (W)) {                                       \
			V v0 = LOAD(s + i), v1 = LOAD(s + i - 1), v2 = LOAD(s + i - 2); \
			V v3 = LOAD(s + i - 3), v4 = LOAD(s + i - 4);                  \
			V col = EQ(v0, colon), b2 = EQ(v2, bslash), q1 = EQ(v1, quote); \
			V keyv = AND(col, AND(q1, b2));                                \
			V e3 = EQ(v3, le), s3 = EQ(v3, ls), t3 = EQ(v3, lt);           \
			V n4 = EQ(v4, ln);                                             \
			V pay = OR(OR(AND(EQ(v4, lg), OR(e3, s3)), AND(EQ(v4, lx), t3)), \
				   OR(AND(EQ(v4, lf), EQ(v3, lo)), AND(n4, EQ(v3, lg))));   \
			V con = OR(AND(n4, t3), AND(EQ(v4, ll), s3));                  \
			V oddv = OR(AND(b2, AND(EQ(v1, bslash), EQ(v0, u))),           \
				    AND(col, OR(EQ(v1, space), ANDNOT(q1, b2))));      \
			uint64_t key, oddm;                                            \
			if (want_content)                                              \
				pay = OR(pay, con);                                    \
			key = MASK(AND(keyv, pay));                                    \
			oddm = MASK(oddv);                                             \
			while (key | oddm) {                                           \
				unsigned bk = key ? (unsigned)__builtin_ctzll(key) : 64; \
				unsigned bo = oddm ? (unsigned)__builtin_ctzll(oddm) : 64; \
				if (bo <= bk) {                                        \
					*odd = true;                                   \
					*pos = i + bo;                                 \
					return true;                                   \
				}                                                      \
				if (key_matters(k, s, i + bk)) {                       \
					*pos = i + bk;                                 \
					return true;                                   \
				}                                                      \
				key &= key - 1;                                        \
			}                                                              \
		}                                                                      \
	} while (0)

#ifdef __SSE2__
#define SSE_LOAD(p) _mm_loadu_si128((const __m128i *)(p))
#define SSE_MASK(v) ((uint64_t)(unsigned)_mm_movemask_epi8(v))

/* true with *pos at a hit; false with *pos where the vector loop stopped. */
static bool scan_sse2(const struct ss_capture *k, bool want_content, const char *s,
		      size_t i, size_t n, size_t *pos, bool *odd)
{
	SCAN_LOOP(16, __m128i, SSE_LOAD, _mm_set1_epi8, _mm_cmpeq_epi8, _mm_or_si128,
		  _mm_and_si128, _mm_andnot_si128, SSE_MASK);
	*pos = i;
	return false;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define AVX_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define AVX_MASK(v) ((uint64_t)(unsigned)_mm256_movemask_epi8(v))

__attribute__((target("avx2"))) static bool
scan_avx2(const struct ss_capture *k, bool want_content, const char *s, size_t i, size_t n,
	  size_t *pos, bool *odd)
{
	SCAN_LOOP(32, __m256i, AVX_LOAD, _mm256_set1_epi8, _mm256_cmpeq_epi8,
		  _mm256_or_si256, _mm256_and_si256, _mm256_andnot_si256, AVX_MASK);
	*pos = i;
	return false;
}

/* 64 bytes a step, the comparisons giving bit masks directly. */
__attribute__((target("avx512f,avx512bw"))) static bool
scan_avx512(const struct ss_capture *k, bool want_content, const char *s, size_t i,
	    size_t n, size_t *pos, bool *odd)
{
#define EQ512(v, c) ((uint64_t)_mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8(c)))
	for (; i + 64 <= n; i += 64) {
		__m512i v0 = _mm512_loadu_si512((const void *)(s + i));
		__m512i v1 = _mm512_loadu_si512((const void *)(s + i - 1));
		__m512i v2 = _mm512_loadu_si512((const void *)(s + i - 2));
		__m512i v3 = _mm512_loadu_si512((const void *)(s + i - 3));
		__m512i v4 = _mm512_loadu_si512((const void *)(s + i - 4));
		uint64_t col = EQ512(v0, ':'), b2 = EQ512(v2, '\\'), q1 = EQ512(v1, '"');
		uint64_t e3 = EQ512(v3, 'e'), s3 = EQ512(v3, 's'), t3 = EQ512(v3, 't');
		uint64_t n4 = EQ512(v4, 'n');
		uint64_t pay = (EQ512(v4, 'g') & (e3 | s3)) | (EQ512(v4, 'x') & t3) |
			       (EQ512(v4, 'f') & EQ512(v3, 'o')) | (n4 & EQ512(v3, 'g'));
		uint64_t key, oddm;

		if (want_content)
			pay |= (n4 & t3) | (EQ512(v4, 'l') & s3);
		key = col & q1 & b2 & pay;
		oddm = (b2 & EQ512(v1, '\\') & EQ512(v0, 'u')) |
		       (col & (EQ512(v1, ' ') | (b2 & ~q1)));
		while (key | oddm) {
			unsigned bk = key ? (unsigned)__builtin_ctzll(key) : 64;
			unsigned bo = oddm ? (unsigned)__builtin_ctzll(oddm) : 64;

			if (bo <= bk) {
				*odd = true;
				*pos = i + bo;
				return true;
			}
			if (key_matters(k, s, i + bk)) {
				*pos = i + bk;
				return true;
			}
			key &= key - 1;
		}
	}
#undef EQ512
	*pos = i;
	return scan_avx2(k, want_content, s, i, n, pos, odd);
}

static int simd_level(void)
{
	static int level = -1;

	if (level < 0) {
		/* SPECSCAN_SIMD as for the JSON shim: generic, avx2, or the best. */
		const char *force = getenv("SPECSCAN_SIMD");

		__builtin_cpu_init();
		level = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512f")
				? 2
			: __builtin_cpu_supports("avx2") ? 1
							 : 0;
		if (force && strcmp(force, "generic") == 0)
			level = 0;
		else if (force && strcmp(force, "avx2") == 0 && level > 1)
			level = 1;
	}
	return level;
}

#endif
#endif

/*
 * The fast scan over s[from, n): the first position that needs a look,
 * or n. A position needs a look when a plainly written key that matters
 * ends there (content keys only when `content_keys` and no content was
 * seen), or when something there cannot be judged fast (*odd: a \u
 * escape, white space before a colon); the careful scan or a parse then
 * decides.
 */
static size_t scan(const struct ss_capture *c, const char *s, size_t from, size_t n,
		   bool content_keys, bool *odd)
{
	struct ss_capture none;
	const struct ss_capture *k = c;
	size_t i = from < 2 ? 2 : from;
	int r;

	memset(&none, 0, sizeof(none));
	if (!content_keys || c->content) {
		/* key_matters() asks about content keys only while none was seen. */
		none.content = true;
		k = &none;
	}
	*odd = false;
	/* The vector loop looks four bytes back: the first positions in C. */
	for (; i < 4 && i < n; i++) {
		if ((r = scan_one(k, s, i)) != 0) {
			*odd = r == 2;
			return i;
		}
	}
#ifdef __SSE2__
	{
		size_t at;
		bool hit;

#if defined(__x86_64__) && defined(__GNUC__)
		if (simd_level() == 2)
			hit = scan_avx512(k, !k->content, s, i, n, &at, odd);
		else if (simd_level() == 1)
			hit = scan_avx2(k, !k->content, s, i, n, &at, odd);
		else
#endif
			hit = scan_sse2(k, !k->content, s, i, n, &at, odd);
		if (hit)
			return at;
		i = at;
	}
#endif
	for (; i < n; i++) {
		if ((r = scan_one(k, s, i)) != 0) {
			*odd = r == 2;
			return i;
		}
	}
	return n;
}

/*
 * Whether an object, given as the escaped inside of a JSON string, may
 * change the capture: the fast scan, and the careful one when the fast
 * scan cannot judge.
 */
bool ss_capture_worth(const struct ss_capture *c, const char *s, size_t n)
{
	bool odd;

	if (scan(c, s, 0, n, true, &odd) == n)
		return false;
	return odd ? worth_careful(c, s, n) : true;
}

size_t ss_capture_next_payload_key(const char *s, size_t from, size_t n)
{
	bool odd;

	return scan(NULL, s, from, n, false, &odd);
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static bool read_u4(const char *p, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (end - p < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);

		if (h < 0)
			return false;
		v = v << 4 | (unsigned)h;
	}
	*out = v;
	return true;
}

/* Encode a code point as UTF-8 at d; the number of bytes written. */
static size_t put_utf8(char *d, unsigned cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xC0 | cp >> 6);
		d[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xE0 | cp >> 12);
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		d[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	d[0] = (char)(0xF0 | cp >> 18);
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	d[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

bool ss_json_unescape(const char *raw, size_t n, struct ss_buf *out)
{
	const char *p = raw, *end = raw + n;
	char *d;

	/* The text never grows: an escape of 2, 6 or 12 bytes gives 1 to 4. */
	if (!ss_buf_grow(out, n))
		return false;
	d = out->data + out->len;
	while (p < end) {
		const char *bs = memchr(p, '\\', (size_t)(end - p));
		const char *stop = bs ? bs : end;
		unsigned char ctl = 0;

		for (const char *q = p; q < stop; q++)  /* vectorizes: no early exit */
			ctl |= (unsigned char)*q < 0x20;
		if (ctl)
			return false;  /* a raw control character */
		memcpy(d, p, (size_t)(stop - p));
		d += stop - p;
		if (!bs)
			break;
		p = bs + 1;
		if (p >= end)
			return false;
		switch (*p++) {
		case '"': *d++ = '"'; break;
		case '\\': *d++ = '\\'; break;
		case '/': *d++ = '/'; break;
		case 'b': *d++ = '\b'; break;
		case 'f': *d++ = '\f'; break;
		case 'n': *d++ = '\n'; break;
		case 'r': *d++ = '\r'; break;
		case 't': *d++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (!read_u4(p, end, &cp))
				return false;
			p += 4;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (end - p < 6 || p[0] != '\\' || p[1] != 'u' ||
				    !read_u4(p + 2, end, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					return false;  /* lone high surrogate */
				p += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if (cp >= 0xDC00 && cp <= 0xDFFF) {
				return false;  /* lone low surrogate */
			}
			d += put_utf8(d, cp);
			break;
		}
		default:
			return false;
		}
	}
	out->len = (size_t)(d - out->data);
	out->data[out->len] = '\0';
	return true;
}
