/*
 * outliers.h - SPEC 7.11 over the main results: the N ok records with
 * steps of lowest and of highest acceptance length, and the counts of
 * records whose drafts were all rejected or all accepted.
 *
 * Records arrive in input order. Each list is a bounded heap of at most N
 * entries whose root is the entry the list would drop first (for the
 * lowest: the largest value, the latest on a tie), so a record is compared
 * with one entry and kept only when it beats it: never more than 2N
 * records are held, whatever the run's size. ss_outliers_finish() sorts
 * both lists (ties in input order).
 *
 * Ownership: the set owns its entries and their copied names (input,
 * model) until ss_outliers_release(); an added record's strings are
 * borrowed for the call only.
 */
#ifndef SS_OUTLIERS_H
#define SS_OUTLIERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_OUTLIERS_MAX 1000

struct ss_outlier {
	double al;                /* the record's mean_acceptance_length */
	uint64_t seq;             /* its place among the records added */
	char *input;              /* owned; NULL: counted in no input */
	uint64_t line;
	char *model;              /* owned; NULL: no model */
	int64_t steps;
	bool has_completion;
	int64_t completion_tokens;
	bool has_prompt;
	int64_t prompt_tokens;
};

/* One record as the caller sees it (strings borrowed). */
struct ss_outlier_in {
	double al;
	const char *input;        /* NUL-terminated, or NULL */
	uint64_t line;
	const char *model;        /* model_len bytes, or NULL */
	size_t model_len;
	int64_t steps, accepted;
	bool has_completion;
	int64_t completion_tokens;
	bool has_prompt;
	int64_t prompt_tokens;
	bool all_accepted;        /* histogram and k >= 1 known, every step accepted k */
};

struct ss_outliers {
	size_t n;                 /* N of --outliers; 0: only the counts */
	struct ss_outlier *low, *high;  /* heaps, then sorted lists */
	size_t nlow, nhigh;
	uint64_t seq;
	uint64_t all_rejected, all_accepted;
	bool sorted;
};

void ss_outliers_init(struct ss_outliers *s);
void ss_outliers_release(struct ss_outliers *s);
/* Keep the N lowest and highest (1..SS_OUTLIERS_MAX); before the first add. false: out of memory. */
bool ss_outliers_keep(struct ss_outliers *s, size_t n);
/* One ok record with steps; false when out of memory. */
bool ss_outliers_add(struct ss_outliers *s, const struct ss_outlier_in *x);
/*
 * Whether a record of acceptance length al could enter a list now: a
 * list has room, or al is strictly beyond its root (a tie never beats an
 * earlier record), or the lists are sorted. When false, ss_outliers_add
 * would only count the record, and ss_outliers_count does that without
 * the record: most records of a long run take this way.
 */
static inline bool ss_outliers_may_keep(const struct ss_outliers *s, double al)
{
	if (s->n == 0 || al != al)  /* no lists, or NaN (never kept) */
		return false;
	if (s->sorted || s->nlow < s->n || s->nhigh < s->n)
		return true;
	return al < s->low[0].al || al > s->high[0].al;
}

/*
 * Count a record (its place in the input order, all_rejected: steps but
 * nothing accepted, all_accepted); ss_outliers_add does this too, so call
 * it alone for a record ss_outliers_may_keep said false of.
 */
static inline void ss_outliers_count(struct ss_outliers *s, int64_t steps, int64_t accepted,
				     bool all_accepted)
{
	s->seq++;
	s->all_rejected += steps > 0 && accepted == 0;
	s->all_accepted += all_accepted;
}

/* Sort the lists: low ascending, high descending, ties in input order. */
void ss_outliers_finish(struct ss_outliers *s);

#endif
