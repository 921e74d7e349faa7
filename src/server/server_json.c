/*
 * server_json.c - SPEC 10.1's JSON shapes: which one a line is, and the
 * snapshots and increments of AIPerf's server-metrics lines and document,
 * TensorRT-LLM's iteration statistics and SGLang's server info (the
 * Prometheus HTTP API results are server_json_prom.c's).
 *
 * Every part that counts is read as SPEC 1.2 reads JSON: of a repeated
 * key the last one counts, so a family's series list, a series' labels
 * and value, and each iteration's statistics are taken only once their
 * object has been gone through (or, for the objects that hold families, a
 * first pass finds each name's last place).
 */
#include "server/server_json.h"

#include <stdlib.h>
#include <string.h>

#include "server/server_json_int.h"
#include "util/alloc.h"
#include "util/grow.h"

/* ---- helpers shared with server_json_prom.c ---- */

bool sj_feed_init(struct sj_feed *f, struct ss_server *s, const char *place, uint64_t line)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->place = place ? place : "";
	f->line = line;
	ss_buf_init(&f->wrap);
	f->p = ssj_parser_new();
	return f->p != NULL;
}

void sj_feed_release(struct sj_feed *f)
{
	ssj_parser_free(f->p);
	ss_buf_release(&f->wrap);
}

static size_t skip_ws(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
		i++;
	return i;
}

enum ssj_status sj_open(struct ssj_parser *p, struct ss_buf *wrap, const char *text, size_t len,
			bool *array)
{
	size_t i = skip_ws(text, len, 0);

	*array = i < len && text[i] == '[';
	if (!*array)
		return ssj_open(p, text, len);
	ss_buf_reset(wrap);
	ss_buf_add(wrap, "{\"a\":", 5);
	ss_buf_add(wrap, text, len);
	ss_buf_addc(wrap, '}');
	if (wrap->failed)
		return SSJ_ENOMEM;
	return ssj_open(p, wrap->data, wrap->len);
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

static bool is_int_text(const char *p, size_t n)
{
	size_t i = n > 0 && p[0] == '-';

	if (i == n)
		return false;
	for (; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
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

/* ---- shape detection ---- */

struct shape_scan {
	bool endpoint_url, timestamp_ns, metrics; /* AIPerf line, each of its type */
	bool iter, sds;                           /* TensorRT-LLM */
	bool internal_states;                     /* SGLang */
	bool success;                             /* status "success" */
	const char *data;                         /* data, an object's text */
	size_t data_len;
	const char *rtype;                        /* data.resultType */
	size_t rtype_len;
	/* an array root: its elements */
	bool all_iter, any_sds;
	size_t elems;
};

static bool string_is(struct ssj_value *v, const char *s)
{
	const char *p;
	size_t n;

	return ssj_value_type(v) == SSJ_STRING && ssj_value_string(v, &p, &n) == SSJ_OK &&
	       ss_key_is(p, n, s);
}

static int shape_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct shape_scan *sc = ctx;
	enum ssj_type t = ssj_value_type(v);
	const char *p;
	size_t len;

	if (ss_key_is(key, n, "endpoint_url")) {
		sc->endpoint_url = t == SSJ_STRING;
	} else if (ss_key_is(key, n, "timestamp_ns")) {
		sc->timestamp_ns = t == SSJ_NUMBER && ssj_value_number_text(v, &p, &len) == SSJ_OK &&
				   is_int_text(p, len);
	} else if (ss_key_is(key, n, "metrics")) {
		sc->metrics = t == SSJ_OBJECT;
	} else if (ss_key_is(key, n, "iter")) {
		sc->iter = true;
	} else if (ss_key_is(key, n, "specDecodingStats")) {
		sc->sds = true;
	} else if (ss_key_is(key, n, "internal_states")) {
		sc->internal_states = t == SSJ_ARRAY;
	} else if (ss_key_is(key, n, "status")) {
		sc->success = string_is(v, "success");
	} else if (ss_key_is(key, n, "data")) {
		sc->data = NULL;
		if (t == SSJ_OBJECT && ssj_value_raw_json(v, &p, &len) == SSJ_OK)
			sc->data = p, sc->data_len = len;
	}
	return 0;
}

static int rtype_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct shape_scan *sc = ctx;

	if (ss_key_is(key, n, "resultType")) {
		sc->rtype = NULL;
		if (ssj_value_type(v) == SSJ_STRING &&
		    ssj_value_string(v, &sc->rtype, &sc->rtype_len) != SSJ_OK)
			sc->rtype = NULL;
	}
	return 0;
}

static int elem_shape(void *ctx, size_t i, struct ssj_value *v)
{
	struct shape_scan *sc = ctx, one;

	(void)i;
	sc->elems++;
	memset(&one, 0, sizeof(one));
	if (ssj_value_type(v) != SSJ_OBJECT || ssj_object_foreach(v, shape_field, &one) != SSJ_OK ||
	    !one.iter) {
		sc->all_iter = false;
		return 1;
	}
	sc->any_sds |= one.sds;
	return 0;
}

static int array_elems(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct shape_scan *sc = ctx;

	(void)key, (void)n;
	if (ssj_value_type(v) != SSJ_ARRAY || ssj_array_foreach(v, elem_shape, sc) != SSJ_OK)
		sc->all_iter = false;
	return 0;
}

/* The key names that make a shape, for a look before the parse. */
static bool may_be_shape(const char *text, size_t len)
{
	static const char *const keys[] = {"endpoint_url", "specDecodingStats", "internal_states",
					   "resultType"};
	size_t i = skip_ws(text, len, 0);

	if (i < len && text[i] == '[')
		return true;
	if (memchr(text, '\\', len))
		return true; /* a key may be written with escapes */
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (memmem(text, len, keys[k], strlen(keys[k])))
			return true;
	return false;
}

static enum ss_server_shape shape_of(struct ssj_parser *p, struct ss_buf *wrap,
				       const char *text, size_t len)
{
	struct shape_scan sc;
	bool array;

	memset(&sc, 0, sizeof(sc));
	if (sj_open(p, wrap, text, len, &array) != SSJ_OK)
		return SS_SRVJ_NONE;
	if (array) {
		sc.all_iter = true;
		if (ssj_visit(p, array_elems, &sc) != SSJ_OK || !sc.all_iter ||
		    (sc.elems && !sc.any_sds))
			return SS_SRVJ_NONE;
		/* an empty array too: a poll that found no new iteration */
		return SS_SRVJ_ITERATIONS;
	}
	if (ssj_visit(p, shape_field, &sc) != SSJ_OK)
		return SS_SRVJ_NONE;
	if (sc.endpoint_url && sc.timestamp_ns && sc.metrics)
		return SS_SRVJ_AIPERF_LINE;
	if (sc.iter && sc.sds)
		return SS_SRVJ_ITERATIONS;
	if (sc.internal_states)
		return SS_SRVJ_SERVER_INFO;
	if (sc.success && sc.data &&
	    ssj_visit_span(p, sc.data, sc.data_len, rtype_field, &sc) == SSJ_OK && sc.rtype &&
	    (ss_key_is(sc.rtype, sc.rtype_len, "matrix") || ss_key_is(sc.rtype, sc.rtype_len, "vector")))
		return SS_SRVJ_PROM_API;
	return SS_SRVJ_NONE;
}

enum ss_server_shape ss_server_json_shape(const char *text, size_t len)
{
	struct ssj_parser *p;
	struct ss_buf wrap;
	enum ss_server_shape sh;

	if (!may_be_shape(text, len))
		return SS_SRVJ_NONE;
	p = ssj_parser_new();
	if (!p)
		return SS_SRVJ_NONE;
	ss_buf_init(&wrap);
	sh = shape_of(p, &wrap, text, len);
	ss_buf_release(&wrap);
	ssj_parser_free(p);
	return sh;
}

/* ---- the families of an object, each at the last place its name has ---- */


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

/* ---- the entry points ---- */

bool ss_server_json_line(struct ss_server *s, enum ss_server_shape shape, const char *dir,
			 size_t dir_len, const char *place, uint64_t line, const char *text,
			 size_t len, uint64_t *snapshots)
{
	struct sj_feed f;
	enum ssj_status st;
	bool array;

	if (snapshots)
		*snapshots = 0;
	if (shape == SS_SRVJ_NONE)
		return true;
	if (!sj_feed_init(&f, s, place, line))
		return false;
	st = sj_open(f.p, &f.wrap, text, len, &array);
	if (st == SSJ_ENOMEM) {
		f.nomem = true;
	} else if (st != SSJ_OK) {
		sj_bad(&f, "bad line", NULL, ssj_strerror(st));
	} else {
		switch (shape) {
		case SS_SRVJ_AIPERF_LINE:
			sj_aiperf_line(&f, dir, dir_len);
			break;
		case SS_SRVJ_ITERATIONS:
			sj_iterations(&f, array);
			break;
		case SS_SRVJ_SERVER_INFO:
			sj_server_info(&f);
			break;
		case SS_SRVJ_PROM_API:
			sj_prom_api(&f);
			break;
		case SS_SRVJ_NONE:
			break;
		}
	}
	if (snapshots)
		*snapshots = f.snapshots;
	sj_feed_release(&f);
	return !f.nomem;
}

bool ss_server_json_is_document_name(const char *name, size_t len)
{
	static const char suffix[] = "server_metrics_export.json";
	/* SPEC 10.8: AIPerf's Kubernetes operator stores it compressed too */
	static const char *const zs[] = {"", ".zst", ".gz", ".xz", ".bz2", ".lz4"};
	size_t n = sizeof(suffix) - 1;

	for (size_t i = 0; i < sizeof(zs) / sizeof(zs[0]); i++) {
		size_t z = strlen(zs[i]);

		if (len >= n + z && memcmp(name + len - z, zs[i], z) == 0 &&
		    memcmp(name + len - z - n, suffix, n) == 0)
			return true;
	}
	return false;
}

