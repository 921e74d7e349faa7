/*
 * logline.c - cleaning, anchors, prefixes and printed numbers of a log line
 * (SPEC 12.1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logs/logline.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

size_t ss_log_clean(const char *line, size_t n, char *out)
{
	if (n && line[n - 1] == '\r')
		n--;
	const char *esc = memchr(line, '\033', n);
	if (!esc) {
		/* most lines: nothing to remove, nothing to copy in place */
		if (out != line)
			memmove(out, line, n);
		return n;
	}
	size_t o = (size_t)(esc - line);
	if (out != line)
		memmove(out, line, o);
	for (size_t i = o; i < n;) {
		if (line[i] == '\033' && i + 1 < n && line[i + 1] == '[') {
			size_t j = i + 2;
			while (j < n && ((line[j] >= '0' && line[j] <= '9') || line[j] == ';'))
				j++;
			if (j < n && ((line[j] >= 'A' && line[j] <= 'Z') ||
				      (line[j] >= 'a' && line[j] <= 'z'))) {
				i = j + 1;
				continue;
			}
		}
		out[o++] = line[i++];
	}
	return o;
}

struct anchor_text {
	const char *text;
	size_t len;
	enum ss_log_format fmt;
};

/*
 * Every anchor's first two bytes are one of four pairs ("Sp", "De", "dr",
 * "sl") that ordinary log text rarely holds: the line is scanned once for
 * those pairs (sixteen positions at a time with SSE2) and each candidate
 * is compared with the anchors that start so. The slot prefix detects but
 * does not count: a counted anchor after it still wins.
 */
#define ANCHOR(s, f) {s, sizeof(s) - 1, f}
static const struct anchor_text anchors[] = {
	ANCHOR("SpecDecoding metrics: ", SS_LOG_VLLM),
	ANCHOR("Speculative metrics: ", SS_LOG_VLLM),
	ANCHOR("Decode batch", SS_LOG_SGLANG),
	ANCHOR("draft acceptance", SS_LOG_LLAMACPP),
	ANCHOR("slot print_timing: id", SS_LOG_LLAMASLOT),
};
#define NANCHORS (sizeof(anchors) / sizeof(anchors[0]))

/* The anchor starting at s + i, or -1. */
static int anchor_at(const char *s, size_t n, size_t i)
{
	for (size_t k = 0; k < NANCHORS; k++)
		if (s[i] == anchors[k].text[0] && n - i >= anchors[k].len &&
		    memcmp(s + i, anchors[k].text, anchors[k].len) == 0)
			return (int)k;
	return -1;
}

static bool pair_at(const char *s, size_t i)
{
	char a = s[i], b = s[i + 1];
	return (a == 'S' && b == 'p') || (a == 'D' && b == 'e') || (a == 'd' && b == 'r') ||
	       (a == 's' && b == 'l');
}

#ifdef __SSE2__
/* Bit b set: the pair at p + b is one an anchor starts with. */
static unsigned pairs16(const char *p)
{
	const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
	const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
	__m128i m = _mm_or_si128(
		_mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8('S')),
					   _mm_cmpeq_epi8(b, _mm_set1_epi8('p'))),
			     _mm_and_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8('D')),
					   _mm_cmpeq_epi8(b, _mm_set1_epi8('e')))),
		_mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8('d')),
					   _mm_cmpeq_epi8(b, _mm_set1_epi8('r'))),
			     _mm_and_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8('s')),
					   _mm_cmpeq_epi8(b, _mm_set1_epi8('l')))));
	return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* The first counted anchor at or after `from`, else a slot one (-1: none). */
static int scan(const char *s, size_t n, size_t *at)
{
	int slot = -1;
	size_t slot_at = 0, i = 0;

#ifdef __SSE2__
	/* sixteen start positions per step; the last step overlaps the one
	 * before it (the positions it saw already are masked off) */
	while (n >= 17 && i + 1 < n) {
		size_t base = i + 17 <= n ? i : n - 17;
		unsigned bits = pairs16(s + base) & (~0u << (i - base));
		while (bits) {
			size_t j = base + (size_t)__builtin_ctz(bits);
			int k = anchor_at(s, n, j);
			bits &= bits - 1;
			if (k < 0 || (anchors[k].fmt == SS_LOG_LLAMASLOT && slot >= 0))
				continue;
			if (anchors[k].fmt != SS_LOG_LLAMASLOT) {
				*at = j;
				return k;
			}
			slot = k;
			slot_at = j;
		}
		i = base + 16;
	}
#endif
	for (; i + 1 < n; i++) {
		if (!pair_at(s, i))
			continue;
		int k = anchor_at(s, n, i);
		if (k < 0 || (anchors[k].fmt == SS_LOG_LLAMASLOT && slot >= 0))
			continue;
		if (anchors[k].fmt != SS_LOG_LLAMASLOT) {
			*at = i;
			return k;
		}
		slot = k;
		slot_at = i;
	}
	*at = slot_at;
	return slot;
}

bool ss_log_find_anchor(const char *s, size_t n, struct ss_log_anchor *a)
{
	size_t at;
	int k = scan(s, n, &at);

	if (k < 0)
		return false;
	a->fmt = anchors[k].fmt;
	a->at = at;
	a->tail = at + anchors[k].len;
	return true;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* n digits at p (before end). */
static bool digits(const char *p, const char *end, size_t n)
{
	if ((size_t)(end - p) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!is_digit(p[i]))
			return false;
	return true;
}

/* RFC 3339 with 'T' and a zone, then a space or the end: its length. */
static size_t rfc3339_len(const char *p, const char *end)
{
	const char *q = p;

	if (!digits(q, end, 4) || end - q < 19 || q[4] != '-' || !digits(q + 5, end, 2) ||
	    q[7] != '-' || !digits(q + 8, end, 2) || q[10] != 'T' || !digits(q + 11, end, 2) ||
	    q[13] != ':' || !digits(q + 14, end, 2) || q[16] != ':' || !digits(q + 17, end, 2))
		return 0;
	q += 19;
	if (q < end && *q == '.') {
		const char *f = ++q;
		while (q < end && is_digit(*q))
			q++;
		if (q == f)
			return 0;
	}
	if (q < end && *q == 'Z') {
		q++;
	} else if (q < end && (*q == '+' || *q == '-') && end - q >= 6 && digits(q + 1, end, 2) &&
		   q[3] == ':' && digits(q + 4, end, 2)) {
		q += 6;
	} else {
		return 0;
	}
	if (q < end && *q != ' ')
		return 0;
	return (size_t)(q - p);
}

/* `[pod/POD/CONTAINER] ` or compose's `NAME | ` (or `NAME |`): its length. */
static size_t deploy_len(const char *p, const char *end)
{
	if (end - p > 5 && memcmp(p, "[pod/", 5) == 0) {
		for (const char *q = p + 5; q + 1 < end; q++) {
			if (*q == ' ')
				return 0;
			if (*q == ']' && q[1] == ' ')
				return (size_t)(q + 2 - p);
		}
		return 0;
	}
	const char *q = p;
	while (q < end && *q != ' ' && *q != '|')
		q++;
	if (q == p || q >= end || *q != ' ')
		return 0;
	while (q < end && *q == ' ')
		q++;
	if (q >= end || *q != '|')
		return 0;
	q++;
	if (q < end && *q == ' ')
		q++;
	return (size_t)(q - p);
}

/* vLLM's "(NAME pid=N)" anywhere in the prefix. */
static void find_proc(const char *s, const char *end, struct ss_log_prefix *pf)
{
	for (const char *p = memchr(s, '(', (size_t)(end - s)); p;
	     p = memchr(p + 1, '(', (size_t)(end - p - 1))) {
		const char *name = p + 1, *q = name;
		while (q < end && *q != ' ' && *q != ')' && *q != '(')
			q++;
		const char *name_end = q;
		if (name_end == name || !ss_log_eat(&q, end, " pid="))
			continue;
		const char *d = q;
		while (q < end && is_digit(*q))
			q++;
		if (q == d || q >= end || *q != ')')
			continue;
		pf->proc = name;
		pf->proc_len = (size_t)(name_end - name);
		return;
	}
}

static int cmp_tag(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;
	return strcmp(*x, *y);
}

/* SGLang's "[YYYY-MM-DD HH:MM:SS[.mmm] TAGn ...]": the tags, sorted. */
static void find_tags(const char *s, const char *end, struct ss_log_prefix *pf)
{
	for (const char *p = memchr(s, '[', (size_t)(end - s)); p;
	     p = p + 1 < end ? memchr(p + 1, '[', (size_t)(end - p - 1)) : NULL) {
		const char *q = p + 1;
		if (!digits(q, end, 4) || end - q < 19 || q[4] != '-' || q[7] != '-' ||
		    q[10] != ' ' || q[13] != ':' || q[16] != ':' || !digits(q + 5, end, 2) ||
		    !digits(q + 8, end, 2) || !digits(q + 11, end, 2) || !digits(q + 14, end, 2) ||
		    !digits(q + 17, end, 2))
			continue;
		q += 19;
		if (q < end && *q == '.' && digits(q + 1, end, 3))
			q += 4;
		char store[8][17];
		const char *tag[8];
		size_t ntag = 0;
		bool ok = true;
		while (q < end && *q == ' ') {
			const char *t = ++q;
			while (q < end && ((*q >= 'A' && *q <= 'Z') || *q == '_'))
				q++;
			const char *d = q;
			while (q < end && is_digit(*q))
				q++;
			if (d == t || q == d || q - t > 16 || ntag == 8) {
				ok = false;
				break;
			}
			memcpy(store[ntag], t, (size_t)(q - t));
			store[ntag][q - t] = '\0';
			tag[ntag] = store[ntag];
			ntag++;
		}
		if (!ok || q >= end || *q != ']')
			continue;
		qsort(tag, ntag, sizeof(tag[0]), cmp_tag);
		size_t o = 0;
		for (size_t i = 0; i < ntag; i++) {
			size_t l = strlen(tag[i]);
			if (o + l + 2 > sizeof(pf->tags)) {
				o = 0;
				break;
			}
			if (i)
				pf->tags[o++] = ' ';
			memcpy(pf->tags + o, tag[i], l);
			o += l;
		}
		pf->tags[o] = '\0';
		return;
	}
}

void ss_log_prefix_parse(const char *s, size_t n, struct ss_log_prefix *p)
{
	const char *end = s + n, *q = s;

	memset(p, 0, sizeof(*p));
	q += deploy_len(q, end);
	size_t t = rfc3339_len(q, end);
	if (!t && q != s) {
		/* a compose prefix before a kubectl one is not seen; the time
		 * may also open the line with no deployment prefix */
		t = rfc3339_len(s, end);
		if (t)
			q = s;
	}
	if (t) {
		p->time = q;
		p->time_len = t;
	}
	find_proc(s, end, p);
	find_tags(s, end, p);
}

size_t ss_log_int(const char *p, const char *end, uint64_t *v, bool *toolong)
{
	const char *q = p;
	uint64_t x = 0;

	while (q < end && is_digit(*q)) {
		if (q - p == SS_LOG_MAX_DIGITS) {
			*toolong = true;
			return 0;
		}
		x = x * 10 + (uint64_t)(*q - '0');
		q++;
	}
	if (q == p)
		return 0;
	*v = x;
	return (size_t)(q - p);
}

size_t ss_log_fixed(const char *p, const char *end, int decimals, bool *toolong)
{
	const char *q = p;

	while (q < end && is_digit(*q)) {
		if (q - p == SS_LOG_MAX_DIGITS) {
			*toolong = true;
			return 0;
		}
		q++;
	}
	if (q == p || q >= end || *q != '.')
		return 0;
	q++;
	if (!digits(q, end, (size_t)decimals))
		return 0;
	q += decimals;
	if (q < end && is_digit(*q))
		return 0;
	return (size_t)(q - p);
}

bool ss_log_prints_as(double v, int decimals, const char *txt, size_t n)
{
	char buf[64];
	int k = snprintf(buf, sizeof(buf), "%.*f", decimals, v);

	return k > 0 && (size_t)k == n && memcmp(buf, txt, n) == 0;
}

bool ss_log_eat(const char **pp, const char *end, const char *lit)
{
	size_t l = strlen(lit);

	if ((size_t)(end - *pp) < l || memcmp(*pp, lit, l) != 0)
		return false;
	*pp += l;
	return true;
}

uint64_t ss_log_bucket(uint64_t r)
{
	if (!r)
		return 0;
	uint64_t b = 1;
	while (b <= r / 2)
		b *= 2;
	return b;
}
