/*
 * server_json_util.c - the base layer of SPEC 10.1's JSON shapes: the
 * helpers the shapes share (a feed's state, a text opened, a label set
 * read from an object, a bad part told, a family's name matched, a
 * value checked and emitted as a sample, number texts read).
 *
 * The layering of server_json*.c, lowest first (tests/check_includes.py
 * holds it): this file (server_json_int.h) calls nothing of the others;
 * the three shapes (server_json_aiperf.c, _engines.c, _prom.c, declared
 * in server_json_shapes.h) call only this layer; server_json.c, the top,
 * tells a line's shape and calls the shapes (server_json.h). Nothing
 * calls back up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server_json_int.h"

bool sj_feed_init(struct sj_feed *f, struct ss_server *s, struct ssj_parser *p,
		  const char *place, uint64_t line)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->place = place ? place : "";
	f->line = line;
	f->own = p == NULL;
	f->p = p ? p : ssj_parser_new();
	return f->p != NULL;
}

void sj_feed_release(struct sj_feed *f)
{
	if (f->own)
		ssj_parser_free(f->p);
	else
		ssj_close(f->p); /* the caller's text may die now */
}

static size_t skip_ws(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
		i++;
	return i;
}

bool sj_array_text(const char *text, size_t len)
{
	size_t i = skip_ws(text, len, 0);

	return i < len && text[i] == '[';
}

enum ssj_status sj_open(struct ssj_parser *p, const char *text, size_t len, bool *array)
{
	*array = sj_array_text(text, len);
	return *array ? ssj_open_array(p, text, len) : ssj_open(p, text, len);
}

bool sj_labels_put(struct sj_labels *l, const char *name, size_t nlen, const char *value,
		   size_t vlen)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->l[i].name_len == nlen && memcmp(l->l[i].name, name, nlen) == 0) {
			l->l[i].value = value;
			l->l[i].value_len = vlen;
			return true;
		}
	if (l->n == SS_SERVER_MAX_LABELS)
		return false;
	l->l[l->n++] = (struct ss_server_label){name, nlen, value, vlen};
	return true;
}

static int label_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct sj_labels *l = ctx;
	const char *p;
	size_t len;

	if (ssj_value_type(v) != SSJ_STRING || ssj_value_string(v, &p, &len) != SSJ_OK) {
		l->bad = "a label value that is not a string";
		return 1;
	}
	if (!sj_labels_put(l, key, n, p, len)) {
		l->bad = "more than 64 labels";
		return 1;
	}
	return 0;
}

void sj_labels_read(struct sj_labels *l, struct ssj_value *v)
{
	enum ssj_type t = ssj_value_type(v);

	l->n = 0;
	l->bad = NULL;
	if (t == SSJ_NULL)
		return; /* AIPerf: no labels */
	if (t != SSJ_OBJECT) {
		l->bad = "labels that are not an object";
		return;
	}
	if (ssj_object_foreach(v, label_field, l) != SSJ_OK && !l->bad)
		l->bad = "labels that cannot be read";
}

void sj_bad(struct sj_feed *f, const char *what, const char *name, const char *reason)
{
	char w[160];

	if (name) {
		snprintf(w, sizeof(w), "%s %s", what, name);
		what = w;
	}
	ss_server_bad(f->s, f->place, f->line, what, reason);
}

bool sj_family_name(enum ss_server_source src, const char *name, size_t len,
		    struct ss_family_match *m)
{
	if (len >= 8 && memcmp(name + len - 8, "_created", 8) == 0)
		return false;
	if (len >= 6 && memcmp(name + len - 6, "_total", 6) == 0)
		len -= 6;
	return ss_family_lookup(src, name, len, m);
}

/* An integer's text (an optional minus, digits): its value, false when not one or out of range. */
bool sj_int_text(const char *p, size_t n, int64_t *out)
{
	bool neg = n > 0 && p[0] == '-';
	uint64_t v = 0;
	size_t i = neg;

	if (i == n)
		return false;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

bool sj_seconds_ns(const char *p, size_t n, int64_t *ns)
{
	/* digits with an optional fraction and exponent, read exactly as a decimal */
	__int128 mant = 0, v;
	int exp10 = 0, digits = 0;
	bool neg = false;
	size_t i = 0;

	if (i < n && p[i] == '-')
		neg = true, i++;
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		if (digits < 30 && (mant || p[i] != '0'))
			mant = mant * 10 + (p[i] - '0'), digits++;
		else if (digits >= 30)
			exp10++;
	if (i < n && p[i] == '.')
		for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			if (digits < 30) {
				mant = mant * 10 + (p[i] - '0'), exp10--;
				if (mant)
					digits++;
			}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		int64_t e;
		size_t j = ++i;

		if (j < n && p[j] == '+')
			j++;
		if (!sj_int_text(p + j, n - j, &e) || e > 40 || e < -400)
			return false;
		exp10 += (int)e;
		i = n;
	}
	if (i != n)
		return false;
	exp10 += 9; /* seconds to nanoseconds */
	for (; exp10 < 0 && mant; exp10++)
		mant /= 10;
	if (exp10 < 0)
		exp10 = 0;
	v = mant;
	for (; exp10 > 0 && v; exp10--) {
		if (v > (__int128)INT64_MAX)
			return false;
		v *= 10;
	}
	if (v > (__int128)INT64_MAX)
		return false;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return true;
}


int sj_names_pass(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct sj_names *nm = ctx;
	struct ss_family_match m;
	size_t i;

	(void)v;
	nm->ord++;
	if (!sj_family_name(nm->src, key, n, &m))
		return 0;
	for (i = 0; i < nm->n; i++)
		if (nm->v[i].n == n && memcmp(nm->v[i].k, key, n) == 0)
			break;
	if (i == nm->n) {
		if (nm->n == SJ_NAMES)
			return 0; /* more names than the table has: each place read */
		nm->v[nm->n].k = key;
		nm->v[nm->n++].n = n;
	}
	nm->v[i].last = nm->ord;
	return 0;
}

/* Whether the family field at ordinal ord is its name's last. */
bool sj_names_is_last(const struct sj_names *nm, const char *key, size_t n, uint32_t ord)
{
	for (size_t i = 0; i < nm->n; i++)
		if (nm->v[i].n == n && memcmp(nm->v[i].k, key, n) == 0)
			return nm->v[i].last == ord;
	return true;
}

/* The table's name of a match (static: safe in messages). */
const char *sj_match_name(const struct ss_family_match *m)
{
	const struct ss_family_row *r = &ss_family_rows[m->row];

	return m->role == SS_ROLE_GAUGE ? r->gauges[m->gauge] : r->names[m->role];
}


void sj_value_take(struct sj_value *vs, struct ssj_value *v)
{
	vs->has = true;
	vs->t = ssj_value_type(v);
	if (vs->t != SSJ_NUMBER || ssj_value_number_text(v, &vs->p, &vs->n) != SSJ_OK)
		vs->p = NULL, vs->n = 0;
}

/* Why a value is no counter's or gauge's number (NULL: it is one); *skip: a gauge with none. */
const char *sj_value_problem(const struct sj_value *vs, const struct ss_family_match *m,
				 bool *skip)
{
	*skip = false;
	if (!vs->has || vs->t == SSJ_NULL) {
		/* a gauge not measured yet (AIPerf writes NaN as null) */
		*skip = m->role == SS_ROLE_GAUGE;
		return vs->has ? "the value is null" : "no value";
	}
	if (vs->t != SSJ_NUMBER || !vs->p)
		return "the value is not a number";
	return NULL;
}

void sj_sample_status(struct sj_feed *f, const struct ss_family_match *m,
			  enum ss_server_status st, const char *reason)
{
	if (st == SS_SERVER_BAD)
		sj_bad(f, "bad sample of", sj_match_name(m), reason);
	else if (st == SS_SERVER_REPEAT)
		sj_bad(f, "bad sample of", sj_match_name(m), "the series appears twice in one snapshot");
	else if (st == SS_SERVER_NOMEM)
		f->nomem = true;
}

/* One sample of the open snapshot, its parts checked first. */
void sj_emit(struct sj_feed *f, const char *name, size_t nlen, const struct ss_family_match *m,
		 const struct sj_labels *lab, const struct sj_value *vs)
{
	const char *why, *reason = NULL;
	enum ss_server_status st;
	bool skip;

	if (lab->bad) {
		sj_bad(f, "bad sample of", sj_match_name(m), lab->bad);
		return;
	}
	why = sj_value_problem(vs, m, &skip);
	if (skip)
		return;
	if (why) {
		sj_bad(f, "bad sample of", sj_match_name(m), why);
		return;
	}
	st = ss_server_sample(f->s, name, nlen, lab->l, lab->n, vs->p, vs->n, &reason);
	sj_sample_status(f, m, st, reason);
}
