/*
 * harness.c - one Spec-Bench or EAGLE answer line (SPEC 12.5).
 *
 * Spec-Bench: `accept_lengths` (integers >= 1, one per target forward,
 * every turn concatenated): S = its length, A = sum - S, H[j] = elements
 * equal to j + 1. EAGLE: `idxs` (0-based index of the last step) and
 * `new_tokens` per turn: S = sum (idxs + 1), A = sum new_tokens - S.
 * The fields come in any order: everything is gathered in one visit and
 * decided at the end.
 */
#include <math.h>
#include <string.h>

#include "logs/harness.h"

/* An array of integers (>= min) read in one pass. */
struct int_array {
	bool present, bad;
	size_t n;
	uint64_t sum;
};

struct gather {
	struct ss_harness_req *o;
	bool has_qid, has_choices, first_is_object, has_turns;
	struct int_array accept, idxs, newtok;
	bool has_wall, wall_bad;
	double wall;
	const char *len_why;
};

/* A JSON integer text: digits only, 1 to 18 of them. */
static bool int_text(struct ssj_value *v, uint64_t *out)
{
	const char *p;
	size_t n;
	bool toolong = false;

	if (ssj_value_type(v) != SSJ_NUMBER || ssj_value_number_text(v, &p, &n) != SSJ_OK)
		return false;
	return ss_log_int(p, p + n, out, &toolong) == n;
}

static int accept_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct gather *g = ctx;
	uint64_t x;

	(void)i;
	if (!int_text(v, &x) || x < 1) {
		g->accept.bad = true;
		return 1;
	}
	if (x > SS_HARNESS_MAX_LEN) {
		g->len_why = "an accepted length above 257";
		g->accept.bad = true;
		return 1;
	}
	g->o->hist[x - 1]++;
	if (x - 1 > g->o->k)
		g->o->k = (size_t)(x - 1);
	g->accept.n++;
	g->accept.sum += x;
	return 0;
}

static int plain_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct int_array *a = ctx;
	uint64_t x;

	(void)i;
	if (!int_text(v, &x) || a->sum + x < a->sum) {
		a->bad = true;
		return 1;
	}
	a->n++;
	a->sum += x;
	return 0;
}

static int wall_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct gather *g = ctx;
	double x;

	(void)i;
	if (ssj_value_type(v) != SSJ_NUMBER || ssj_value_double(v, &x) != SSJ_OK ||
	    !isfinite(x) || x < 0) {
		g->wall_bad = true;
		return 1;
	}
	g->wall += x;
	return 0;
}

static void read_array(struct ssj_value *v, struct int_array *a, ssj_elem_fn fn, void *ctx)
{
	a->present = true;
	if (ssj_value_type(v) != SSJ_ARRAY) {
		a->bad = true;
		return;
	}
	if (ssj_array_foreach(v, fn, ctx) != SSJ_OK)
		a->bad = true;
}

static int choice_field(void *ctx, const char *key, size_t kl, struct ssj_value *v)
{
	struct gather *g = ctx;

	if (kl == 5 && memcmp(key, "turns", 5) == 0) {
		g->has_turns = ssj_value_type(v) == SSJ_ARRAY;
	} else if (kl == 14 && memcmp(key, "accept_lengths", 14) == 0) {
		read_array(v, &g->accept, accept_elem, g);
	} else if (kl == 4 && memcmp(key, "idxs", 4) == 0) {
		read_array(v, &g->idxs, plain_elem, &g->idxs);
	} else if (kl == 10 && memcmp(key, "new_tokens", 10) == 0) {
		read_array(v, &g->newtok, plain_elem, &g->newtok);
	} else if (kl == 9 && memcmp(key, "wall_time", 9) == 0) {
		g->has_wall = true;
		if (ssj_value_type(v) != SSJ_ARRAY || ssj_array_foreach(v, wall_elem, g) != SSJ_OK)
			g->wall_bad = true;
	}
	return 0;
}

static int choice_elem(void *ctx, size_t i, struct ssj_value *v)
{
	struct gather *g = ctx;

	if (i != 0)
		return 1;
	if (ssj_value_type(v) != SSJ_OBJECT)
		return 1;
	g->first_is_object = true;
	ssj_object_foreach(v, choice_field, g);
	return 1; /* only the first choice is read */
}

static void raw(struct ssj_value *v, const char **p, size_t *n)
{
	if (ssj_value_raw_json(v, p, n) != SSJ_OK) {
		*p = NULL;
		*n = 0;
	}
}

static int root_field(void *ctx, const char *key, size_t kl, struct ssj_value *v)
{
	struct gather *g = ctx;
	struct ss_harness_req *o = g->o;

	if (kl == 11 && memcmp(key, "question_id", 11) == 0) {
		g->has_qid = true;
		raw(v, &o->question_id, &o->question_id_len);
	} else if (kl == 8 && memcmp(key, "category", 8) == 0) {
		raw(v, &o->category, &o->category_len);
	} else if (kl == 8 && memcmp(key, "model_id", 8) == 0) {
		if (ssj_value_type(v) == SSJ_STRING &&
		    ssj_value_raw_string(v, &o->model, &o->model_len) != SSJ_OK) {
			o->model = NULL;
			o->model_len = 0;
		}
	} else if (kl == 7 && memcmp(key, "choices", 7) == 0 && ssj_value_type(v) == SSJ_ARRAY) {
		g->has_choices = true;
		ssj_array_foreach(v, choice_elem, g);
	}
	return 0;
}

static enum ss_harness_status fail(struct ss_harness_req *o, enum ss_harness_status st,
				   const char *why)
{
	o->why = why;
	return st;
}

enum ss_harness_status ss_harness_visit(struct ssj_parser *p, struct ss_harness_req *o)
{
	struct gather g;

	memset(o, 0, sizeof(*o));
	memset(&g, 0, sizeof(g));
	g.o = o;
	if (ssj_visit(p, root_field, &g) != SSJ_OK)
		return SS_HARNESS_NOT;
	if (!g.has_qid || !g.has_choices || !g.first_is_object || !g.has_turns)
		return SS_HARNESS_NOT;
	if (g.newtok.present && !g.newtok.bad) {
		o->has_completion = true;
		o->completion_tokens = g.newtok.sum;
	}
	if (g.has_wall && !g.wall_bad) {
		o->has_latency = true;
		o->latency_s = g.wall;
	}
	if (g.accept.present) {
		o->engine = SS_HARNESS_SPEC_BENCH;
		if (g.accept.bad)
			return fail(o, SS_HARNESS_MALFORMED,
				    g.len_why ? g.len_why
					      : "accept_lengths is not an array of integers >= 1");
		if (!g.accept.n)
			return fail(o, SS_HARNESS_MALFORMED, "accept_lengths is empty");
		o->steps = g.accept.n;
		o->accepted = g.accept.sum - g.accept.n;
		o->has_hist = true;
		return SS_HARNESS_OK;
	}
	memset(o->hist, 0, sizeof(o->hist));
	o->k = 0;
	if (!g.idxs.present || !g.newtok.present)
		return fail(o, SS_HARNESS_UNRECOGNIZED,
			    "the first choice has neither accept_lengths nor idxs and new_tokens");
	o->engine = SS_HARNESS_EAGLE;
	if (g.idxs.bad || g.newtok.bad)
		return fail(o, SS_HARNESS_MALFORMED,
			    "idxs or new_tokens is not an array of integers >= 0");
	if (g.idxs.n != g.newtok.n)
		return fail(o, SS_HARNESS_MALFORMED, "idxs and new_tokens differ in length");
	o->steps = g.idxs.sum + g.idxs.n;
	if (g.newtok.sum < o->steps)
		return fail(o, SS_HARNESS_MALFORMED, "fewer new tokens than decoding steps");
	o->accepted = g.newtok.sum - o->steps;
	return SS_HARNESS_OK;
}
