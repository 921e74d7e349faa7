#include "metrics/samples.h"

#include <string.h>
#include <sys/mman.h>

#include "util/alloc.h"

_Static_assert(sizeof(struct ss_sample_rec32) == 32, "two samples per cache line");

void ss_samples_init(struct ss_samples *s)
{
	memset(s, 0, sizeof(*s));
}

void ss_samples_release(struct ss_samples *s)
{
	ss_free(s->base);
	ss_samples_init(s);
}

static size_t rec_size(bool wide)
{
	return wide ? sizeof(struct ss_sample_rec64) : sizeof(struct ss_sample_rec32);
}

/*
 * A resample reads one random sample per draw: over a few million samples
 * nearly every read misses the TLB with 4 KiB pages. So a large store is
 * 2 MiB aligned and asks for transparent huge pages (a hint; without them
 * it is only slower).
 */
#define HUGE_PAGE ((size_t)2 << 20)

/*
 * A new store of `cap` records of `size` bytes holding the first n of the
 * old one. Not SS_ALLOC_GROW: the store is aligned (a realloc would lose
 * the alignment) and may change layout as it grows.
 */
static bool regrow(struct ss_samples *s, size_t cap, bool wide)
{
	size_t size = rec_size(wide), align = cap * size >= 2 * HUGE_PAGE ? HUGE_PAGE : 64;
	char *base, *recs;

	if (cap > (SIZE_MAX - HUGE_PAGE) / size)
		return false;
	base = ss_malloc(cap * size + align);
	if (!base)
		return false;
	recs = base + (align - (uintptr_t)base % align) % align;
#ifdef MADV_HUGEPAGE
	if (align == HUGE_PAGE)
		(void)madvise(recs, cap * size / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
	if (wide && !s->wide) {
		/* once, when a count outgrows 32 bits */
		const struct ss_sample_rec32 *r = s->recs;
		struct ss_sample_rec64 *w = (struct ss_sample_rec64 *)recs;

		for (size_t i = 0; i < s->n; i++) {
			w[i].al = r[i].al;
			w[i].dar = r[i].dar;
			w[i].accepted = r[i].accepted;
			w[i].drafted = r[i].drafted;
			w[i].steps = r[i].steps;
			w[i].flags = r[i].flags;
		}
	} else if (s->n) {
		memcpy(recs, s->recs, s->n * size);
	}
	ss_free(s->base);
	s->base = base;
	s->recs = recs;
	s->cap = cap;
	s->wide = wide;
	return true;
}

bool ss_samples_add(struct ss_samples *s, const struct ss_sample *x)
{
	uint64_t acc = x->accepted > 0 ? (uint64_t)x->accepted : 0;
	uint64_t dr = x->drafted > 0 ? (uint64_t)x->drafted : 0;
	uint64_t st = x->has_steps && x->steps > 0 ? (uint64_t)x->steps : 0;
	unsigned flags = (x->has_al ? SS_SAMPLE_AL : 0) | (x->has_dar ? SS_SAMPLE_DAR : 0) |
			 (x->has_steps ? SS_SAMPLE_STEPS : 0);

	/*
	 * The 32-bit layout also needs n < 2^32, so that its 64-bit sums of
	 * n counts below 2^32 cannot overflow.
	 */
	if (!s->wide && (acc > UINT32_MAX || dr > UINT32_MAX || st > UINT32_MAX ||
			 s->n >= UINT32_MAX))
		if (!regrow(s, s->cap ? s->cap : 1, true))
			return false;
	if (s->n == s->cap && !regrow(s, s->cap ? s->cap * 2 : 1024, s->wide))
		return false;
	if (s->wide) {
		struct ss_sample_rec64 *r = (struct ss_sample_rec64 *)s->recs + s->n;

		r->al = x->has_al ? x->al : 0.0;
		r->dar = x->has_dar ? x->dar : 0.0;
		r->accepted = acc;
		r->drafted = dr;
		r->steps = st;
		r->flags = flags;
	} else {
		struct ss_sample_rec32 *r = (struct ss_sample_rec32 *)s->recs + s->n;

		r->al = x->has_al ? x->al : 0.0;
		r->dar = x->has_dar ? x->dar : 0.0;
		r->accepted = (uint32_t)acc;
		r->drafted = (uint32_t)dr;
		r->steps = (uint32_t)st;
		r->flags = flags;
	}
	s->n++;
	return true;
}

void ss_samples_get(const struct ss_samples *s, size_t i, struct ss_sample *out)
{
	uint64_t flags;

	if (s->wide) {
		const struct ss_sample_rec64 *r = (const struct ss_sample_rec64 *)s->recs + i;

		out->al = r->al;
		out->dar = r->dar;
		out->accepted = (int64_t)r->accepted;
		out->drafted = (int64_t)r->drafted;
		out->steps = (int64_t)r->steps;
		flags = r->flags;
	} else {
		const struct ss_sample_rec32 *r = (const struct ss_sample_rec32 *)s->recs + i;

		out->al = r->al;
		out->dar = r->dar;
		out->accepted = r->accepted;
		out->drafted = r->drafted;
		out->steps = r->steps;
		flags = r->flags;
	}
	out->has_al = flags & SS_SAMPLE_AL;
	out->has_dar = flags & SS_SAMPLE_DAR;
	out->has_steps = flags & SS_SAMPLE_STEPS;
}
