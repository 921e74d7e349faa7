/*
 * samples.h - the per-request state the bootstrap (SPEC 7.2) needs: a few
 * numbers per ok request of a result set, in input order.
 *
 * Stored packed (32 bytes a sample while every count fits 32 bits, 48
 * bytes after), so a resample's random reads touch one cache line each;
 * analysis/bootstrap.c reads the layouts below directly. Absent values are
 * stored as 0 (adding +0.0 to a sum that started at +0.0 changes nothing,
 * so the resampling loop needs no branch), and `flags` says which are
 * present.
 *
 * Ownership: the set owns its store (`base`) until ss_samples_release();
 * the bootstrap reads `recs` in place, borrowed for as long as no sample
 * is added.
 */
#ifndef SS_SAMPLES_H
#define SS_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What one ok request contributes; the caller fills it from the record. */
struct ss_sample {
	bool has_al;       /* the request has a spec_decode_acceptance_length */
	bool has_dar;      /* ... a spec_decode_draft_acceptance_rate */
	bool has_steps;    /* num_spec_steps is known */
	double al;         /* the acceptance length metric value */
	double dar;        /* the draft acceptance rate metric value, in % */
	int64_t accepted;  /* num_accepted_draft_tokens, >= 0 */
	int64_t drafted;   /* num_draft_tokens, >= 0 */
	int64_t steps;     /* num_spec_steps when has_steps, >= 0 */
};

#define SS_SAMPLE_AL 1u
#define SS_SAMPLE_DAR 2u
#define SS_SAMPLE_STEPS 4u

struct ss_sample_rec32 {
	double al, dar;
	uint32_t accepted, drafted, steps, flags;
};

struct ss_sample_rec64 {
	double al, dar;
	uint64_t accepted, drafted, steps, flags;
};

struct ss_samples {
	size_t n, cap;
	bool wide;   /* struct ss_sample_rec64, else rec32 */
	void *recs;  /* the records, inside base */
	void *base;  /* owned allocation */
};

void ss_samples_init(struct ss_samples *s);
void ss_samples_release(struct ss_samples *s);
/* Append one sample; false when out of memory (the set is unchanged). */
bool ss_samples_add(struct ss_samples *s, const struct ss_sample *x);
/* Sample i as added (its absent values read as 0). */
void ss_samples_get(const struct ss_samples *s, size_t i, struct ss_sample *out);

#endif
