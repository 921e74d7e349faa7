/*
 * server_json_aiperf.c - AIPerf's server-metrics files (SPEC 10.1, 10.5):
 * a server_metrics_export.jsonl line is one snapshot of its endpoint (the
 * input's directory and endpoint_url), each family a list of series (the
 * slim record) or an object with its `samples` list (the full record's
 * MetricFamily); the server_metrics_export.json
 * document one increment of each endpoint it names, each counter
 * series' stats.total taken as the profiling window's count.
 */
#include <stdlib.h>
#include <string.h>

#include "server/server_json_int.h"
#include "server/server_json_shapes.h"
#include "util/alloc.h"
#include "util/grow.h"

/* ---- AIPerf's server_metrics_export.jsonl line ---- */

struct aip_series {
	struct sj_labels lab;
	struct sj_value val;
};

static int aip_series_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct aip_series *as = ctx;

	if (ss_key_is(key, n, "labels"))
		sj_labels_read(&as->lab, v);
	else if (ss_key_is(key, n, "value"))
		sj_value_take(&as->val, v);
	return 0;
}

struct aip_family {
	struct sj_feed *f;
	const char *name;
	size_t nlen;
	struct ss_family_match m;
};

static int aip_series(void *ctx, size_t i, struct ssj_value *v)
{
	struct aip_family *af = ctx;
	struct aip_series as;

	(void)i;
	if (ssj_value_type(v) != SSJ_OBJECT) {
		sj_bad(af->f, "bad sample of", sj_match_name(&af->m), "a series that is not an object");
		return 0;
	}
	memset(&as, 0, sizeof(as));
	if (ssj_object_foreach(v, aip_series_field, &as) != SSJ_OK) {
		sj_bad(af->f, "bad sample of", sj_match_name(&af->m), "a series that cannot be read");
		return 0;
	}
	sj_emit(af->f, af->name, af->nlen, &af->m, &as.lab, &as.val);
	return af->f->nomem;
}

/* A family written as AIPerf's MetricFamily ({"type", "description", "samples"}), for later. */
struct aip_later {
	const char *name, *obj;
	size_t nlen, obj_len;
	struct ss_family_match m;
};

struct aip_metrics {
	struct sj_feed *f;
	struct sj_names nm;
	uint32_t ord;
	struct aip_later *later;
	size_t nlater, cap;
};

static int aip_metric(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct aip_metrics *am = ctx;
	struct aip_family af = {am->f, key, n, {0, 0, 0}};
	enum ssj_type t = ssj_value_type(v);
	const char *p;
	size_t len;

	am->ord++;
	if (!sj_family_name(SS_SRC_PROMETHEUS, key, n, &af.m) ||
	    !sj_names_is_last(&am->nm, key, n, am->ord))
		return 0;
	if (t == SSJ_OBJECT && ssj_value_raw_json(v, &p, &len) == SSJ_OK) {
		/* the full record's form: its samples are read once this visit is over */
		if (!SS_ALLOC_GROW(am->later, am->nlater + 1, am->cap)) {
			am->f->nomem = true;
			return 1;
		}
		am->later[am->nlater++] = (struct aip_later){key, p, n, len, af.m};
		return 0;
	}
	if (t != SSJ_ARRAY) {
		sj_bad(am->f, "bad sample of", sj_match_name(&af.m), "a family that is not a list of series");
		return 0;
	}
	(void)ssj_array_foreach(v, aip_series, &af);
	return am->f->nomem;
}

/* A MetricFamily object: its last `samples` list is the family's series. */
struct aip_samples {
	struct aip_family af;
	uint32_t ord, last;
};

static int aip_samples_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct aip_samples *as = ctx;

	if (!ss_key_is(key, n, "samples"))
		return 0;
	as->ord++;
	if (as->last == 0 || as->ord != as->last)
		return 0;
	if (ssj_value_type(v) != SSJ_ARRAY) {
		sj_bad(as->af.f, "bad sample of", sj_match_name(&as->af.m), "samples is not a list");
		return 0;
	}
	(void)ssj_array_foreach(v, aip_series, &as->af);
	return as->af.f->nomem;
}

static void aip_later_read(struct aip_metrics *am)
{
	for (size_t i = 0; i < am->nlater && !am->f->nomem; i++) {
		const struct aip_later *l = &am->later[i];
		struct aip_samples as = {{am->f, l->name, l->nlen, l->m}, 0, 0};

		if (ssj_visit_span(am->f->p, l->obj, l->obj_len, aip_samples_field, &as) != SSJ_OK)
			continue;
		if (as.ord == 0) {
			sj_bad(am->f, "bad sample of", sj_match_name(&l->m), "a family with no samples");
			continue;
		}
		as.last = as.ord;
		as.ord = 0;
		(void)ssj_visit_span(am->f->p, l->obj, l->obj_len, aip_samples_field, &as);
	}
}

struct aip_root {
	const char *url, *ts, *metrics;
	size_t url_len, ts_len, metrics_len;
};

static int aip_root_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct aip_root *r = ctx;

	if (ss_key_is(key, n, "endpoint_url")) {
		if (ssj_value_type(v) != SSJ_STRING || ssj_value_string(v, &r->url, &r->url_len) != SSJ_OK)
			r->url = NULL;
	} else if (ss_key_is(key, n, "timestamp_ns")) {
		if (ssj_value_type(v) != SSJ_NUMBER ||
		    ssj_value_number_text(v, &r->ts, &r->ts_len) != SSJ_OK)
			r->ts = NULL;
	} else if (ss_key_is(key, n, "metrics")) {
		if (ssj_value_type(v) != SSJ_OBJECT ||
		    ssj_value_raw_json(v, &r->metrics, &r->metrics_len) != SSJ_OK)
			r->metrics = NULL;
	}
	return 0;
}

/* The endpoint (directory, endpoint_url) of AIPerf's files (SPEC 10.5). */
static uint32_t aip_endpoint(struct sj_feed *f, const char *dir, size_t dir_len, const char *url,
			     size_t url_len)
{
	struct ss_buf key;
	uint32_t ep;

	ss_buf_init(&key);
	ss_buf_add(&key, dir, dir_len);
	ss_buf_addc(&key, '\0');
	ss_buf_add(&key, url, url_len);
	ep = key.failed ? UINT32_MAX : ss_server_endpoint(f->s, key.data, key.len);
	ss_buf_release(&key);
	if (ep == UINT32_MAX)
		f->nomem = true;
	else if (ep == SS_SERVER_ENDPOINT_FULL) /* refused (told once): a bad line */
		sj_bad(f, "bad line", NULL, "an endpoint past the limit of endpoints kept");
	return ep;
}

void sj_aiperf_line(struct sj_feed *f, const char *dir, size_t dir_len)
{
	struct aip_root r;
	struct aip_metrics am;
	int64_t t = 0;
	bool has_t;
	uint32_t ep;

	memset(&r, 0, sizeof(r));
	if (ssj_visit(f->p, aip_root_field, &r) != SSJ_OK || !r.url || !r.ts || !r.metrics) {
		sj_bad(f, "bad line", NULL, "not an AIPerf server-metrics line");
		return;
	}
	has_t = sj_int_text(r.ts, r.ts_len, &t);
	ep = aip_endpoint(f, dir, dir_len, r.url, r.url_len);
	if (ep == SS_SERVER_ENDPOINT_FULL)
		return;
	if (ep == UINT32_MAX || !ss_server_begin(f->s, ep, SS_SRC_PROMETHEUS, 0)) {
		f->nomem = true;
		return;
	}
	memset(&am, 0, sizeof(am));
	am.f = f;
	am.nm.src = SS_SRC_PROMETHEUS;
	if (ssj_visit_span(f->p, r.metrics, r.metrics_len, sj_names_pass, &am.nm) == SSJ_OK &&
	    ssj_visit_span(f->p, r.metrics, r.metrics_len, aip_metric, &am) == SSJ_OK)
		aip_later_read(&am);
	ss_free(am.later);
	/* the process is the endpoint; intervals name it by its endpoint_url (SPEC 10.3) */
	ss_server_set_process(f->s, &(struct ss_server_proc_info){.name = r.url,
								   .name_len = r.url_len});
	ss_server_end(f->s, has_t, t);
	f->snapshots++;
}

/* ---- AIPerf's server_metrics_export.json: one increment per endpoint ---- */

struct doc_entry {
	uint32_t ep, handle;
	size_t order;
	const char *v;
	size_t n;
	const char *url; /* the endpoint's endpoint_url (its process's name) */
	size_t url_len;
};

/* One timeslice of a series (SPEC 10.3, "AIPerf's timeslices"): its total's text. */
struct doc_slice {
	uint32_t ep, handle;
	int64_t start, end;
	size_t order;
	const char *v;
	size_t n;
	const char *url;
	size_t url_len;
};

struct doc_scan {
	struct sj_feed *f;
	const char *dir;
	size_t dir_len;
	struct sj_names nm;
	uint32_t ord;
	struct doc_entry *e;
	size_t ne, cap, order;
	struct doc_slice *sl;   /* the kept series' timeslices */
	size_t nsl, slcap;
	struct doc_slice *tmp;  /* the series at hand's, before it is resolved */
	size_t ntmp, tmpcap;
	/* the family at hand */
	const char *name;
	size_t nlen;
	struct ss_family_match m;
};

struct doc_series {
	struct doc_scan *d;
	size_t bad_slices;
	const char *url;
	size_t url_len;
	struct sj_labels lab;
	bool stats, stats_object;
	struct sj_value total;
};

static int doc_stats_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	if (ss_key_is(key, n, "total"))
		sj_value_take(ctx, v);
	return 0;
}

/* A timeslice's field: integer start_ns and end_ns, a number total. */
struct slice_fields {
	struct sj_value start, end, total;
};

static int slice_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct slice_fields *sf = ctx;

	if (ss_key_is(key, n, "start_ns"))
		sj_value_take(&sf->start, v);
	else if (ss_key_is(key, n, "end_ns"))
		sj_value_take(&sf->end, v);
	else if (ss_key_is(key, n, "total"))
		sj_value_take(&sf->total, v);
	return 0;
}

static int slice_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct doc_series *ds = ctx;
	struct doc_scan *d = ds->d;
	struct slice_fields sf;
	int64_t a, b;

	(void)i;
	memset(&sf, 0, sizeof(sf));
	if (ssj_value_type(v) != SSJ_OBJECT || ssj_object_foreach(v, slice_field, &sf) != SSJ_OK ||
	    sf.start.t != SSJ_NUMBER || sf.end.t != SSJ_NUMBER || sf.total.t != SSJ_NUMBER ||
	    !sj_int_text(sf.start.p, sf.start.n, &a) || !sj_int_text(sf.end.p, sf.end.n, &b)) {
		ds->bad_slices++;
		return 0;
	}
	if (!SS_ALLOC_GROW(d->tmp, d->ntmp + 1, d->tmpcap)) {
		d->f->nomem = true;
		return 1;
	}
	d->tmp[d->ntmp++] = (struct doc_slice){0, 0, a, b, 0, sf.total.p, sf.total.n, NULL, 0};
	return 0;
}

static int doc_series_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct doc_series *ds = ctx;

	if (ss_key_is(key, n, "endpoint_url")) {
		if (ssj_value_type(v) != SSJ_STRING ||
		    ssj_value_string(v, &ds->url, &ds->url_len) != SSJ_OK)
			ds->url = NULL;
	} else if (ss_key_is(key, n, "labels")) {
		sj_labels_read(&ds->lab, v);
	} else if (ss_key_is(key, n, "stats")) {
		ds->stats = true;
		memset(&ds->total, 0, sizeof(ds->total));
		ds->stats_object = ssj_value_type(v) == SSJ_OBJECT &&
				   ssj_object_foreach(v, doc_stats_field, &ds->total) == SSJ_OK;
	} else if (ss_key_is(key, n, "timeslices")) {
		ds->d->ntmp = 0; /* the last list counts */
		ds->bad_slices = 0;
		if (ssj_value_type(v) != SSJ_ARRAY)
			ds->bad_slices = 1;
		else
			(void)ssj_array_foreach(v, slice_elem, ds);
	}
	return ds->d->f->nomem;
}

/* The series' timeslices, kept with its endpoint and handle; a bad one is a bad sample. */
static void doc_slices(struct doc_scan *d, const struct doc_series *ds, uint32_t ep, uint32_t h)
{
	for (size_t i = 0; i < ds->bad_slices; i++)
		sj_bad(d->f, "bad sample of", sj_match_name(&d->m),
		       "a timeslice that is not an object with integer start_ns and end_ns and "
		       "a number total");
	for (size_t i = 0; i < d->ntmp; i++) {
		if (!SS_ALLOC_GROW(d->sl, d->nsl + 1, d->slcap)) {
			d->f->nomem = true;
			return;
		}
		d->sl[d->nsl] = d->tmp[i];
		d->sl[d->nsl].ep = ep;
		d->sl[d->nsl].handle = h;
		d->sl[d->nsl].order = d->nsl;
		d->sl[d->nsl].url = ds->url ? ds->url : "";
		d->sl[d->nsl].url_len = ds->url ? ds->url_len : 0;
		d->nsl++;
	}
}

/* One counter series of the document: its endpoint and handle kept with stats.total. */
static void doc_series(struct doc_scan *d, const struct doc_series *ds)
{
	const char *why, *reason;
	bool skip;
	uint32_t ep, h;
	enum ss_server_status st;

	if (d->m.role == SS_ROLE_GAUGE)
		return; /* the document has no last value of a gauge */
	if (ds->lab.bad) {
		sj_bad(d->f, "bad sample of", sj_match_name(&d->m), ds->lab.bad);
		return;
	}
	if (!ds->stats_object) {
		sj_bad(d->f, "bad sample of", sj_match_name(&d->m),
		       ds->stats ? "stats is not an object" : "no stats");
		return;
	}
	why = sj_value_problem(&ds->total, &d->m, &skip);
	if (why) {
		sj_bad(d->f, "bad sample of", sj_match_name(&d->m),
		       ds->total.has ? why : "no stats.total");
		return;
	}
	ep = aip_endpoint(d->f, d->dir, d->dir_len, ds->url ? ds->url : "", ds->url ? ds->url_len : 0);
	if (ep >= SS_SERVER_ENDPOINT_FULL)
		return;
	/* the value checked before a series is made: a bad one makes none */
	st = ss_server_resolve_value(d->f->s, ep, SS_SRC_PROMETHEUS, d->name, d->nlen, ds->lab.l,
				     ds->lab.n, ds->total.p, ds->total.n, &h, &reason);
	if (st != SS_SERVER_KEPT) {
		sj_sample_status(d->f, &d->m, st, reason);
		return;
	}
	if (!SS_ALLOC_GROW(d->e, d->ne + 1, d->cap)) {
		d->f->nomem = true;
		return;
	}
	d->e[d->ne++] = (struct doc_entry){ep, h, d->order++, ds->total.p, ds->total.n,
					   ds->url ? ds->url : "", ds->url ? ds->url_len : 0};
	doc_slices(d, ds, ep, h);
}

static int doc_series_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct doc_scan *d = ctx;
	struct doc_series ds;

	(void)i;
	memset(&ds, 0, sizeof(ds));
	ds.d = d;
	d->ntmp = 0;
	if (ssj_value_type(v) != SSJ_OBJECT || ssj_object_foreach(v, doc_series_field, &ds) != SSJ_OK) {
		if (d->f->nomem)
			return 1;
		sj_bad(d->f, "bad sample of", sj_match_name(&d->m), "a series that is not an object");
		return 0;
	}
	doc_series(d, &ds);
	return d->f->nomem;
}

/* A family's object: the last `series` list counts (an earlier one's entries dropped). */
struct doc_family {
	struct doc_scan *d;
	bool seen;
	size_t mark;
};

static int doc_family_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct doc_family *df = ctx;

	if (!ss_key_is(key, n, "series"))
		return 0;
	if (df->seen)
		df->d->ne = df->mark;
	df->seen = true;
	df->mark = df->d->ne;
	if (ssj_value_type(v) != SSJ_ARRAY) {
		sj_bad(df->d->f, "bad sample of", sj_match_name(&df->d->m), "series is not a list");
		return 0;
	}
	(void)ssj_array_foreach(v, doc_series_elem, df->d);
	return df->d->f->nomem;
}

static int doc_metric(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct doc_scan *d = ctx;
	struct doc_family df = {d, false, 0};

	d->ord++;
	if (!sj_family_name(SS_SRC_PROMETHEUS, key, n, &d->m) ||
	    !sj_names_is_last(&d->nm, key, n, d->ord))
		return 0;
	d->name = key;
	d->nlen = n;
	if (ssj_value_type(v) != SSJ_OBJECT) {
		sj_bad(d->f, "bad sample of", sj_match_name(&d->m), "a family that is not an object");
		return 0;
	}
	(void)ssj_object_foreach(v, doc_family_field, &df);
	return d->f->nomem;
}

static int doc_root_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct aip_root *r = ctx;

	if (ss_key_is(key, n, "metrics") &&
	    (ssj_value_type(v) != SSJ_OBJECT ||
	     ssj_value_raw_json(v, &r->metrics, &r->metrics_len) != SSJ_OK))
		r->metrics = NULL;
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct doc_entry *x = a, *y = b;

	if (x->ep != y->ep)
		return x->ep < y->ep ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The kept entries as increments, one per endpoint, in endpoint order. */
static void doc_feed(struct sj_feed *f, struct doc_entry *e, size_t ne)
{
	if (ne > 1) /* qsort wants a non-null base even for none */
		qsort(e, ne, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < ne && !f->nomem;) {
		size_t j = i;

		if (!ss_server_begin(f->s, e[i].ep, SS_SRC_PROMETHEUS, SS_SNAP_INCREMENT)) {
			f->nomem = true;
			break;
		}
		for (; j < ne && e[j].ep == e[i].ep; j++) {
			const char *reason;
			enum ss_server_status st = ss_server_put(f->s, e[j].handle, e[j].v, e[j].n, &reason);

			if (st == SS_SERVER_BAD)
				sj_bad(f, "bad sample", NULL, reason);
			else if (st == SS_SERVER_REPEAT)
				sj_bad(f, "bad sample", NULL, "the series appears twice in the document");
			else if (st == SS_SERVER_NOMEM)
				f->nomem = true;
		}
		ss_server_set_process(f->s, &(struct ss_server_proc_info){.name = e[i].url,
									   .name_len = e[i].url_len});
		ss_server_end(f->s, false, 0);
		f->snapshots++;
		i = j;
	}
}

static int slice_cmp(const void *a, const void *b)
{
	const struct doc_slice *x = a, *y = b;

	if (x->ep != y->ep)
		return x->ep < y->ep ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The timeslices as intervals: one per endpoint and distinct (start_ns, end_ns), by start. */
static void slices_feed(struct sj_feed *f, struct doc_slice *e, size_t ne)
{
	if (ne > 1)
		qsort(e, ne, sizeof(*e), slice_cmp);
	for (size_t i = 0; i < ne && !f->nomem;) {
		size_t j = i;

		if (!ss_server_begin(f->s, e[i].ep, SS_SRC_PROMETHEUS,
				     SS_SNAP_INCREMENT | SS_SNAP_SLICE)) {
			f->nomem = true;
			break;
		}
		ss_server_slice_start(f->s, e[i].start);
		for (; j < ne && e[j].ep == e[i].ep && e[j].start == e[i].start &&
		       e[j].end == e[i].end; j++) {
			const char *reason;
			enum ss_server_status st = ss_server_put(f->s, e[j].handle, e[j].v, e[j].n, &reason);

			if (st == SS_SERVER_BAD)
				sj_bad(f, "bad sample", NULL, reason);
			else if (st == SS_SERVER_REPEAT)
				sj_bad(f, "bad sample", NULL, "a timeslice appears twice in a series");
			else if (st == SS_SERVER_NOMEM)
				f->nomem = true;
		}
		ss_server_set_process(f->s, &(struct ss_server_proc_info){.name = e[i].url,
									   .name_len = e[i].url_len});
		ss_server_end(f->s, true, e[i].end);
		i = j;
	}
}

void sj_aiperf_document(struct sj_feed *f, const char *dir, size_t dir_len)
{
	struct aip_root r;
	struct doc_scan d;

	memset(&r, 0, sizeof(r));
	if (ssj_visit(f->p, doc_root_field, &r) != SSJ_OK || !r.metrics) {
		sj_bad(f, "bad document", NULL, "no metrics object");
		return;
	}
	memset(&d, 0, sizeof(d));
	d.f = f;
	d.dir = dir;
	d.dir_len = dir_len;
	d.nm.src = SS_SRC_PROMETHEUS;
	if (ssj_visit_span(f->p, r.metrics, r.metrics_len, sj_names_pass, &d.nm) == SSJ_OK)
		(void)ssj_visit_span(f->p, r.metrics, r.metrics_len, doc_metric, &d);
	if (!f->nomem)
		doc_feed(f, d.e, d.ne);
	if (!f->nomem)
		slices_feed(f, d.sl, d.nsl);
	ss_free(d.e);
	ss_free(d.sl);
	ss_free(d.tmp);
}
