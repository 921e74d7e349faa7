/*
 * chart_lines.c - the line chart of chart.h: series of points over a numeric
 * x axis, told apart by colour, marker and dash, with a legend; and
 * SPEC 7.1's two position charts built on it.
 */
#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/chart_svg.h"
#include "report/htmlesc.h"
#include "util/alloc.h"

static const char *const dashes[] = {NULL, "7 4", "2 3", "9 3 2 3"};

/* The dash pattern of series i, so its line and its legend match (the
 * first is solid). */
static void dash_attr(struct ss_buf *b, size_t i)
{
	if (dashes[i % 4]) {
		ss_buf_adds(b, " stroke-dasharray=\"");
		ss_buf_adds(b, dashes[i % 4]);
		ss_buf_addc(b, '"');
	}
}

/* The marker of series i at (x, y). */
static void marker(struct ss_buf *b, size_t i, double x, double y)
{
	const double r = 4;

	switch (i % 4) {
	case 0:
		ss_buf_adds(b, "<circle");
		ss_svg_attr(b, "cx", x);
		ss_svg_attr(b, "cy", y);
		ss_svg_attr(b, "r", r);
		break;
	case 1:
		ss_buf_adds(b, "<rect");
		ss_svg_attr(b, "x", x - r);
		ss_svg_attr(b, "y", y - r);
		ss_svg_attr(b, "width", 2 * r);
		ss_svg_attr(b, "height", 2 * r);
		break;
	case 2:
		ss_svg_point(b, "<path d=\"M", x, y - r * 1.2);
		ss_svg_point(b, "l", r * 1.1, r * 2);
		ss_buf_adds(b, "h");
		ss_svg_coord(b, -r * 2.2);
		ss_buf_adds(b, "z\"");
		break;
	default:
		ss_svg_point(b, "<path d=\"M", x, y - r * 1.3);
		ss_svg_point(b, "l", r * 1.3, r * 1.3);
		ss_svg_point(b, "l", -r * 1.3, r * 1.3);
		ss_svg_point(b, "l", -r * 1.3, -r * 1.3);
		ss_buf_adds(b, "z\"");
		break;
	}
}

/* The width of series i's legend entry (swatch, name, gap) and its name
 * as drawn (shortened; NULL when out of memory, the caller frees it). */
static char *legend_entry(const struct ss_series *s, double *w, bool *sh)
{
	char *name = ss_text_shorten(s->name ? s->name : "", 220, SS_CH_FONT, sh);

	*w = 34 + (name ? ss_text_width(name, strlen(name), SS_CH_FONT) : 0) + 18;
	return name;
}

/* The rows the legend takes between `left` and `right`. */
static int legend_rows(const struct ss_series *s, size_t ns, double left, double right)
{
	double lx = left;
	int rows = 1;

	for (size_t i = 0; i < ns; i++) {
		bool sh;
		double w;

		ss_free(legend_entry(&s[i], &w, &sh));
		if (lx + w > right && lx > left)
			lx = left, rows++;
		lx += w;
	}
	return rows;
}

/* The plot of a line chart: the frame with its y axis, and the x axis. */
struct plot {
	struct ss_frame f;
	struct ss_ticks xt;
	struct ss_scale xs;
};

/* The ranges of the data, then the ticks, the frame and the x scale. */
static void layout(struct plot *p, const struct ss_chart *c, const struct ss_line_opts *o,
		   const struct ss_series *s, size_t ns)
{
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = c->y_max_hint > 0 ? c->y_max_hint : 0;
	double top = 44;

	if (o && isfinite(o->y_min))
		ymin = o->y_min;
	for (size_t i = 0; i < ns; i++)
		for (size_t j = 0; j < s[i].n; j++) {
			if (isfinite(s[i].x[j])) {
				xmin = fmin(xmin, s[i].x[j]);
				xmax = fmax(xmax, s[i].x[j]);
			}
			if (isfinite(s[i].y[j])) {
				ymax = fmax(ymax, s[i].y[j]);
				ymin = fmin(ymin, s[i].y[j]);
			}
		}
	if (!isfinite(xmin))
		xmin = 0, xmax = 1;
	if (ymax <= ymin)
		ymax = ymin + 1;
	ss_ticks_nice(&p->f.yt, ymin, ymax, SS_CH_MAX_TICK_INTERVALS);
	ss_frame_left(&p->f, c, top);
	if (ns > 1) {   /* the legend's rows under the title */
		top += 20 + 16 * (legend_rows(s, ns, p->f.left, p->f.right) - 1);
		ss_frame_left(&p->f, c, top);
	}
	p->f.bottom = p->f.h - (8 + SS_CH_FONT_AXIS + 6) - SS_CH_X_TICK_DY - 6;
	if (o && o->x_integer) {
		if (xmax - xmin <= 20) {
			p->xt.first = floor(xmin);
			p->xt.step = 1;
			p->xt.mant = 1;
			p->xt.exp10 = 0;
			p->xt.count = (int)(ceil(xmax) - p->xt.first) + 1;
			p->xt.decimals = 0;
		} else {
			ss_ticks_integer(&p->xt, xmin, xmax, 10);
		}
		ss_scale_init(&p->xs, xmin - 0.5, xmax + 0.5, p->f.left, p->f.right);
	} else {
		ss_ticks_nice(&p->xt, xmin, xmax, 8);
		ss_scale_init(&p->xs, ss_ticks_value(&p->xt, 0), ss_ticks_last(&p->xt), p->f.left,
			      p->f.right);
	}
}

/* The x ticks' labels, those inside the x scale's domain. */
static void draw_x_ticks(struct ss_buf *out, const struct plot *p)
{
	ss_buf_adds(out, "<g fill=\"" SS_CH_INK "\" text-anchor=\"middle\">\n");
	for (int t = 0; t < p->xt.count; t++) {
		double v = ss_ticks_value(&p->xt, t);
		struct ss_buf lab = SS_BUF_INIT;

		if (v < p->xs.d0 - 1e-9 || v > p->xs.d1 + 1e-9)
			continue;
		ss_chart_add_fixed(&lab, v, p->xt.decimals);
		ss_svg_text(out, ss_scale_map(&p->xs, v), p->f.bottom + SS_CH_X_TICK_DY, NULL, NULL,
			    lab.data ? lab.data : "");
		ss_buf_release(&lab);
	}
	ss_buf_adds(out, "</g>\n");
}

/* The dashed vertical marker at o->mark_x and its label. */
static void draw_mark(struct ss_buf *out, const struct plot *p, const struct ss_line_opts *o)
{
	double mx = ss_scale_map(&p->xs, o->mark_x);

	ss_buf_adds(out, "<g stroke=\"" SS_CH_INK_SOFT "\" stroke-width=\"1\" stroke-dasharray=\"4 3\">\n");
	ss_svg_line(out, mx, p->f.top, mx, p->f.bottom);
	ss_buf_adds(out, "</g>\n");
	/* at the foot of the line: the points and their values are
	 * above, where the curve is */
	/* on the side with room: left of a line in the right half */
	if (o->mark_label && mx > (p->f.left + p->f.right) / 2)
		ss_svg_text(out, mx - 4, p->f.bottom - 6, "end", "fill=\"" SS_CH_INK_SOFT "\"",
			    o->mark_label);
	else if (o->mark_label)
		ss_svg_text(out, mx + 4, p->f.bottom - 6, NULL, "fill=\"" SS_CH_INK_SOFT "\"", o->mark_label);
}

/* Series i of ns: its line (a gap at each absent point), its markers with
 * their tooltips, and its value labels (one series only, when the points
 * are far apart). */
static void draw_series(struct ss_buf *out, const struct ss_chart *c, const struct plot *p,
			const struct ss_series *s, size_t i, size_t ns)
{
	const char *col = ss_chart_color(i);
	bool pen = false;
	size_t j;

	ss_buf_adds(out, "<path fill=\"none\" stroke=\"");
	ss_buf_adds(out, col);
	ss_buf_adds(out, "\" stroke-width=\"2\"");
	dash_attr(out, i);
	ss_buf_adds(out, " d=\"");
	for (j = 0; j < s->n; j++) {
		if (!isfinite(s->y[j]) || !isfinite(s->x[j])) {
			pen = false;
			continue;
		}
		ss_buf_addc(out, pen ? 'L' : 'M');
		ss_svg_coord(out, ss_scale_map(&p->xs, s->x[j]));
		ss_buf_addc(out, ' ');
		ss_svg_coord(out, ss_scale_map(&p->f.ys, s->y[j]));
		pen = true;
	}
	ss_buf_adds(out, "\"/>\n<g fill=\"");
	ss_buf_adds(out, col);
	ss_buf_adds(out, "\" stroke=\"#ffffff\" stroke-width=\"1\">\n");
	for (j = 0; j < s->n; j++) {
		if (!isfinite(s->y[j]) || !isfinite(s->x[j]))
			continue;
		marker(out, i, ss_scale_map(&p->xs, s->x[j]), ss_scale_map(&p->f.ys, s->y[j]));
		ss_buf_adds(out, "><title>");
		ss_buf_add_htmls(out, s->name);
		ss_buf_adds(out, " at ");
		ss_chart_add_fixed(out, s->x[j], p->xt.decimals);
		ss_buf_adds(out, ": ");
		ss_chart_value_text(out, c, s->y[j]);
		ss_buf_adds(out, "</title></");
		ss_buf_adds(out, i % 4 == 0 ? "circle" : i % 4 == 1 ? "rect" : "path");
		ss_buf_adds(out, ">\n");
	}
	ss_buf_adds(out, "</g>\n");
	if (!c->show_values || ns != 1 || s->n == 0 ||
	    (p->f.right - p->f.left) / (double)(s->n) < 36)
		return;
	ss_buf_adds(out, "<g fill=\"" SS_CH_INK "\" font-size=\"11\" text-anchor=\"middle\">\n");
	for (j = 0; j < s->n; j++) {
		struct ss_buf v = SS_BUF_INIT;

		if (!isfinite(s->y[j]) || !isfinite(s->x[j]))
			continue;
		ss_chart_value_text(&v, c, s->y[j]);
		ss_svg_text(out, ss_scale_map(&p->xs, s->x[j]), ss_scale_map(&p->f.ys, s->y[j]) - 9,
			    NULL, NULL, v.data ? v.data : "");
		ss_buf_release(&v);
	}
	ss_buf_adds(out, "</g>\n");
}

/* The legend under the title: swatch (line + marker) and name, left to
 * right, wrapping. */
static void draw_legend(struct ss_buf *out, const struct plot *p, const struct ss_series *s,
			size_t ns)
{
	double lx = p->f.left, ly = 44;

	for (size_t i = 0; i < ns; i++) {
		bool sh;
		double w;
		char *name = legend_entry(&s[i], &w, &sh);

		if (lx + w > p->f.right && lx > p->f.left)
			lx = p->f.left, ly += 16;
		ss_buf_adds(out, "<g stroke=\"");
		ss_buf_adds(out, ss_chart_color(i));
		ss_buf_adds(out, "\" stroke-width=\"2\" fill=\"");
		ss_buf_adds(out, ss_chart_color(i));
		ss_buf_addc(out, '"');
		dash_attr(out, i);
		ss_buf_adds(out, ">");
		ss_svg_line(out, lx, ly - 4, lx + 26, ly - 4);
		ss_buf_adds(out, "</g>\n<g fill=\"");
		ss_buf_adds(out, ss_chart_color(i));
		ss_buf_adds(out, "\" stroke=\"#ffffff\" stroke-width=\"1\">");
		marker(out, i, lx + 13, ly - 4);
		ss_buf_adds(out, "/>");
		ss_buf_adds(out, "</g>\n");
		ss_buf_adds(out, "<text");
		ss_svg_attr(out, "x", lx + 32);
		ss_svg_attr(out, "y", ly);
		ss_buf_adds(out, " fill=\"" SS_CH_INK "\">");
		if (sh) {
			ss_svg_tooltip_open(out);
			ss_buf_add_htmls(out, s[i].name);
			ss_buf_adds(out, "</title>");
		}
		ss_buf_add_htmls(out, name ? name : "");
		ss_buf_adds(out, "</text>\n");
		if (!name)
			out->failed = true;
		ss_free(name);
		lx += w;
	}
}

void ss_chart_lines(struct ss_buf *out, const struct ss_chart *c,
		    const struct ss_line_opts *o, const struct ss_series *s, size_t ns)
{
	struct plot p;

	layout(&p, c, o, s, ns);
	ss_svg_open(out, c);
	ss_frame_y_axis(out, c, &p.f);
	draw_x_ticks(out, &p);
	if (o && isfinite(o->mark_x))
		draw_mark(out, &p, o);
	for (size_t i = 0; i < ns; i++)
		draw_series(out, c, &p, &s[i], i, ns);
	if (ns > 1)
		draw_legend(out, &p, s, ns);
	ss_frame_axis_line(out, &p.f);
	ss_frame_x_title(out, c, &p.f);
	ss_buf_adds(out, "</svg>\n");
}

/* -- SPEC 7.1's position charts ------------------------------------------------ */

void ss_chart_pos_rate(struct ss_buf *out, const struct ss_chart *c, const struct ss_series *s,
		       size_t ns)
{
	struct ss_chart d = *c;

	d.x_label = "Draft position i";
	d.y_max_hint = 100;
	d.value_decimals = 1;
	d.value_suffix = "%";
	ss_chart_lines(out, &d, &(struct ss_line_opts){true, NAN, NULL, NAN}, s, ns);
}

void ss_chart_pos_whatif(struct ss_buf *out, const struct ss_chart *c, const struct ss_series *s,
			 size_t ns)
{
	struct ss_chart d = *c;

	d.x_label = "Draft length k\xE2\x80\xB2";
	d.value_decimals = 2;
	ss_chart_lines(out, &d, &(struct ss_line_opts){true, NAN, NULL, 1.0}, s, ns);
}

void ss_chart_pos_pair(struct ss_series s[2], const double *x, const double *rate,
		       const double *conditional, size_t n)
{
	s[0] = (struct ss_series){"Rate: position i accepted", x, rate, n};
	s[1] = (struct ss_series){"Conditional: given i\xE2\x88\x92" "1 accepted", x, conditional, n};
}
