/*
 * server_json.c - SPEC 10.1's JSON shapes, the top of server_json*.c:
 * which shape a line is, and the entry points that open a line or
 * AIPerf's document once and hand it to its shape (server_json_aiperf.c,
 * _engines.c, _prom.c: server_json_shapes.h), which share the base layer
 * below them (server_json_util.c: server_json_int.h). The shapes and the
 * base never call this file.
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
#include "server/server_json_shapes.h"

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

/* The key names that make a shape, for a look before the parse. */
static bool may_be_shape(const char *text, size_t len)
{
	static const char *const keys[] = {"endpoint_url", "specDecodingStats", "internal_states",
					   "resultType"};

	if (sj_array_text(text, len))
		return true;
	if (memchr(text, '\\', len))
		return true; /* a key may be written with escapes */
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (memmem(text, len, keys[k], strlen(keys[k])))
			return true;
	return false;
}

/*
 * The shape of the document open on p (its root an array when `array`):
 * decided from the open document, nothing parsed again. *st: the root
 * visit's status (SSJ_EINTERNAL: nothing open on p).
 */
static enum ss_server_shape shape_open(struct ssj_parser *p, bool array, enum ssj_status *st)
{
	struct shape_scan sc;

	memset(&sc, 0, sizeof(sc));
	if (array) {
		sc.all_iter = true;
		*st = ssj_visit_array(p, elem_shape, &sc);
		if (*st != SSJ_OK || !sc.all_iter || (sc.elems && !sc.any_sds))
			return SS_SRVJ_NONE;
		/* an empty array too: a poll that found no new iteration */
		return SS_SRVJ_ITERATIONS;
	}
	*st = ssj_visit(p, shape_field, &sc);
	if (*st != SSJ_OK)
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
	enum ss_server_shape sh = SS_SRVJ_NONE;
	enum ssj_status st;
	bool array;

	if (!may_be_shape(text, len))
		return SS_SRVJ_NONE;
	p = ssj_parser_new();
	if (!p)
		return SS_SRVJ_NONE;
	if (sj_open(p, text, len, &array) == SSJ_OK)
		sh = shape_open(p, array, &st);
	ssj_parser_free(p);
	return sh;
}

bool ss_server_json_shape_open(struct ssj_parser *p, const char *text, size_t len,
			       enum ss_server_shape *shape)
{
	enum ssj_status st;

	*shape = SS_SRVJ_NONE;
	if (!may_be_shape(text, len))
		return true;
	if (sj_array_text(text, len))
		return false; /* ssj_open() opens no array: the caller's parser has none */
	*shape = shape_open(p, false, &st);
	return st != SSJ_EINTERNAL;
}

/* ---- the entry points ---- */

/* The line open on f->p, of the given shape, into f->s. */
static void feed_shape(struct sj_feed *f, enum ss_server_shape shape, bool array,
		       const char *dir, size_t dir_len)
{
	switch (shape) {
	case SS_SRVJ_AIPERF_LINE:
		sj_aiperf_line(f, dir, dir_len);
		break;
	case SS_SRVJ_ITERATIONS:
		sj_iterations(f, array);
		break;
	case SS_SRVJ_SERVER_INFO:
		sj_server_info(f);
		break;
	case SS_SRVJ_PROM_API:
		sj_prom_api(f);
		break;
	case SS_SRVJ_NONE:
		break;
	}
}

bool ss_server_json_line_pair(struct ssj_parser *p, struct ss_server *s, struct ss_server *g,
			      enum ss_server_shape shape, const char *dir, size_t dir_len,
			      const char *place, uint64_t line, const char *text, size_t len,
			      uint64_t *snapshots)
{
	struct sj_feed f;
	enum ssj_status st;
	uint64_t n = 0;
	bool array;

	if (snapshots)
		*snapshots = 0;
	if (shape == SS_SRVJ_NONE)
		return true;
	if (!sj_feed_init(&f, s, p, place, line))
		return false;
	/* opened once, in place; each state reads the one open document */
	st = sj_open(f.p, text, len, &array);
	if (st == SSJ_ENOMEM) {
		f.nomem = true;
	} else if (st != SSJ_OK) {
		sj_bad(&f, "bad line", NULL, ssj_strerror(st));
		if (g) {
			f.s = g;
			sj_bad(&f, "bad line", NULL, ssj_strerror(st));
		}
	} else {
		feed_shape(&f, shape, array, dir, dir_len);
		n = f.snapshots;
		if (g && !f.nomem) {
			f.s = g;
			feed_shape(&f, shape, array, dir, dir_len);
		}
	}
	if (snapshots)
		*snapshots = n;
	sj_feed_release(&f);
	return !f.nomem;
}

bool ss_server_json_line(struct ss_server *s, enum ss_server_shape shape, const char *dir,
			 size_t dir_len, const char *place, uint64_t line, const char *text,
			 size_t len, uint64_t *snapshots)
{
	return ss_server_json_line_pair(NULL, s, NULL, shape, dir, dir_len, place, line, text, len,
					snapshots);
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

bool ss_server_json_document(struct ss_server *s, const char *dir, size_t dir_len,
			     const char *place, const char *text, size_t len,
			     uint64_t *snapshots)
{
	struct sj_feed f;
	enum ssj_status st;

	if (snapshots)
		*snapshots = 0;
	if (!sj_feed_init(&f, s, NULL, place, 1))
		return false;
	st = ssj_open(f.p, text, len);
	if (st == SSJ_ENOMEM)
		f.nomem = true;
	else if (st != SSJ_OK)
		sj_bad(&f, "bad document", NULL, ssj_strerror(st));
	else
		sj_aiperf_document(&f, dir, dir_len);
	if (snapshots)
		*snapshots = f.snapshots;
	sj_feed_release(&f);
	return !f.nomem;
}
