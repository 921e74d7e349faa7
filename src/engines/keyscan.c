/*
 * keyscan.c - the substring prefilter over escaped JSON text (DESIGN:
 * "a fast substring scan selects the few chunks worth parsing"). The
 * vector loops run at the level util/cpu.h picks, the same one the JSON
 * shim uses.
 */
#include "engines/keyscan.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#endif

#include "util/cpu.h"

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
static bool worth_careful(bool content_seen, const char *s, size_t n)
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
			if (!content_seen)
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
 * whether the key is one that matters, tried by its last letter. Content
 * keys matter only when `want_content`.
 */
#define KEY_IS(lit)                                                    \
	(end >= sizeof(lit) + 1 &&                                     \
	 memcmp(s + end - (sizeof(lit) - 1) - 2, "\\\"" lit, sizeof(lit) + 1) == 0)

static inline bool key_matters(bool want_content, const char *s, size_t at)
{
	size_t end = at - 2;  /* the key's end */

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

/* One position of the scan, in plain C: see scan(). */
static int scan_one(bool want_content, const char *s, size_t i)
{
	if (s[i] == 'u' && s[i - 1] == '\\' && s[i - 2] == '\\')
		return 2;
	if (s[i] != ':')
		return 0;
	if (s[i - 1] == ' ' || (s[i - 2] == '\\' && s[i - 1] != '"'))
		return 2;
	return s[i - 1] == '"' && s[i - 2] == '\\' && key_matters(want_content, s, i);
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
				if (key_matters(want_content, s, i + bk)) {                       \
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
static bool scan_sse2(bool want_content, const char *s,
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
scan_avx2(bool want_content, const char *s, size_t i, size_t n,
	  size_t *pos, bool *odd)
{
	SCAN_LOOP(32, __m256i, AVX_LOAD, _mm256_set1_epi8, _mm256_cmpeq_epi8,
		  _mm256_or_si256, _mm256_and_si256, _mm256_andnot_si256, AVX_MASK);
	*pos = i;
	return false;
}

/* 64 bytes a step, the comparisons giving bit masks directly. */
__attribute__((target("avx512f,avx512bw"))) static bool
scan_avx512(bool want_content, const char *s, size_t i,
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
			if (key_matters(want_content, s, i + bk)) {
				*pos = i + bk;
				return true;
			}
			key &= key - 1;
		}
	}
#undef EQ512
	*pos = i;
	return scan_avx2(want_content, s, i, n, pos, odd);
}

#endif
#endif

/*
 * The fast scan over s[from, n): the first position that needs a look,
 * or n. A position needs a look when a plainly written key that matters
 * ends there (content keys only when `want_content`), or when something
 * there cannot be judged fast (*odd: a \u escape, white space before a
 * colon); the careful scan or a parse then decides.
 */
static size_t scan(bool want_content, const char *s, size_t from, size_t n, bool *odd)
{
	size_t i = from < 2 ? 2 : from;
	int r;

	*odd = false;
	/* The vector loop looks four bytes back: the first positions in C. */
	for (; i < 4 && i < n; i++) {
		if ((r = scan_one(want_content, s, i)) != 0) {
			*odd = r == 2;
			return i;
		}
	}
#ifdef __SSE2__
	{
		size_t at;
		bool hit;

#if defined(__x86_64__) && defined(__GNUC__)
		enum ss_simd level = ss_simd_level();

		if (level == SS_SIMD_AVX512)
			hit = scan_avx512(want_content, s, i, n, &at, odd);
		else if (level == SS_SIMD_AVX2)
			hit = scan_avx2(want_content, s, i, n, &at, odd);
		else
#endif
			hit = scan_sse2(want_content, s, i, n, &at, odd);
		if (hit)
			return at;
		i = at;
	}
#endif
	for (; i < n; i++) {
		if ((r = scan_one(want_content, s, i)) != 0) {
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
bool ss_keyscan_worth(bool content_seen, const char *s, size_t n)
{
	bool odd;

	if (scan(!content_seen, s, 0, n, &odd) == n)
		return false;
	return odd ? worth_careful(content_seen, s, n) : true;
}

size_t ss_keyscan_next_payload_key(const char *s, size_t from, size_t n)
{
	bool odd;

	return scan(false, s, from, n, &odd);
}
