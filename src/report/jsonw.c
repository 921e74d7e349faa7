/*
 * jsonw.c - the JSON writer of jsonw.h: string literals, then the
 * indented layout of the aggregate JSON.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "report/jsonw.h"
#include "report/numfmt.h"
#include "util/utf8.h"

/*
 * Whether the 8 bytes at p are all plain ASCII that a JSON string takes as
 * it stands (0x20..0x7f but for '"' and '\\'): the byte tests of the loop
 * below, eight at a time. The "some byte below N" and "some byte equal to
 * N" word tricks answer exactly whether any byte is so (not which).
 */
static inline bool plain8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t x, q, bs;

	memcpy(&x, p, sizeof(x));
	q = x ^ ones * '"';
	bs = x ^ ones * '\\';
	return ((x & highs) |                      /* 0x80 and up */
		((x - ones * 0x20) & ~x & highs) |  /* below 0x20 */
		((q - ones) & ~q & highs) |         /* '"' */
		((bs - ones) & ~bs & highs)) == 0;  /* '\\' */
}

void ss_buf_add_json_string(struct ss_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, start = 0;

	ss_buf_addc(b, '"');
	while (i < n) {
		unsigned char c = u[i];
		char esc[7] = "\\u00";

		/* plain ASCII, most of any text, passes without a look at UTF-8 */
		if (i + 8 <= n && plain8(u + i)) {
			i += 8;
			continue;
		}
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c >= 0x80) {
			uint32_t cp;
			size_t len = ss_utf8_next(u + i, n - i, &cp);

			if (cp != SS_UTF8_INVALID) {
				i += len;
				continue;
			}
		}
		ss_buf_add(b, s + start, i - start);
		if (c >= 0x80)
			ss_buf_adds(b, "\\ufffd");
		else if (c == '"')
			ss_buf_adds(b, "\\\"");
		else if (c == '\\')
			ss_buf_adds(b, "\\\\");
		else if (c == '\n')
			ss_buf_adds(b, "\\n");
		else if (c == '\r')
			ss_buf_adds(b, "\\r");
		else if (c == '\t')
			ss_buf_adds(b, "\\t");
		else if (c == '\b')
			ss_buf_adds(b, "\\b");
		else if (c == '\f')
			ss_buf_adds(b, "\\f");
		else {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			ss_buf_add(b, esc, 6);
		}
		start = ++i;
	}
	ss_buf_add(b, s + start, n - start);
	ss_buf_addc(b, '"');
}

void ss_jsonw_init(struct ss_jsonw *w, struct ss_buf *b)
{
	w->b = b;
	w->depth = 0;
	w->nonempty = 0;
}

/* A newline and the indentation of the current depth. */
static void newline(struct ss_jsonw *w, int depth)
{
	ss_buf_addc(w->b, '\n');
	for (int i = 0; i < 2 * depth; i++)
		ss_buf_addc(w->b, ' ');
}

/* What goes before a value: the separator and indentation of a member
 * (none for the outermost value), then `"key": ` when it has one. */
static void start(struct ss_jsonw *w, const char *key)
{
	uint64_t bit = UINT64_C(1) << w->depth;

	if (w->depth > 0) {
		if (w->nonempty & bit)
			ss_buf_addc(w->b, ',');
		w->nonempty |= bit;
		newline(w, w->depth);
	}
	if (key) {
		ss_buf_add_json_string(w->b, key, strlen(key));
		ss_buf_adds(w->b, ": ");
	}
}

static void begin(struct ss_jsonw *w, const char *key, char open)
{
	start(w, key);
	ss_buf_addc(w->b, open);
	assert(w->depth < SS_JSONW_MAX_DEPTH);
	w->depth++;
	w->nonempty &= ~(UINT64_C(1) << w->depth);
}

static void end(struct ss_jsonw *w, char close)
{
	assert(w->depth > 0);
	if (w->nonempty & (UINT64_C(1) << w->depth))
		newline(w, w->depth - 1);
	w->depth--;
	ss_buf_addc(w->b, close);
}

void ss_jsonw_begin_object(struct ss_jsonw *w, const char *key)
{
	begin(w, key, '{');
}

void ss_jsonw_end_object(struct ss_jsonw *w)
{
	end(w, '}');
}

void ss_jsonw_begin_array(struct ss_jsonw *w, const char *key)
{
	begin(w, key, '[');
}

void ss_jsonw_end_array(struct ss_jsonw *w)
{
	end(w, ']');
}

struct ss_buf *ss_jsonw_value(struct ss_jsonw *w, const char *key)
{
	start(w, key);
	return w->b;
}

void ss_jsonw_u64(struct ss_jsonw *w, const char *key, uint64_t v)
{
	ss_buf_add_u64(ss_jsonw_value(w, key), v);
}

void ss_jsonw_i64(struct ss_jsonw *w, const char *key, int64_t v)
{
	ss_buf_add_i64(ss_jsonw_value(w, key), v);
}

void ss_jsonw_i128(struct ss_jsonw *w, const char *key, __int128 v)
{
	ss_buf_add_i128(ss_jsonw_value(w, key), v);
}

void ss_jsonw_double(struct ss_jsonw *w, const char *key, double v)
{
	ss_buf_add_double(ss_jsonw_value(w, key), v);
}

void ss_jsonw_str(struct ss_jsonw *w, const char *key, const char *s)
{
	ss_jsonw_strn(w, key, s, strlen(s));
}

void ss_jsonw_strn(struct ss_jsonw *w, const char *key, const char *s, size_t n)
{
	ss_buf_add_json_string(ss_jsonw_value(w, key), s, n);
}

void ss_jsonw_null(struct ss_jsonw *w, const char *key)
{
	ss_buf_adds(ss_jsonw_value(w, key), "null");
}

void ss_jsonw_bool(struct ss_jsonw *w, const char *key, bool v)
{
	ss_buf_adds(ss_jsonw_value(w, key), v ? "true" : "false");
}
