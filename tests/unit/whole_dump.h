/*
 * whole_dump.h - what a reader can see of a JSON text through the shim,
 * written out as one string: every value of the text visited in order
 * (types, number texts, doubles, decoded strings), and a second look at
 * the root's fields (spans, raw strings, emptiness, and each object
 * visited again where it lies, through ssj_visit_span on the dump's
 * parser). test_whole.c and fuzz_whole.c compare these dumps between the
 * whole-text path and the On-Demand path. The includer defines
 * WHOLE_CHECK(cond).
 */
#ifndef SS_WHOLE_DUMP_H
#define SS_WHOLE_DUMP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

struct dump {
	char *s;
	size_t len, cap;
	const char *base;   /* the text: spans are written as offsets into it */
	struct ssj_parser *parser;  /* the text's parser, for ssj_visit_span */
	int depth;
};

static void put(struct dump *d, const char *p, size_t n)
{
	if (d->len + n + 1 > d->cap) {
		d->cap = (d->len + n + 1) * 2;
		d->s = realloc(d->s, d->cap);
		WHOLE_CHECK(d->s != NULL);
	}
	memcpy(d->s + d->len, p, n);
	d->len += n;
	d->s[d->len] = '\0';
}

static void putf(struct dump *d, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	WHOLE_CHECK(n >= 0 && (size_t)n < sizeof(tmp));
	put(d, tmp, (size_t)n);
}

static void value(struct dump *d, struct ssj_value *v);

static int field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct dump *d = ctx;

	putf(d, "k%zu:", n);
	put(d, key, n);
	value(d, v);
	return 0;
}

static int elem(void *ctx, size_t index, struct ssj_value *v)
{
	struct dump *d = ctx;

	putf(d, "e%zu", index);
	value(d, v);
	return 0;
}

/* Read a value the way the readers do: type, then its content. */
static void value(struct dump *d, struct ssj_value *v)
{
	enum ssj_type t = ssj_value_type(v);
	const char *p;
	size_t n;
	double x;
	bool b;
	enum ssj_status s;

	putf(d, "(t%d", (int)t);
	switch (t) {
	case SSJ_NUMBER:
		s = ssj_value_number_text(v, &p, &n);
		putf(d, " n%d:", (int)s);
		if (s == SSJ_OK) {
			double y;
			enum ssj_status s2 = ssj_number_double(p, n, &y);

			put(d, p, n);
			s = ssj_value_double(v, &x);
			/* the lazy conversion agrees with the value's own */
			WHOLE_CHECK(s == s2);
			WHOLE_CHECK(s != SSJ_OK || memcmp(&x, &y, sizeof(x)) == 0);
			putf(d, " d%d:%a", (int)s, s == SSJ_OK ? x : 0.0);
		}
		break;
	case SSJ_STRING:
		s = ssj_value_string(v, &p, &n);
		putf(d, " s%d:%zu:", (int)s, s == SSJ_OK ? n : 0);
		if (s == SSJ_OK)
			put(d, p, n);
		break;
	case SSJ_BOOL:
		s = ssj_value_bool(v, &b);
		putf(d, " b%d:%d", (int)s, s == SSJ_OK && b);
		break;
	case SSJ_NULL:
		putf(d, " z%d", ssj_value_is_null(v));
		break;
	case SSJ_OBJECT:
		s = ssj_object_foreach(v, field, d);
		putf(d, " o%d", (int)s);
		break;
	case SSJ_ARRAY:
		s = ssj_array_foreach(v, elem, d);
		putf(d, " a%d", (int)s);
		break;
	default:
		break;
	}
	put(d, ")", 1);
}

static int span_elem(void *ctx, size_t index, enum ssj_type t, const char *p, size_t n)
{
	struct dump *d = ctx;

	putf(d, "[%zu t%d @%td+%zu]", index, (int)t, p - d->base, n);
	return 0;
}

/* The other look at the root's fields: spans, raw strings, emptiness. */
static int span_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct dump *d = ctx;
	enum ssj_type t = ssj_value_type(v);
	const char *p;
	size_t len;
	enum ssj_status s;
	bool empty = false;

	putf(d, "k%zu:", n);
	put(d, key, n);
	putf(d, "(t%d", (int)t);
	if (t == SSJ_STRING) {
		s = ssj_value_raw_string(v, &p, &len);
		putf(d, " r%d @%td+%zu", (int)s, s == SSJ_OK ? p - d->base : 0,
		     s == SSJ_OK ? len : 0);
	} else if (t == SSJ_ARRAY && n % 2) {
		s = ssj_array_foreach_span(v, span_elem, d);
		putf(d, " as%d", (int)s);
	} else if ((t == SSJ_ARRAY || t == SSJ_OBJECT) && n % 3 == 0) {
		s = ssj_value_is_empty(v, &empty);
		putf(d, " e%d:%d", (int)s, empty);
	} else {
		s = ssj_value_raw_json(v, &p, &len);
		putf(d, " j%d @%td+%zu", (int)s, s == SSJ_OK ? p - d->base : 0,
		     s == SSJ_OK ? len : 0);
		/* an object of the open document, visited where it lies */
		if (s == SSJ_OK && t == SSJ_OBJECT && d->parser) {
			s = ssj_visit_span(d->parser, p, len, field, d);
			putf(d, " v%d", (int)s);
		}
	}
	put(d, ")", 1);
	return 0;
}

#endif
