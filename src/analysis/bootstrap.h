/*
 * bootstrap.h - percentile bootstrap intervals of the four Spec Decode
 * statistics (SPEC 7.2) and of their differences between two sets (7.4).
 *
 * The unit of resampling is the request. Each ok request of a result set is
 * kept as one sample by the aggregate (metrics/samples.h): a few numbers,
 * in input order. A resample b of a set of
 * n samples draws n indexes from stream (g, b) of the seed (analysis/rng.h)
 * and computes, in draw order:
 *   SS_BS_AL    Σ acceptance length / n'   (n' the drawn samples with one)
 *   SS_BS_TWAL  1 + Σ accepted / Σ steps   (over drawn samples with steps)
 *   SS_BS_DAR   Σ draft acceptance rate (%) / n'
 *   SS_BS_ODAR  Σ accepted / Σ drafted × 100
 * (the stats are in the order of the aggregate JSON, SPEC 4.1). The integer
 * sums are exact and divided once (util/ratio.h), as the main results are.
 * A statistic that is undefined on a resample is stored as NaN (a defined
 * one never is: the inputs are finite and non-negative).
 *
 * The timing of SPEC 11.3 (metrics/timekeep.h) is resampled the same way,
 * over a set's requests with any time, on the set's own streams (g, b):
 *   SS_TB_X        Σ (latency - TTFT) / Σ (c - 1) over drawn decode samples
 *   SS_TB_LATENCY  Σ request latency / n' (n' the drawn samples with one)
 *   SS_TB_TTFT     Σ TTFT / n'
 * and a ratio of two sets' rows (11.3's speedups) is taken resample by
 * resample where both sides define it (ss_boot_ratio_interval).
 *
 * Resamples are independent, so ss_boot_run() spreads them over threads and
 * each writes its own row: the result is the same bytes for any thread
 * count. No function here keeps global state.
 *
 * Ownership: the caller owns every row buffer (jobs' `out`, `scratch`);
 * the samples are borrowed for the call. Nothing is kept between calls.
 */
#ifndef SS_BOOTSTRAP_H
#define SS_BOOTSTRAP_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics/samples.h"
#include "metrics/timekeep.h"

enum ss_boot_stat {
	SS_BS_AL = 0, /* spec_decode_acceptance_length */
	SS_BS_TWAL,   /* spec_decode_token_weighted_acceptance_length */
	SS_BS_DAR,    /* spec_decode_draft_acceptance_rate */
	SS_BS_ODAR,   /* spec_decode_overall_draft_acceptance_rate */
	SS_BS_COUNT
};

enum ss_tboot_stat {
	SS_TB_X = 0,     /* decode_ms_per_token */
	SS_TB_LATENCY,   /* avg request_latency */
	SS_TB_TTFT,      /* avg time_to_first_token */
	SS_TB_COUNT
};

#define SS_BOOT_MAX_RESAMPLES 1000000u

/*
 * Resamples b0..b1-1 of `s` from the streams (g, b) of `seed`; row b - b0 of
 * `out` (SS_BS_COUNT doubles a row) receives resample b. n = 0 gives rows of
 * NaN. Pure: safe to call from several threads at once.
 */
void ss_boot_range(const struct ss_samples *s, uint64_t seed, uint32_t g, uint32_t b0,
		   uint32_t b1, double *out);

/*
 * The same for the timing `tk`: row b - b0 of `out` (SS_TB_COUNT doubles)
 * receives resample b of its draw records, which `tk` must have kept
 * (ss_timekeep_keep_draws(); without them every row is NaN). Pure, like
 * ss_boot_range().
 */
void ss_boot_timing_range(const struct ss_timekeep *tk, uint64_t seed, uint32_t g, uint32_t b0,
			  uint32_t b1, double *out);

/* One set to resample: B rows of SS_BS_COUNT doubles go to `out`. */
struct ss_boot_job {
	const struct ss_samples *samples;
	uint32_t g;
	double *out;  /* B * SS_BS_COUNT doubles, owned by the caller */
};

/* One set's timing to resample: B rows of SS_TB_COUNT doubles go to `out`. */
struct ss_boot_tjob {
	const struct ss_timekeep *timing;
	uint32_t g;
	double *out;  /* B * SS_TB_COUNT doubles, owned by the caller */
};

/*
 * Run B resamples of every job on up to `threads` threads (the caller's
 * thread among them; 0 or 1: no thread is started). Blocks until done.
 * When a thread cannot be started the others (or the caller) do its share:
 * the rows are the same either way.
 */
void ss_boot_run(const struct ss_boot_job *jobs, size_t njobs, uint64_t seed, uint32_t B,
		 unsigned threads);
/* The same for timing jobs (SPEC 11.3), with the same threads and chunks. */
void ss_boot_timing_run(const struct ss_boot_tjob *jobs, size_t njobs, uint64_t seed, uint32_t B,
			unsigned threads);

/*
 * The percentile interval of statistic `stat` over the B rows of `rows`:
 * the defined values sorted ascending, their 3.1 percentiles at
 * q = (100 - level) / 2 and 100 - q. `scratch` holds B doubles. false (and
 * no interval) when no row defines the statistic.
 */
bool ss_boot_interval(const double *rows, uint32_t B, enum ss_boot_stat stat, double level,
		      double *scratch, double *lo, double *hi);

/*
 * The same over the differences rows[b] - base[b] of the resamples b where
 * both define the statistic (SPEC 7.4).
 */
bool ss_boot_diff_interval(const double *rows, const double *base, uint32_t B,
			   enum ss_boot_stat stat, double level, double *scratch, double *lo,
			   double *hi);

/*
 * The ratio num / den of two defined values (11.3): false (undefined) when
 * either is NaN, den <= 0, num < 0 or the quotient is not finite.
 */
static inline bool ss_boot_ratio(double num, double den, double *out)
{
	double q;

	if (!(den > 0.0) || !(num >= 0.0))  /* NaN fails both */
		return false;
	q = num / den;
	if (!isfinite(q))
		return false;
	*out = q;
	return true;
}

/*
 * The percentile interval of num[b] / den[b] (column `col` of rows of
 * `ncols` doubles) over the resamples b where ss_boot_ratio() defines it.
 * `scratch` holds B doubles; false when none does.
 */
bool ss_boot_ratio_interval(const double *num, const double *den, uint32_t B, unsigned ncols,
			    unsigned col, double level, double *scratch, double *lo, double *hi);

#endif
