#include "metrics/poshist.h"

#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

const char *const ss_pos_excl_names[SS_PX_COUNT] = {
	[SS_PX_NO_HISTOGRAM] = "no_histogram",
	[SS_PX_NO_K] = "no_k",
	[SS_PX_K_TOO_LARGE] = "k_too_large",
	[SS_PX_KEY_ABOVE_K] = "key_above_k",
};

void ss_positions_init(struct ss_positions *p)
{
	memset(p, 0, sizeof(*p));
}

void ss_positions_release(struct ss_positions *p)
{
	for (size_t i = 0; i < p->nk; i++)
		ss_free(p->ks[i].h);
	ss_free(p->ks);
	ss_positions_init(p);
}

/* The entry of k, inserted in ascending place when new; NULL when out of memory. */
static struct ss_pos_k *entry_of(struct ss_positions *p, uint32_t k)
{
	size_t lo = 0, hi = p->nk;
	unsigned __int128 *h;

	/* Runs usually have one k: the last one found is checked first by the caller. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ks[mid].k == k)
			return &p->ks[mid];
		if (p->ks[mid].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!SS_ALLOC_GROW(p->ks, p->nk + 1, p->cap))
		return NULL;
	h = ss_calloc((size_t)k + 1, sizeof(*h));
	if (!h)
		return NULL;
	memmove(&p->ks[lo + 1], &p->ks[lo], (p->nk - lo) * sizeof(*p->ks));
	p->ks[lo].k = k;
	p->ks[lo].requests = 0;
	p->ks[lo].h = h;
	p->nk++;
	return &p->ks[lo];
}

bool ss_positions_add(struct ss_positions *p, const int64_t *hist, size_t hist_len, bool has_k,
		      int64_t k)
{
	size_t top = hist_len; /* one past the largest key with a count */
	struct ss_pos_k *e;

	while (top > 0 && hist[top - 1] == 0)
		top--;
	if (top == 0) {
		p->excluded[SS_PX_NO_HISTOGRAM]++;
		return true;
	}
	if (!has_k) {
		p->excluded[SS_PX_NO_K]++;
		return true;
	}
	if (k < 0 || k > SS_POS_MAX_K) {
		p->excluded[SS_PX_K_TOO_LARGE]++;
		return true;
	}
	if (top - 1 > (size_t)k) {
		p->excluded[SS_PX_KEY_ABOVE_K]++;
		return true;
	}
	e = entry_of(p, (uint32_t)k);
	if (!e)
		return false;
	e->requests++;
	for (size_t j = 0; j < top; j++)
		e->h[j] += (unsigned __int128)hist[j];
	return true;
}
