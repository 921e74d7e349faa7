/*
 * chart.h - small charts as inline SVG text, for the HTML report (SPEC 9.1):
 * bars over categories (chart_bars.c), lines over a numeric axis
 * (chart_lines.c) and a histogram (chart_hist.c), drawn with the geometry
 * core of chart_geom.h and the SVG pieces of chart_svg.c.
 *
 * Data in, SVG out, appended to a struct ss_buf (util/buf.h; an allocation
 * failure sets out->failed, checked once by the caller).
 *
 * Every chart is one <svg role="img"> with a <title> and a <desc> (for
 * screen readers), a visible title, labelled axes (the caller puts the unit
 * in the axis title, e.g. "Share of steps (%)"), light grid lines, and
 * presentation attributes only (no CSS needed, no script, no external
 * reference), so it prints and renders alone. Coordinates are written with
 * one decimal by integer arithmetic: the same data give the same bytes,
 * whatever the locale.
 *
 * Every text that may come from input (names, labels, titles) goes through
 * ss_buf_add_html() (report/htmlesc.h), the one escaping function of the
 * report.
 *
 * Colours: the Okabe-Ito palette (distinguishable with the common colour
 * vision deficiencies), its yellow left out (too light on white paper);
 * line series also differ by marker shape and dash pattern.
 *
 * Ownership: the chart writers borrow everything they are given and keep
 * nothing.
 */
#ifndef SS_CHART_H
#define SS_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/chart_geom.h"
#include "util/buf.h"

/* The colour of series i (cycles through the palette). */
const char *ss_chart_color(size_t i);

/* What every chart has. Texts are plain UTF-8 (escaped on output). */
struct ss_chart {
	const char *id;         /* unique in the page; prefixes element ids */
	const char *title;      /* visible title and <title> */
	const char *desc;       /* <desc>: what the chart shows, in words */
	const char *x_label;    /* axis titles, units included */
	const char *y_label;
	int width, height;      /* px (the viewBox); 0: 640 x 360 */
	double y_max_hint;      /* the y axis reaches at least this (0: none) */
	int value_decimals;     /* value labels on bars/points: digits */
	const char *value_suffix; /* e.g. "%" (NULL: none) */
	bool show_values;       /* write value labels where they fit */
};

/* One bar: a category, its value and an optional interval (whisker). */
struct ss_bar {
	const char *label;
	double value;           /* NaN: no bar (an absent value) */
	bool has_interval;
	double lo, hi;
};

/*
 * Geometry of a bar for value v on the y scale ys (the domain starts at
 * 0): *y is the top edge, *h the height (>= 0; a negative value is drawn
 * downwards from 0).
 */
void ss_chart_bar_geom(const struct ss_scale *ys, double v, double *y, double *h);

/* A vertical bar chart over categories (bars start at 0). */
void ss_chart_bars(struct ss_buf *out, const struct ss_chart *c,
		   const struct ss_bar *bars, size_t n);

/* One line series: points (x[i], y[i]); a NaN y leaves a gap. */
struct ss_series {
	const char *name;
	const double *x;
	const double *y;
	size_t n;
};

/*
 * A line chart with point markers over a numeric x axis. With
 * `x_integer`, ticks sit on whole numbers (every one when there are at
 * most 20) and the axis has half a unit of room each side. `mark_x` (when
 * finite) draws a dashed vertical marker labelled `mark_label`.
 */
struct ss_line_opts {
	bool x_integer;
	double mark_x;
	const char *mark_label;
	double y_min;           /* NaN: 0 or the data's minimum if below 0 */
};

void ss_chart_lines(struct ss_buf *out, const struct ss_chart *c,
		    const struct ss_line_opts *o, const struct ss_series *s, size_t ns);

/*
 * SPEC 7.1's two position charts, drawn alike wherever they stand (the
 * positions' section, per drafted token, the groups overlaid, each
 * group's own; chart_lines.c). `c` gives the id, title, description, y
 * label and size (the shorter drafts' also the y headroom and whether
 * values are written); the rest is fixed here.
 * - ss_chart_pos_rate: the share of verify steps in percent by draft
 *   position i (x "Draft position i", y to 100 %, one decimal);
 * - ss_chart_pos_whatif: the acceptance length by draft length k' (two
 *   decimals, y from 1 token);
 * - ss_chart_pos_pair: s[0] and s[1] the rate and the conditional rate of
 *   one draft length over x (n points, borrowed).
 */
void ss_chart_pos_rate(struct ss_buf *out, const struct ss_chart *c, const struct ss_series *s,
		       size_t ns);
void ss_chart_pos_whatif(struct ss_buf *out, const struct ss_chart *c, const struct ss_series *s,
			 size_t ns);
void ss_chart_pos_pair(struct ss_series s[2], const double *x, const double *rate,
		       const double *conditional, size_t n);

/* A histogram of the bins (chart_geom.h): contiguous bars, y = number of
 * values (count). */
void ss_chart_histogram(struct ss_buf *out, const struct ss_chart *c,
			const struct ss_bins *b);

#endif

