/*
 * chart_svg.h - the SVG pieces every chart kind draws with (chart-internal:
 * included by chart_bars.c, chart_lines.c and chart_hist.c only): type
 * sizes and colours, coordinates written with one decimal, elements, and
 * the frame (the plot area with its y axis and axis titles).
 *
 * Ownership: every function appends to the caller's buffer and keeps
 * nothing; texts are borrowed and escaped on output (report/htmlesc.h).
 */
#ifndef SS_CHART_SVG_H
#define SS_CHART_SVG_H

#include "report/chart.h"
#include "report/chart_geom.h"
#include "util/buf.h"

/* Type sizes and colours shared by every chart. */
#define SS_CH_FONT 12.0          /* tick and category labels */
#define SS_CH_FONT_AXIS 12.0     /* axis titles */
#define SS_CH_FONT_VALUE 11.0    /* value labels on bars and points */
#define SS_CH_INK "#222222"
#define SS_CH_INK_SOFT "#555555"
#define SS_CH_GRID "#e4e4e4"
#define SS_CH_AXIS "#777777"
#define SS_CH_MAX_TICK_INTERVALS 5
/* Baseline of numeric x tick labels below the axis: low enough that the
 * first one clears the y axis's "0" next to it (both hang off the corner). */
#define SS_CH_X_TICK_DY (SS_CH_FONT + 8)

/* A coordinate: one decimal, ".0" left out. */
void ss_svg_coord(struct ss_buf *b, double v);
/* `text` and then the point "x y", as path data and transforms take it. */
void ss_svg_point(struct ss_buf *b, const char *text, double x, double y);
/* ` name="v"`, v a coordinate. */
void ss_svg_attr(struct ss_buf *b, const char *name, double v);
/* Plain text at (x, y); anchor "start" (or NULL), "middle" or "end";
 * `extra` (NULL: none) more attributes as they are. */
void ss_svg_text(struct ss_buf *b, double x, double y, const char *anchor,
		 const char *extra, const char *s);
void ss_svg_line(struct ss_buf *b, double x1, double y1, double x2, double y2);
/* A <title> child: the tooltip of the element it is in. */
void ss_svg_tooltip_open(struct ss_buf *b);

/* The <svg> element, its <title> and <desc>, the background, the title. */
void ss_svg_open(struct ss_buf *b, const struct ss_chart *c);
/* A value label: ss_chart_add_small() with the chart's decimals and suffix. */
void ss_chart_value_text(struct ss_buf *b, const struct ss_chart *c, double v);

/* The plot area and its y axis. */
struct ss_frame {
	double w, h;                /* the whole chart */
	double left, right, top, bottom;
	struct ss_ticks yt;
	struct ss_scale ys;
};

/* The chart's size, and the left margin for the y tick labels (f->yt must
 * be set) and the y axis title; `top` is the plot's top edge. */
void ss_frame_left(struct ss_frame *f, const struct ss_chart *c, double top);
/* Grid lines, y ticks and labels, the y axis title. Needs f->bottom; sets
 * f->ys. */
void ss_frame_y_axis(struct ss_buf *b, const struct ss_chart *c, struct ss_frame *f);
void ss_frame_x_title(struct ss_buf *b, const struct ss_chart *c, const struct ss_frame *f);
/* The x axis line along the plot's bottom. */
void ss_frame_axis_line(struct ss_buf *b, const struct ss_frame *f);

#endif
