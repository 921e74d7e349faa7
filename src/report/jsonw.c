/*
 * jsonw.c - the JSON writer of jsonw.h.
 */
#include <assert.h>
#include <string.h>

#include "report/jsonw.h"
#include "report/numfmt.h"
#include "report/report_int.h"

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
		ss_report_add_text(w->b, key, strlen(key));
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
	ss_report_add_text(ss_jsonw_value(w, key), s, n);
}

void ss_jsonw_null(struct ss_jsonw *w, const char *key)
{
	ss_buf_adds(ss_jsonw_value(w, key), "null");
}

void ss_jsonw_bool(struct ss_jsonw *w, const char *key, bool v)
{
	ss_buf_adds(ss_jsonw_value(w, key), v ? "true" : "false");
}
