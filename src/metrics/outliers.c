/*
 * outliers.c - bounded lists of the lowest and highest acceptance
 * lengths (SPEC 7.11).
 */
#include "metrics/outliers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

void ss_outliers_init(struct ss_outliers *s)
{
	memset(s, 0, sizeof(*s));
}

static void entry_free(struct ss_outlier *e)
{
	ss_free(e->input);
	ss_free(e->model);
	e->input = e->model = NULL;
}

void ss_outliers_release(struct ss_outliers *s)
{
	for (size_t i = 0; i < s->nlow; i++)
		entry_free(&s->low[i]);
	for (size_t i = 0; i < s->nhigh; i++)
		entry_free(&s->high[i]);
	ss_free(s->low);
	ss_free(s->high);
	ss_outliers_init(s);
}

bool ss_outliers_keep(struct ss_outliers *s, size_t n)
{
	s->low = ss_calloc(n, sizeof(*s->low));
	s->high = ss_calloc(n, sizeof(*s->high));
	if (!s->low || !s->high) {
		ss_free(s->low);
		ss_free(s->high);
		s->low = s->high = NULL;
		return false;
	}
	s->n = n;
	return true;
}

/*
 * Whether x would be dropped before y. In the lowest list a larger value
 * goes first, in the highest a smaller one; on a tie the later record.
 */
static bool worse(bool high, const struct ss_outlier *x, const struct ss_outlier *y)
{
	if (x->al != y->al)
		return high ? x->al < y->al : x->al > y->al;
	return x->seq > y->seq;
}

/* Restore the heap below index i (the worst entry at the root). */
static void sift_down(struct ss_outlier *h, size_t n, size_t i, bool high)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct ss_outlier t;

		if (l < n && worse(high, &h[l], &h[m]))
			m = l;
		if (r < n && worse(high, &h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct ss_outlier *h, size_t i, bool high)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct ss_outlier t;

		if (!worse(high, &h[i], &h[p]))
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

static bool fill(struct ss_outlier *e, const struct ss_outlier_in *x, uint64_t seq)
{
	memset(e, 0, sizeof(*e));
	e->al = x->al;
	e->seq = seq;
	e->line = x->line;
	e->steps = x->steps;
	e->has_completion = x->has_completion;
	e->completion_tokens = x->completion_tokens;
	e->has_prompt = x->has_prompt;
	e->prompt_tokens = x->prompt_tokens;
	if (x->input && !(e->input = ss_strdup(x->input)))
		return false;
	if (x->model && !(e->model = ss_strndup(x->model, x->model_len))) {
		entry_free(e);
		return false;
	}
	return true;
}

/* Offer the record to one list. */
static bool offer(struct ss_outlier *h, size_t *n, size_t cap, bool high,
		  const struct ss_outlier_in *x, uint64_t seq)
{
	struct ss_outlier probe;

	if (*n < cap) {
		if (!fill(&h[*n], x, seq))
			return false;
		sift_up(h, (*n)++, high);
		return true;
	}
	/* a later record beats the root only with a strictly better value */
	probe.al = x->al;
	probe.seq = seq;
	if (!worse(high, &h[0], &probe))
		return true;
	entry_free(&h[0]);
	if (!fill(&h[0], x, seq))
		return false;
	sift_down(h, *n, 0, high);
	return true;
}

/* The lists back into heaps, when records come after a finish. */
static void reheap(struct ss_outliers *s)
{
	for (size_t i = s->nlow / 2; i-- > 0;)
		sift_down(s->low, s->nlow, i, false);
	for (size_t i = s->nhigh / 2; i-- > 0;)
		sift_down(s->high, s->nhigh, i, true);
	s->sorted = false;
}

bool ss_outliers_add(struct ss_outliers *s, const struct ss_outlier_in *x)
{
	uint64_t seq = s->seq;

	if (s->sorted)
		reheap(s);
	ss_outliers_count(s, x->steps, x->accepted, x->all_accepted);
	if (s->n == 0 || isnan(x->al))
		return true;
	return offer(s->low, &s->nlow, s->n, false, x, seq) &&
	       offer(s->high, &s->nhigh, s->n, true, x, seq);
}

static int cmp_low(const void *a, const void *b)
{
	const struct ss_outlier *x = a, *y = b;

	return worse(false, x, y) ? 1 : worse(false, y, x) ? -1 : 0;
}

static int cmp_high(const void *a, const void *b)
{
	const struct ss_outlier *x = a, *y = b;

	return worse(true, x, y) ? 1 : worse(true, y, x) ? -1 : 0;
}

void ss_outliers_finish(struct ss_outliers *s)
{
	if (s->sorted)
		return;
	if (s->nlow)
		qsort(s->low, s->nlow, sizeof(*s->low), cmp_low);
	if (s->nhigh)
		qsort(s->high, s->nhigh, sizeof(*s->high), cmp_high);
	s->sorted = true;
}
