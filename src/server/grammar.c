/*
 * grammar.c - the pieces of SPEC 10.1's exposition grammar (contract in
 * grammar.h): names, labels with their escapes and UTF-8, values,
 * timestamps, the time of `# time:` lines.
 */
#include "server/grammar.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "server/number.h"
#include "util/alloc.h"
#include "util/grow.h"
#include "util/utf8.h"

/* Character classes of names (SPEC 10.1: [a-zA-Z_:][a-zA-Z0-9_:]*). */
enum { C_NAME0 = 1, C_NAME = 2, C_LABEL0 = 4, C_LABEL = 8 };

static unsigned char cls[256];

static void classes_init(void)
{
	for (int c = 0; c < 256; c++) {
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		bool digit = c >= '0' && c <= '9';

		cls[c] = (unsigned char)((alpha || c == ':' ? C_NAME0 : 0) |
					 (alpha || digit || c == ':' ? C_NAME : 0) |
					 (alpha ? C_LABEL0 : 0) | (alpha || digit ? C_LABEL : 0));
	}
}

static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

void ss_expo_grammar_init(void)
{
	pthread_once(&classes_once, classes_init);
}

static inline bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

size_t ss_expo_name_len(const char *p, size_t len)
{
	size_t i = 1;

	while (i < len && (cls[(unsigned char)p[i]] & C_NAME))
		i++;
	return i;
}

/* The length of the valid UTF-8 sequence at p (before end), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	uint32_t cp;
	size_t n = ss_utf8_next(p, (size_t)(end - p), &cp);

	return cp == SS_UTF8_INVALID ? 0 : n;
}

/*
 * One label value from just after its opening quote: the bytes to the
 * closing quote, escapes read (`\\`, `\"`, `\n`; another escape is kept
 * as written, as Prometheus' and the Python client's readers keep it).
 * When `keep`, the unescaped value is appended to sc->unesc. Returns the
 * position after the closing quote, or NULL with *why.
 */
static const char *label_value(struct ss_expo_labels *sc, const char *q, const char *end,
			       bool keep, const char **why)
{
	while (q < end) {
		const char *run = q;

		while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q < 0x80)
			q++;
		if (keep)
			ss_buf_add(&sc->unesc, run, (size_t)(q - run));
		if (q == end)
			break;
		if (*q == '"')
			return q + 1;
		if (*q == '\\') {
			char e;

			if (q + 1 == end)
				break;
			e = q[1];
			/* SPEC 13: these three only; another makes the line bad */
			if (e != 'n' && e != '\\' && e != '"') {
				*why = "a label value with an escape other than \\\\, \\\" and \\n";
				return NULL;
			}
			if (keep)
				ss_buf_addc(&sc->unesc, e == 'n' ? '\n' : e);
			q += 2;
			continue;
		}
		{
			size_t n = utf8_len((const unsigned char *)q, (const unsigned char *)end);

			if (!n) {
				*why = "a label value that is not UTF-8";
				return NULL;
			}
			if (keep)
				ss_buf_add(&sc->unesc, q, n);
			q += n;
		}
	}
	*why = "a label value without its closing quote";
	return NULL;
}

static inline const char *skip_blanks(const char *q, const char *end)
{
	while (q < end && is_blank(*q))
		q++;
	return q;
}

/* Whether the label name [name, name + n) is among the first sc->n recorded. */
static bool label_twice(const struct ss_expo_labels *sc, const char *name, size_t n)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->labels[i].name_len == n && memcmp(sc->labels[i].name, name, n) == 0)
			return true;
	return false;
}

/*
 * SPEC 13: blanks may stand around `{`, `}`, `,` and `=` in the braces; a
 * label name given twice makes the line bad, whatever its metric (told
 * apart among the first SS_SERVER_MAX_LABELS names: a kept series has no
 * more, and other series' further names are not compared).
 */
size_t ss_expo_series(struct ss_expo_labels *sc, const char *p, size_t len, bool keep,
		      const char **why)
{
	const char *q = p, *end = p + len, *r;

	sc->n = 0;
	sc->too_many = false;
	ss_buf_reset(&sc->unesc);
	if (!(cls[(unsigned char)*q] & C_NAME0)) {
		*why = "not a sample, a comment or a blank line";
		return 0;
	}
	for (q++; q < end && (cls[(unsigned char)*q] & C_NAME); q++)
		;
	r = skip_blanks(q, end);
	if (r == end || *r != '{')
		return (size_t)(q - p);
	for (q = r + 1;;) {
		const char *name;
		size_t nlen;

		q = skip_blanks(q, end);
		if (q < end && *q == '}')
			return (size_t)(q + 1 - p);
		if (q == end || !(cls[(unsigned char)*q] & C_LABEL0)) {
			*why = "a label name expected";
			return 0;
		}
		for (name = q++; q < end && (cls[(unsigned char)*q] & C_LABEL); q++)
			;
		nlen = (size_t)(q - name);
		q = skip_blanks(q, end);
		if (q < end && *q == '=')
			q = skip_blanks(q + 1, end);
		else
			q = end;
		if (q == end || *q != '"') {
			*why = "a label without =\"value\"";
			return 0;
		}
		if (label_twice(sc, name, nlen)) {
			*why = "a label name appears twice";
			return 0;
		}
		if (sc->n == SS_SERVER_MAX_LABELS) {
			sc->too_many = keep;
		} else {
			sc->labels[sc->n].name = name;
			sc->labels[sc->n].name_len = nlen;
			sc->val_off[sc->n++] = sc->unesc.len;
		}
		q = label_value(sc, q + 1, end, keep && !sc->too_many, why);
		if (!q)
			return 0;
		q = skip_blanks(q, end);
		if (q < end && *q == ',') {
			q++;
		} else if (q == end || *q != '}') {
			*why = "labels not separated by commas";
			return 0;
		}
	}
}

void ss_expo_labels_fix(struct ss_expo_labels *sc)
{
	for (size_t i = 0; i < sc->n; i++) {
		size_t end = i + 1 < sc->n ? sc->val_off[i + 1] : sc->unesc.len;

		sc->labels[i].value = sc->unesc.data ? sc->unesc.data + sc->val_off[i] : "";
		sc->labels[i].value_len = end - sc->val_off[i];
	}
}

/* ---- a series' canonical text ---- */

void ss_expo_key_init(struct ss_expo_key *k)
{
	k->span = NULL;
	k->cap = 0;
	ss_buf_init(&k->text);
}

void ss_expo_key_release(struct ss_expo_key *k)
{
	ss_free(k->span);
	k->span = NULL;
	k->cap = 0;
	ss_buf_release(&k->text);
}

static int span_cmp(const void *a, const void *b)
{
	const struct ss_expo_span *x = a, *y = b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	return (x->name_len > y->name_len) - (x->name_len < y->name_len);
}

/* The end of a label value written from q (just after its opening quote): its closing quote. */
static const char *value_end(const char *q, const char *end)
{
	while (q < end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	return q;
}

bool ss_expo_key_build(struct ss_expo_key *k, const char *p, size_t slen)
{
	const char *end = p + slen, *q;
	size_t nlen = ss_expo_name_len(p, slen), n = 0;

	ss_buf_reset(&k->text);
	ss_buf_add(&k->text, p, nlen >= 6 && memcmp(p + nlen - 6, "_total", 6) == 0 ? nlen - 6 : nlen);
	/* the text was accepted: name, blanks, `{`, then `name = "value"` and `,` with blanks, `}` */
	for (q = skip_blanks(p + nlen, end); q < end && *q != '}';) {
		struct ss_expo_span sp;

		q = skip_blanks(q + 1, end); /* past `{` or `,` */
		if (q == end || *q == '}')
			break;
		sp.name = q;
		while (q < end && (cls[(unsigned char)*q] & C_LABEL))
			q++;
		sp.name_len = (size_t)(q - sp.name);
		q = skip_blanks(q, end);                   /* at `=` */
		q = skip_blanks(q + 1, end);               /* at the opening quote */
		sp.value = q + 1;
		q = value_end(sp.value, end);
		sp.value_len = (size_t)(q - sp.value);
		q = skip_blanks(q + 1, end);               /* at `,` or `}` */
		if (!SS_ALLOC_GROW(k->span, n + 1, k->cap))
			return false;
		k->span[n++] = sp;
	}
	if (n > 1)
		qsort(k->span, n, sizeof(*k->span), span_cmp);
	for (size_t i = 0; i < n; i++) {
		ss_buf_addc(&k->text, i ? ',' : '{');
		ss_buf_add(&k->text, k->span[i].name, k->span[i].name_len);
		ss_buf_add(&k->text, "=\"", 2);
		ss_buf_add(&k->text, k->span[i].value, k->span[i].value_len);
		ss_buf_addc(&k->text, '"');
	}
	if (n)
		ss_buf_addc(&k->text, '}');
	/* a line's labels take a few bytes each: a large array is not kept for the next */
	if (k->cap > 4096 && n < k->cap / 8) {
		ss_free(k->span);
		k->span = NULL;
		k->cap = 0;
	}
	return !k->text.failed;
}

static inline bool digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

const char *ss_expo_value(const char *q, const char *end, const char **v, size_t *vlen,
			  bool *has_ts, int64_t *ts)
{
	const char *s;
	bool neg = false;
	int64_t t = 0;

	*has_ts = false;
	if (q == end || !is_blank(*q))
		return "no blank between the series and its value";
	while (is_blank(*++q))
		;
	*v = q;
	/*
	 * A value that starts with a digit (nearly all): digits, a fraction,
	 * an exponent, as ss_server_float_len() reads them, in one pass. *end is
	 * the line's terminator or a cut blank, never a digit, '.', 'e' or a
	 * sign, so no scan runs past it.
	 */
	if (digit(*q)) {
		for (s = q + 1; digit(*s); s++)
			;
		if (*s == '.')
			for (s++; digit(*s); s++)
				;
		if (*s == 'e' || *s == 'E') {
			const char *e = s + 1;

			if (*e == '+' || *e == '-')
				e++;
			if (!digit(*e))
				return "a value that is not a number";
			for (s = e + 1; digit(*s); s++)
				;
		}
		*vlen = (size_t)(s - q);
	} else {
		*vlen = ss_server_float_len(q, end);
	}
	if (*vlen == 0)
		return "a value that is not a number";
	q += *vlen;
	if (q == end)
		return NULL;
	if (!is_blank(*q))
		return "a value that is not a number";
	while (is_blank(*++q))
		;
	if (*q == '-' || *q == '+')
		neg = *q++ == '-';
	/*
	 * Integer milliseconds (Prometheus' int64, with its optional sign),
	 * held as nanoseconds: |ms| at most SS_EXPO_MAX_TS_MS (years
	 * 1677-2262, docs/BEHAVIOUR.md); more is a bad line.
	 */
	for (s = q; digit(*q); q++) {
		t = t * 10 + (*q - '0');
		if (t > SS_EXPO_MAX_TS_MS)
			return "a timestamp out of range (more than 9,223,372,036,854 ms from 1970)";
	}
	if (q == s || q != end)
		return "a timestamp that is not integer milliseconds";
	*has_ts = true;
	*ts = neg ? -t : t;
	return NULL;
}

bool ss_expo_time(const char *p, size_t len, int64_t *ns)
{
	const char *q = p, *end = p + len;
	int64_t sec = 0, frac = 0;
	int fd = 0;

	if (q == end || *q < '0' || *q > '9')
		return false;
	/* Any number of digits, as long as the time in ns fits (SS_EXPO_MAX_TIME_S). */
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		sec = sec * 10 + (*q - '0');
		if (sec > SS_EXPO_MAX_TIME_S)
			return false;
	}
	if (q < end && *q == '.') {
		for (q++; q < end && *q >= '0' && *q <= '9'; q++)
			if (fd < 9) {
				frac = frac * 10 + (*q - '0');
				fd++;
			}
	}
	if (q != end)
		return false;
	for (; fd < 9; fd++)
		frac *= 10;
	if (sec == SS_EXPO_MAX_TIME_S && frac > INT64_MAX % 1000000000)
		return false;
	*ns = sec * 1000000000 + frac;
	return true;
}
