#include "analysis/positions.h"

#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"

void ss_pos_result_release(struct ss_pos_result *r)
{
	ss_free(r->pos);
	ss_free(r->what_if);
	memset(r, 0, sizeof(*r));
}

const char *ss_cost_source_name(enum ss_cost_source s)
{
	switch (s) {
	case SS_COST_GIVEN:
		return "given";
	case SS_COST_MEASURED:
		return "measured";
	case SS_COST_NONE:
		break;
	}
	return NULL;
}

bool ss_pos_compute(const struct ss_pos_k *pk, bool has_cost, double cost,
		    struct ss_pos_result *out)
{
	return ss_pos_compute_cost(pk, has_cost ? SS_COST_GIVEN : SS_COST_NONE, cost, out);
}

bool ss_pos_compute_cost(const struct ss_pos_k *pk, enum ss_cost_source source, double cost,
			 struct ss_pos_result *out)
{
	bool has_cost = source != SS_COST_NONE;
	uint32_t k = pk->k;
	unsigned __int128 s0 = 0, prev, a = 0;
	double best = 0.0;

	memset(out, 0, sizeof(*out));
	out->k = k;
	out->requests = pk->requests;
	out->has_cost = has_cost;
	out->cost_source = source;
	out->draft_cost = cost;
	if (k > 0) {
		out->pos = ss_calloc(k, sizeof(*out->pos));
		out->what_if = ss_calloc(k, sizeof(*out->what_if));
		if (!out->pos || !out->what_if) {
			ss_pos_result_release(out);
			return false;
		}
	}
	for (uint32_t j = 0; j <= k; j++)
		s0 += pk->h[j];
	out->steps = s0;
	out->defined = s0 > 0;

	/* S_i = S_{i-1} - H[i-1]: the steps that accepted at least i drafts. */
	prev = s0;
	for (uint32_t i = 1; i <= k; i++) {
		struct ss_pos_row *row = &out->pos[i - 1];
		unsigned __int128 si = prev - pk->h[i - 1];

		row->accepted = si;
		row->rate = ss_ratio(si, s0);
		row->has_conditional = prev > 0;
		row->conditional = ss_ratio(si, prev);
		prev = si;
	}
	if (!out->defined)
		return true;

	for (uint32_t kk = 1; kk <= k; kk++) {
		struct ss_whatif_row *w = &out->what_if[kk - 1];

		a += out->pos[kk - 1].accepted;
		w->acceptance_length = 1.0 + ss_ratio(a, s0);
		w->draft_acceptance_rate = ss_ratio(a, (unsigned __int128)kk * s0) * 100.0;
		if (has_cost && 1.0 + cost * (double)kk > 0.0) {
			w->has_speedup = true;
			w->speedup = w->acceptance_length / (1.0 + cost * (double)kk);
			/* strictly larger: the smallest k' wins a tie */
			if (w->speedup > 1.0 && w->speedup > best) {
				best = w->speedup;
				out->suggested_k = kk;
			}
		}
	}
	/* A(k) over S_0: the same one division as the token-weighted length. */
	out->acceptance_length = 1.0 + ss_ratio(a, s0);
	return true;
}

void ss_drafted_result_release(struct ss_drafted_result *r)
{
	ss_free(r->rows);
	memset(r, 0, sizeof(*r));
}

bool ss_drafted_compute(const struct ss_drafted *p, struct ss_drafted_result *out)
{
	unsigned __int128 d_i = 0, s_i = 0, prev;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	/* SPEC 13 (7.9): present once a record had the data, consistent or not */
	if (p->requests == 0 && p->inconsistent == 0)
		return true;
	out->present = true;
	out->requests = p->requests;
	for (size_t d = 0; d < p->len; d++) {
		out->steps += p->by_drafted[d];
		if (d > 0 && p->by_drafted[d])
			n = d;  /* D_d > 0 for every d up to the largest drafted length */
	}
	if (n) {
		out->rows = ss_calloc(n, sizeof(*out->rows));
		if (!out->rows)
			return false;
	}
	out->n = n;
	/* Suffix sums, from the top: D_i = sum over d >= i, S_i over j >= i. */
	for (size_t i = p->len; i-- > 1;) {
		d_i += p->by_drafted[i];
		s_i += p->by_accepted[i];
		if (i <= n) {
			out->rows[i - 1].drafted = d_i;
			out->rows[i - 1].accepted = s_i;
		}
	}
	prev = out->steps;
	for (size_t i = 1; i <= n; i++) {
		struct ss_drafted_row *row = &out->rows[i - 1];

		row->has_rate = row->drafted > 0;
		row->rate = ss_ratio(row->accepted, row->drafted);
		row->has_conditional = prev > 0;
		row->conditional = ss_ratio(row->accepted, prev);
		prev = row->accepted;
	}
	return true;
}
