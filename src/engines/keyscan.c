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
 * Whether the key whose last letter is s[end - 1] is `lit` (n letters):
 * opened by \" in escaped text (a chunk inside a string), by a " that is
 * not itself escaped in plain text.
 */
static inline bool name_is(const char *s, size_t end, bool escaped, const char *lit, size_t n)
{
	if (escaped)
		return end >= n + 2 && s[end - n - 2] == '\\' && s[end - n - 1] == '"' &&
		       memcmp(s + end - n, lit, n) == 0;
	return end >= n + 1 && s[end - n - 1] == '"' && memcmp(s + end - n, lit, n) == 0 &&
	       (end == n + 1 || s[end - n - 2] != '\\');
}

#define NAME_IS(lit) name_is(s, end, escaped, lit, sizeof(lit) - 1)

/*
 * Whether the key ending at s[end] is one that matters, tried by its last
 * letter. Content keys matter only when `want_content`, `model` only when
 * `want_model`.
 */
static inline bool key_wanted(const char *s, size_t end, bool escaped, bool want_content,
			      bool want_model)
{
	switch (s[end - 1]) {
	case 'l':
		return want_model && NAME_IS("model");
	case 'e':
		return NAME_IS("usage");
	case 's':
		return NAME_IS("timings") || (want_content && NAME_IS("tool_calls"));
	case 't':
		return NAME_IS("sglext") ||
		       (want_content && (NAME_IS("text") || NAME_IS("content") ||
					 NAME_IS("reasoning_content")));
	case 'o':
		return NAME_IS("meta_info");
	case 'g':
		return NAME_IS("speculative_decoding") || (want_content && NAME_IS("reasoning"));
	default:
		return false;
	}
}

#undef NAME_IS

/* At an escaped key end (s[at] is the colon, s[at-2..at-1] the closing \"). */
static inline bool key_matters(bool want_content, const char *s, size_t at)
{
	/* `\":` at the very start of the text: no key, nothing before it. */
	if (at < 3)
		return false;
	return key_wanted(s, at - 2, true, want_content, false);
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
 * The first answer among one block's candidates: `key` marks key ends
 * whose last letters may matter, `oddm` what the vector scan cannot judge,
 * bit j for byte base + j. true with *pos (and *odd for an odd spot) set;
 * false when no candidate of the block answers. Scalar, so every vector
 * variant inlines it.
 */
static inline bool first_hit(bool want_content, const char *s, size_t base, uint64_t key,
			     uint64_t oddm, size_t *pos, bool *odd)
{
	while (key | oddm) {
		unsigned bk = key ? (unsigned)__builtin_ctzll(key) : 64;
		unsigned bo = oddm ? (unsigned)__builtin_ctzll(oddm) : 64;

		if (bo <= bk) {
			*odd = true;
			*pos = base + bo;
			return true;
		}
		if (key_matters(want_content, s, base + bk)) {
			*pos = base + bk;
			return true;
		}
		key &= key - 1;
	}
	return false;
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
			if (first_hit(want_content, s, i, key, oddm, pos, odd))       \
				return true;                                           \
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

/*
 * The loop of both AVX-512 scans, 64 bytes a step, the comparisons giving
 * bit masks directly: PAY(v3, v4) is the mask of the positions whose last
 * two key letters (v3 the last, v4 the one before) end a key that matters.
 * Past the last whole step the AVX2 loop takes over.
 */
#define EQ512(v, c) ((uint64_t)_mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8(c)))
#define SCAN512_LOOP(PAY)                                                             \
	do {                                                                          \
		for (; i + 64 <= n; i += 64) {                                         \
			__m512i v0 = _mm512_loadu_si512((const void *)(s + i));        \
			__m512i v1 = _mm512_loadu_si512((const void *)(s + i - 1));    \
			__m512i v2 = _mm512_loadu_si512((const void *)(s + i - 2));    \
			__m512i v3 = _mm512_loadu_si512((const void *)(s + i - 3));    \
			__m512i v4 = _mm512_loadu_si512((const void *)(s + i - 4));    \
			uint64_t col = EQ512(v0, ':'), b2 = EQ512(v2, '\\');          \
			uint64_t q1 = EQ512(v1, '"');                                  \
			uint64_t key = col & q1 & b2 & PAY(v3, v4);                    \
			uint64_t oddm = (b2 & EQ512(v1, '\\') & EQ512(v0, 'u')) |     \
					(col & (EQ512(v1, ' ') | (b2 & ~q1)));         \
			if (first_hit(want_content, s, i, key, oddm, pos, odd))       \
				return true;                                           \
		}                                                                      \
		*pos = i;                                                              \
		return scan_avx2(want_content, s, i, n, pos, odd);                     \
	} while (0)

/* A compare per letter: ge (usage), gs (timings), xt (sglext, text), fo
 * (meta_info), ng (speculative_decoding, reasoning), and for content only
 * nt (content, reasoning_content) and ls (tool_calls). */
#define PAY_CMP(v3, v4)                                                               \
	((EQ512(v4, 'g') & (EQ512(v3, 'e') | EQ512(v3, 's'))) |                       \
	 (EQ512(v4, 'x') & EQ512(v3, 't')) | (EQ512(v4, 'f') & EQ512(v3, 'o')) |       \
	 (EQ512(v4, 'n') & EQ512(v3, 'g')) |                                           \
	 (want_content ? (EQ512(v4, 'n') & EQ512(v3, 't')) |                           \
			 (EQ512(v4, 'l') & EQ512(v3, 's'))                             \
		       : 0))

__attribute__((target("avx512f,avx512bw"))) static bool
scan_avx512(bool want_content, const char *s, size_t i,
	    size_t n, size_t *pos, bool *odd)
{
	SCAN512_LOOP(PAY_CMP);
}

/*
 * With AVX-512 VBMI the last two letters of a key are classified by two
 * byte-table lookups (vpermb) instead of a compare per letter: a bit per
 * letter pair of PAY_CMP's list. vpermb reads the low 6 bits of a byte
 * only, so other bytes may alias a letter: a needless key_matters() call,
 * never a missed key. About 40% less time than scan_avx512 on AIPerf raw
 * lines.
 */
#define PAY_VBMI(v3, v4)                                                              \
	((uint64_t)_mm512_test_epi8_mask(_mm512_permutexvar_epi8((v4), t1),           \
					 _mm512_permutexvar_epi8((v3), t0)))

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static bool
scan_vbmi(bool want_content, const char *s, size_t i, size_t n, size_t *pos, bool *odd)
{
	static const unsigned char first_bits[64] = {
		['g' & 63] = 1 | 2, ['x' & 63] = 4, ['f' & 63] = 8, ['n' & 63] = 16 | 32,
		['l' & 63] = 64,
	};
	static const unsigned char last_bits[64] = {
		['e' & 63] = 1, ['s' & 63] = 2 | 64, ['t' & 63] = 4 | 32, ['o' & 63] = 8,
		['g' & 63] = 16,
	};
	const __m512i t1 = _mm512_loadu_si512((const void *)first_bits);
	const __m512i t0 = _mm512_and_si512(_mm512_loadu_si512((const void *)last_bits),
					    _mm512_set1_epi8(want_content ? 0x7f : 0x1f));

	SCAN512_LOOP(PAY_VBMI);
}
#undef PAY_VBMI
#undef PAY_CMP
#undef SCAN512_LOOP
#undef EQ512

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

		if (level == SS_SIMD_AVX512_VBMI)
			hit = scan_vbmi(want_content, s, i, n, &at, odd);
		else if (level == SS_SIMD_AVX512)
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

/*
 * Plain JSON text (an SSE event): a key reads "key" before its colon. What
 * the fast scan cannot judge -- a \u escape anywhere, white space before a
 * colon -- is worth a parse. A quote that follows a backslash opens no key
 * (in valid JSON a key's opening quote never does). At a plain key end,
 * s[at] is the colon and s[at-1] the closing quote.
 */
static inline bool plain_key_matters(bool want_content, bool want_model, const char *s,
				     size_t at)
{
	return key_wanted(s, at - 1, false, want_content, want_model);
}

static inline bool is_json_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* One position (i >= 3) of the plain scan: whether it needs a parse. */
static bool plain_one(bool want_content, bool want_model, const char *s, size_t i)
{
	if (s[i] == 'u' && s[i - 1] == '\\')
		return true;
	if (s[i] != ':')
		return false;
	if (is_json_ws(s[i - 1]))
		return true;
	return s[i - 1] == '"' && plain_key_matters(want_content, want_model, s, i);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The last step reads up to 63 bytes past the end (the padding) and masks
 * them out. false: nothing from i on needs a parse. */
__attribute__((target("avx512f,avx512bw"))) static bool
plain_avx512(bool want_content, bool want_model, const char *s, size_t i, size_t n)
{
#define EQ512(v, c) ((uint64_t)_mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8(c)))
	for (; i < n; i += 64) {
		uint64_t live = n - i >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (n - i)) - 1;
		__m512i v0 = _mm512_loadu_si512((const void *)(s + i));
		__m512i v1 = _mm512_loadu_si512((const void *)(s + i - 1));
		__m512i v2 = _mm512_loadu_si512((const void *)(s + i - 2));
		__m512i v3 = _mm512_loadu_si512((const void *)(s + i - 3));
		uint64_t col = EQ512(v0, ':'), q1 = EQ512(v1, '"');
		uint64_t e2 = EQ512(v2, 'e'), s2 = EQ512(v2, 's'), t2 = EQ512(v2, 't');
		uint64_t n3 = EQ512(v3, 'n');
		uint64_t pay = (EQ512(v3, 'g') & (e2 | s2)) | (EQ512(v3, 'x') & t2) |
			       (EQ512(v3, 'f') & EQ512(v2, 'o')) | (n3 & EQ512(v2, 'g'));
		uint64_t key, oddm;

		if (want_content)
			pay |= (n3 & t2) | (EQ512(v3, 'l') & s2);
		if (want_model)
			pay |= EQ512(v3, 'e') & EQ512(v2, 'l');
		key = col & q1 & pay & live;
		oddm = ((EQ512(v1, '\\') & EQ512(v0, 'u')) |
			(col & (EQ512(v1, ' ') | EQ512(v1, '\t') | EQ512(v1, '\n') |
				EQ512(v1, '\r')))) & live;
		if (oddm)
			return true;
		while (key) {
			if (plain_key_matters(want_content, want_model, s,
					      i + (unsigned)__builtin_ctzll(key)))
				return true;
			key &= key - 1;
		}
	}
#undef EQ512
	return false;
}
#endif

bool ss_keyscan_worth_plain(bool content_seen, bool model_seen, const char *s, size_t n)
{
	bool want_content = !content_seen, want_model = !model_seen;
	size_t i;

	/* The first positions: a \u there; no key that matters ends so early. */
	for (i = 1; i < 3 && i < n; i++)
		if (s[i] == 'u' && s[i - 1] == '\\')
			return true;
#if defined(__x86_64__) && defined(__GNUC__)
	if (ss_simd_level() >= SS_SIMD_AVX512)
		return plain_avx512(want_content, want_model, s, 3, n);
#endif
	for (i = 3; i < n; i++)
		if (plain_one(want_content, want_model, s, i))
			return true;
	return false;
}
