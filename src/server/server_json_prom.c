/*
 * server_json_prom.c - a Prometheus server's HTTP API results (SPEC 10.1,
 * 10.3): the answer of /api/v1/query_range (a matrix: `values`) or
 * /api/v1/query (a vector: `value`), each sample `[t, "v"]` with t in Unix
 * seconds, becomes one sparse snapshot of the unnamed endpoint per
 * distinct sample time, in time order; each series (its `metric` labels,
 * `__name__` the name) is diffed over its own samples.
 *
 * The samples of the families' series are gathered first (their value
 * texts point into the open document), then sorted by time and fed: the
 * memory is a small record per sample of a known family, bounded by the
 * line, which the caller bounded (--max-record-size).
 */
#include <stdlib.h>
#include <string.h>

#include "server/server_json_int.h"
#include "server/server_json_shapes.h"
#include "util/alloc.h"
#include "util/grow.h"

struct prom_entry {
	int64_t t;
	const char *v;
	size_t n;
	size_t order;
	uint32_t handle;
	struct ss_family_match m;
};

struct prom_scan {
	struct sj_feed *f;
	uint32_t ep;
	struct prom_entry *e;
	size_t ne, cap, order;
	/* data: where its last `result` is */
	uint32_t ord, last;
	/* the series at hand: its samples are e[start..ne) */
	size_t start;
	struct sj_labels lab;
	uint64_t nbad;
	const char *bad;
};

/* One sample [t, "v"]: its time and value text. */
struct prom_sample {
	struct prom_scan *ps;
	size_t n;
	bool has_t, has_v;
	int64_t t;
	const char *v;
	size_t vn;
	const char *bad;
};

static int sample_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct prom_sample *sm = ctx;
	const char *p;
	size_t n;

	sm->n++;
	if (i == 0) {
		if (ssj_value_type(v) != SSJ_NUMBER || ssj_value_number_text(v, &p, &n) != SSJ_OK ||
		    !sj_seconds_ns(p, n, &sm->t))
			sm->bad = "a sample time that is not a Unix time in seconds";
		else
			sm->has_t = true;
	} else if (i == 1) {
		if (ssj_value_type(v) != SSJ_STRING || ssj_value_string(v, &sm->v, &sm->vn) != SSJ_OK)
			sm->bad = "a sample value that is not a string";
		else
			sm->has_v = true;
	}
	return 0;
}

/* One sample of the series at hand, kept for the snapshot of its time. */
static void sample_take(struct prom_scan *ps, struct ssj_value *v)
{
	struct prom_sample sm;

	memset(&sm, 0, sizeof(sm));
	sm.ps = ps;
	if (ssj_value_type(v) != SSJ_ARRAY || ssj_array_foreach(v, sample_elem, &sm) != SSJ_OK ||
	    (!sm.bad && sm.n != 2))
		sm.bad = "a sample that is not [time, \"value\"]";
	if (sm.bad) {
		ps->nbad++;
		ps->bad = sm.bad;
		return;
	}
	if (!SS_ALLOC_GROW(ps->e, ps->ne + 1, ps->cap)) {
		ps->f->nomem = true;
		return;
	}
	ps->e[ps->ne++] = (struct prom_entry){sm.t, sm.v, sm.vn, ps->order++, SS_SERVER_NO_HANDLE,
					      {0, 0, 0}};
}

static int values_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct prom_scan *ps = ctx;

	(void)i;
	sample_take(ps, v);
	return ps->f->nomem;
}

static int series_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct prom_scan *ps = ctx;

	if (ss_key_is(key, n, "metric")) {
		sj_labels_read(&ps->lab, v);
		return 0;
	}
	if (!ss_key_is(key, n, "values") && !ss_key_is(key, n, "value"))
		return 0;
	/* the last of `values` / `value` counts: an earlier one's samples go */
	ps->ne = ps->start;
	ps->nbad = 0;
	ps->bad = NULL;
	if (n == 5) {
		sample_take(ps, v);
	} else if (ssj_value_type(v) != SSJ_ARRAY) {
		ps->nbad = 1;
		ps->bad = "values that are not a list of samples";
	} else {
		(void)ssj_array_foreach(v, values_elem, ps);
	}
	return ps->f->nomem;
}

/* A series gone through: its name found, its samples given its handle or dropped. */
static void series_done(struct prom_scan *ps)
{
	struct sj_labels *l = &ps->lab;
	struct ss_family_match m;
	const char *name = NULL, *reason;
	size_t nlen = 0;
	uint32_t h;
	enum ss_server_status st;

	for (size_t i = 0; i < l->n && !l->bad; i++)
		if (ss_key_is(l->l[i].name, l->l[i].name_len, "__name__")) {
			name = l->l[i].value;
			nlen = l->l[i].value_len;
			l->l[i] = l->l[--l->n];
			break;
		}
	if (!name || !sj_family_name(SS_SRC_PROMETHEUS, name, nlen, &m)) {
		ps->ne = ps->start; /* no family's: neither kept nor checked */
		return;
	}
	for (uint64_t i = 0; i < ps->nbad; i++)
		sj_bad(ps->f, "bad sample of", sj_match_name(&m), ps->bad);
	if (l->bad) {
		sj_bad(ps->f, "bad sample of", sj_match_name(&m), l->bad);
		ps->ne = ps->start;
		return;
	}
	st = ss_server_resolve(ps->f->s, ps->ep, SS_SRC_PROMETHEUS, name, nlen, l->l, l->n, &h,
			       &reason);
	if (st != SS_SERVER_KEPT) {
		sj_sample_status(ps->f, &m, st, reason);
		ps->ne = ps->start;
		return;
	}
	for (size_t i = ps->start; i < ps->ne; i++) {
		ps->e[i].handle = h;
		ps->e[i].m = m;
	}
}

static int result_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct prom_scan *ps = ctx;

	(void)i;
	ps->start = ps->ne;
	ps->nbad = 0;
	ps->bad = NULL;
	memset(&ps->lab, 0, sizeof(ps->lab));
	if (ssj_value_type(v) != SSJ_OBJECT || ssj_object_foreach(v, series_field, ps) != SSJ_OK) {
		ps->ne = ps->start;
		sj_bad(ps->f, "bad series", NULL, "a result that is not an object");
		return ps->f->nomem;
	}
	if (!ps->f->nomem)
		series_done(ps);
	return ps->f->nomem;
}

static int data_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct prom_scan *ps = ctx;

	if (!ss_key_is(key, n, "result"))
		return 0;
	ps->ord++;
	if (ps->last == 0 || ps->ord != ps->last)
		return 0; /* the first pass, or not the last `result` */
	if (ssj_value_type(v) != SSJ_ARRAY) {
		sj_bad(ps->f, "bad line", NULL, "data.result is not a list");
		return 0;
	}
	(void)ssj_array_foreach(v, result_elem, ps);
	return ps->f->nomem;
}

static int root_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct ss_span *d = ctx;

	if (ss_key_is(key, n, "data") &&
	    (ssj_value_type(v) != SSJ_OBJECT || ssj_value_raw_json(v, &d->p, &d->n) != SSJ_OK))
		d->p = NULL;
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct prom_entry *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The kept samples as snapshots, one per distinct time, in time order. */
static void feed(struct prom_scan *ps)
{
	struct sj_feed *f = ps->f;
	struct prom_entry *e = ps->e;

	if (ps->ne > 1) /* qsort wants a non-null base even for none */
		qsort(e, ps->ne, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < ps->ne && !f->nomem;) {
		size_t j = i;

		if (!ss_server_begin(f->s, ps->ep, SS_SRC_PROMETHEUS, SS_SNAP_SPARSE)) {
			f->nomem = true;
			break;
		}
		for (; j < ps->ne && e[j].t == e[i].t; j++) {
			const char *reason;
			enum ss_server_status st = ss_server_put(f->s, e[j].handle, e[j].v, e[j].n, &reason);

			if (st == SS_SERVER_REPEAT)
				sj_bad(f, "bad sample of", sj_match_name(&e[j].m),
				       "two samples of one series at one time");
			else
				sj_sample_status(f, &e[j].m, st, reason);
		}
		/* SPEC 13: the API results of a run are one process of their own */
		ss_server_set_process(f->s, &(struct ss_server_proc_info){.space = 1});
		ss_server_end(f->s, true, e[i].t);
		f->snapshots++;
		i = j;
	}
}

void sj_prom_api(struct sj_feed *f)
{
	struct prom_scan ps;
	struct ss_span data = {NULL, 0};

	memset(&ps, 0, sizeof(ps));
	ps.f = f;
	ps.ep = ss_server_endpoint(f->s, "", 0);
	if (ps.ep == UINT32_MAX) {
		f->nomem = true;
		return;
	}
	if (ssj_visit(f->p, root_field, &data) != SSJ_OK || !data.p) {
		sj_bad(f, "bad line", NULL, "no data object");
		return;
	}
	if (ssj_visit_span(f->p, data.p, data.n, data_field, &ps) != SSJ_OK || ps.ord == 0) {
		sj_bad(f, "bad line", NULL, "no data.result");
		return;
	}
	ps.last = ps.ord;
	ps.ord = 0;
	(void)ssj_visit_span(f->p, data.p, data.n, data_field, &ps);
	if (!f->nomem)
		feed(&ps);
	ss_free(ps.e);
}
