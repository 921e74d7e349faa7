/*
 * server_json_engines.c - the engines' own JSON statistics (SPEC 10.1,
 * 10.2): TensorRT-LLM's iteration statistics (an increment per iteration
 * that has specDecodingStats) and SGLang's get_server_info (one snapshot,
 * each internal state a series of its own, labelled by its index).
 */
#include <string.h>

#include "server/server_json_int.h"
#include "server/server_json_shapes.h"
#include "util/alloc.h"
#include "util/grow.h"

/* ---- TensorRT-LLM's iteration statistics: one increment per iteration ---- */

/* The family's counters of one statistics object, the last of each counting. */
struct counters_scan {
	enum ss_server_source src;
	struct sj_value v[SS_ROLE_SCALARS];
	struct ss_family_match m[SS_ROLE_SCALARS];
	/* SGLang: the tensor-parallel rank, when the state names one */
	const char *tp;
	size_t tp_len;
};

static int counters_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct counters_scan *cs = ctx;
	struct ss_family_match m;

	if (cs->src == SS_SRC_SERVER_INFO && ss_key_is(key, n, "tp_rank")) {
		enum ssj_type t = ssj_value_type(v);

		cs->tp = NULL;
		if ((t == SSJ_STRING && ssj_value_string(v, &cs->tp, &cs->tp_len) != SSJ_OK) ||
		    (t == SSJ_NUMBER && ssj_value_number_text(v, &cs->tp, &cs->tp_len) != SSJ_OK))
			cs->tp = NULL;
		return 0;
	}
	if (!ss_family_lookup(cs->src, key, n, &m) || m.role >= SS_ROLE_SCALARS)
		return 0;
	cs->m[m.role] = m;
	sj_value_take(&cs->v[m.role], v);
	return 0;
}

/* Each counter the scan found, as a sample of the open snapshot. */
static void counters_emit(struct sj_feed *f, const struct counters_scan *cs,
			  const struct sj_labels *lab)
{
	for (int role = 0; role < SS_ROLE_SCALARS; role++) {
		const char *name;

		if (!cs->v[role].has)
			continue;
		name = sj_match_name(&cs->m[role]);
		sj_emit(f, name, strlen(name), &cs->m[role], lab, &cs->v[role]);
	}
}

/* The specDecodingStats of iterations, as their objects' texts, in order. */
struct iter_scan {
	struct sj_feed *f;
	struct ss_span *sds;
	size_t nsds, cap;
	/* the element being gone through */
	bool has, null, bad;
	const char *p;
	size_t n;
};

static int iter_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct iter_scan *is = ctx;
	enum ssj_type t;

	if (!ss_key_is(key, n, "specDecodingStats"))
		return 0;
	t = ssj_value_type(v);
	is->has = true;
	is->null = t == SSJ_NULL;
	is->bad = !is->null && (t != SSJ_OBJECT || ssj_value_raw_json(v, &is->p, &is->n) != SSJ_OK);
	return 0;
}

/* One iteration object: its statistics' text kept for the increments. */
static void iter_object(struct iter_scan *is, struct ssj_value *v)
{
	is->has = is->null = is->bad = false;
	if (ssj_value_type(v) != SSJ_OBJECT || ssj_object_foreach(v, iter_field, is) != SSJ_OK) {
		sj_bad(is->f, "bad iteration", NULL, "an iteration that is not an object");
		return;
	}
	if (!is->has || is->null)
		return; /* an iteration without speculative decoding */
	if (is->bad) {
		sj_bad(is->f, "bad iteration", NULL, "specDecodingStats is not an object");
		return;
	}
	if (!SS_ALLOC_GROW(is->sds, is->nsds + 1, is->cap)) {
		is->f->nomem = true;
		return;
	}
	is->sds[is->nsds].p = is->p;
	is->sds[is->nsds++].n = is->n;
}

static int iter_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct iter_scan *is = ctx;

	(void)i;
	iter_object(is, v);
	return is->f->nomem;
}

void sj_iterations(struct sj_feed *f, bool array)
{
	struct iter_scan is;
	struct sj_labels none;
	uint32_t ep = ss_server_endpoint(f->s, "", 0);

	memset(&is, 0, sizeof(is));
	memset(&none, 0, sizeof(none));
	is.f = f;
	if (ep == UINT32_MAX) {
		f->nomem = true;
		return;
	}
	if (array) {
		(void)ssj_visit_array(f->p, iter_elem, &is);
	} else if (ssj_visit(f->p, iter_field, &is) == SSJ_OK && is.has && !is.null) {
		if (is.bad)
			sj_bad(f, "bad iteration", NULL, "specDecodingStats is not an object");
		else if (SS_ALLOC_GROW(is.sds, 1, is.cap))
			is.sds[is.nsds++] = (struct ss_span){is.p, is.n};
		else
			f->nomem = true;
	}
	for (size_t i = 0; i < is.nsds && !f->nomem; i++) {
		struct counters_scan cs;

		memset(&cs, 0, sizeof(cs));
		cs.src = SS_SRC_ITERATIONS;
		if (ssj_visit_span(f->p, is.sds[i].p, is.sds[i].n, counters_field, &cs) != SSJ_OK)
			continue;
		if (!ss_server_begin(f->s, ep, SS_SRC_ITERATIONS, SS_SNAP_INCREMENT)) {
			f->nomem = true;
			break;
		}
		counters_emit(f, &cs, &none);
		ss_server_end(f->s, false, 0);
		f->snapshots++;
	}
	ss_free(is.sds);
}

/* ---- SGLang's get_server_info: one snapshot, a series per internal state ---- */

struct info_scan {
	struct sj_feed *f;
	uint32_t ord, last;
};

static int info_state(void *ctx, size_t i, struct ssj_value *v)
{
	struct info_scan *in = ctx;
	struct counters_scan cs;
	struct sj_labels lab;
	char idx[24];

	if (ssj_value_type(v) != SSJ_OBJECT) {
		sj_bad(in->f, "bad server info", NULL, "an internal state that is not an object");
		return 0;
	}
	memset(&cs, 0, sizeof(cs));
	cs.src = SS_SRC_SERVER_INFO;
	if (ssj_object_foreach(v, counters_field, &cs) != SSJ_OK)
		return 0;
	/* each state (a data-parallel rank) is a series of its own */
	memset(&lab, 0, sizeof(lab));
	snprintf(idx, sizeof(idx), "%zu", i);
	sj_labels_put(&lab, "internal_state", 14, idx, strlen(idx));
	if (cs.tp)
		sj_labels_put(&lab, "tp_rank", 7, cs.tp, cs.tp_len);
	counters_emit(in->f, &cs, &lab);
	return in->f->nomem;
}

static int info_root(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct info_scan *in = ctx;

	if (!ss_key_is(key, n, "internal_states"))
		return 0;
	in->ord++;
	if (in->last == 0) /* the first pass: where the last one is */
		return 0;
	if (in->ord == in->last && ssj_value_type(v) == SSJ_ARRAY)
		(void)ssj_array_foreach(v, info_state, in);
	return 0;
}

void sj_server_info(struct sj_feed *f)
{
	struct info_scan in = {f, 0, 0};
	uint32_t ep = ss_server_endpoint(f->s, "", 0);

	if (ep == UINT32_MAX || !ss_server_begin(f->s, ep, SS_SRC_SERVER_INFO, 0)) {
		f->nomem = true;
		return;
	}
	if (ssj_visit(f->p, info_root, &in) == SSJ_OK && in.ord) {
		in.last = in.ord;
		in.ord = 0;
		(void)ssj_visit(f->p, info_root, &in);
	}
	ss_server_end(f->s, false, 0);
	f->snapshots++;
}

