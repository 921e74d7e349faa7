/*
 * chart_geom.h - the geometry core of the SVG charts (SPEC 9.1): linear
 * scales, "nice" axis ticks, text width estimates and shortening, the
 * placement of category labels, the bins of a histogram, and numbers
 * written as a chart shows them. Pure computation, unit tested
 * (tests/unit/test_chart.c); the chart kinds of chart.h draw with it.
 *
 * Ownership: struct ss_labels and struct ss_bins own their arrays until
 * their _release; ss_text_shorten() returns a string the caller frees
 * (ss_free). Everything else works on the caller's values and keeps
 * nothing; the number writers append to the caller's buffer (util/buf.h).
 */
#ifndef SS_CHART_GEOM_H
#define SS_CHART_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* -- numbers --------------------------------------------------------------- */

/*
 * A number with `decimals` digits after the point (0..9), rounded half
 * away from zero, `-0` written as `0`; no locale. Non-finite: nothing.
 */
void ss_chart_add_fixed(struct ss_buf *b, double v, int decimals);

/* ss_chart_add_fixed(), but a positive value that would show as zero is
 * written "<0.1" (for one decimal): present, and small. */
void ss_chart_add_small(struct ss_buf *b, double v, int decimals);

/* -- scales and ticks ------------------------------------------------------ */

/* Maps the domain [d0, d1] linearly onto the range [r0, r1]. */
struct ss_scale {
	double d0, d1, r0, r1;
};

void ss_scale_init(struct ss_scale *s, double d0, double d1, double r0, double r1);
/* A degenerate domain (d0 == d1) maps everything to r0. */
double ss_scale_map(const struct ss_scale *s, double v);

/*
 * "Nice" ticks: first, first + step, ..., first + (count - 1) * step, where
 * step is 1, 2 or 5 times a power of ten. The rule: the smallest such step
 * for which the multiples of step that enclose [lo, hi] (first = the
 * largest multiple <= lo, last = the smallest multiple >= hi) make at most
 * `max_intervals` intervals. So [0, 1] with 5 gives 0, 0.2, ..., 1;
 * [0, 87] gives 0, 20, ..., 100; [0, 100] gives 0, 20, ..., 100. When
 * lo == hi the range is widened to [lo - 1, lo + 1] (or [0, 1] for 0)
 * first. `decimals` is how many digits after the point the labels need.
 */
struct ss_ticks {
	double first;
	double step;
	int count;          /* number of ticks, >= 2 */
	int decimals;
	/* the step as mantissa (1, 2 or 5) and exponent, for exact values */
	int mant, exp10;
};

void ss_ticks_nice(struct ss_ticks *t, double lo, double hi, int max_intervals);
/* Tick i, computed as an integer multiple of the step (no drift). */
double ss_ticks_value(const struct ss_ticks *t, int i);
double ss_ticks_last(const struct ss_ticks *t);
/* The nice step (1, 2 or 5 x 10^e) that is >= x > 0. */
double ss_nice_step(double x, int *mant, int *exp10);
/*
 * Whole-number ticks (counts, positions): ss_ticks_nice(), then, when that
 * step is below 1, every integer from floor(lo) to ceil(hi) (at least two).
 */
void ss_ticks_integer(struct ss_ticks *t, double lo, double hi, int max_intervals);

/* -- text and labels ------------------------------------------------------- */

/*
 * Estimated width in px of `s` (UTF-8) at font size `font_px`, from the
 * advance widths of DejaVu Sans (the wide default sans of Debian), rounded
 * up per character class so that narrower fonts only leave more room.
 */
double ss_text_width(const char *s, size_t n, double font_px);

/*
 * `s` shortened to at most `max_px` wide: the start and the end kept, a
 * middle part replaced by U+2026 (input names often differ at the end).
 * The start and the end get the same number of characters (the start one
 * more when odd). Returns a new string (ss_malloc; NULL on failure) and
 * sets *shortened.
 * A text that fits is copied unchanged.
 */
char *ss_text_shorten(const char *s, double max_px, double font_px, bool *shortened);

/* How category labels under an axis are drawn. */
enum ss_label_mode {
	SS_LABELS_HORIZONTAL,   /* centred under the band */
	SS_LABELS_ROTATED,      /* -45 degrees, right end at the band centre */
};

struct ss_label {
	double x, y;        /* anchor: the text's centre (horizontal) or end
	                       (rotated) on its baseline */
	char *text;         /* what is drawn (maybe shortened); owned */
	double width;       /* ss_text_width() of text */
	bool shortened;     /* text is not the full name: give a tooltip */
	bool shown;         /* false: skipped to avoid overlap */
};

struct ss_labels {
	struct ss_label *v;
	size_t n;
	enum ss_label_mode mode;
	double angle;       /* degrees: 0 or -45 */
	double font;        /* px */
	double extent;      /* px the labels need below axis_y */
	size_t every;       /* every `every`-th label is shown (1: all) */
};

/*
 * Place n category labels for bands of width `band` starting at x0 (label i
 * centred at x0 + (i + 0.5) * band), under an axis at axis_y. The rule:
 * horizontal when every full name fits its band; else horizontal with each
 * name shortened to its band when the band is at least 90 px; else rotated
 * by -45 degrees with names shortened to what `max_extent` px below the
 * axis and `left_room` px left of x0 (the chart's edge) allow; when the
 * bands are too narrow even for rotated text, only every m-th label is
 * shown. The boxes of the shown labels never overlap.
 * Returns false on allocation failure (l is then empty).
 */
bool ss_labels_place(struct ss_labels *l, const char *const *names, size_t n,
		     double x0, double band, double axis_y, double max_extent,
		     double left_room, double font_px);
void ss_labels_release(struct ss_labels *l);

/* -- bins ------------------------------------------------------------------ */

/*
 * Bins of a histogram of values. The rule (documented in the README):
 * about sqrt(n) bins, at most 30 and at least 1; the width is the nice step
 * (1, 2 or 5 x 10^e) >= (max - min) / that number; bins are [a, a + width)
 * on multiples of the width, from the one holding the minimum to the one
 * holding the maximum; a value within 1e-9 of a width below an edge counts
 * in the upper bin (decimal edges are not exact in binary): bin index
 * floor(v / width + 1e-9) - floor(min / width + 1e-9). All values equal:
 * one bin a tenth of a power of ten wide (10^(e-1) for the nice step
 * m x 10^e of the value), starting at the value's multiple of it.
 */
struct ss_bins {
	double lo;              /* left edge of bin 0 */
	double width;
	int mant, exp10;        /* width = mant x 10^exp10 */
	size_t n;
	uint64_t *count;        /* n counts; owned */
	uint64_t total;
};

/* false on allocation failure or when no value is finite (b is empty). */
bool ss_bins_compute(struct ss_bins *b, const double *v, size_t n);
/* Edge i, the left edge of bin i; i may be below 0 or past n (the empty
 * bins a chart draws around a few). */
double ss_bins_edge(const struct ss_bins *b, int64_t i);
void ss_bins_release(struct ss_bins *b);


#endif
