/*
 * chart_svg.c - the SVG pieces of chart_svg.h and the colours of chart.h.
 */
#include "report/chart_svg.h"

#include <math.h>
#include <string.h>

#include "report/htmlesc.h"

#define FONT_FAMILY "system-ui, -apple-system, &quot;Segoe UI&quot;, Roboto, &quot;DejaVu Sans&quot;, Arial, sans-serif"
#define DEFAULT_W 640
#define DEFAULT_H 360

/* A coordinate: one decimal, ".0" left out. */
void ss_svg_coord(struct ss_buf *b, double v)
{
	double r = round(v * 10.0) / 10.0;

	if (r == floor(r))
		ss_chart_add_fixed(b, r, 0);
	else
		ss_chart_add_fixed(b, r, 1);
}

/* `text` and then the point "x y", as path data and transforms take it. */
void ss_svg_point(struct ss_buf *b, const char *text, double x, double y)
{
	ss_buf_adds(b, text);
	ss_svg_coord(b, x);
	ss_buf_addc(b, ' ');
	ss_svg_coord(b, y);
}

/* The Okabe-Ito colours, yellow left out. */
static const char *const palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
};

const char *ss_chart_color(size_t i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void ss_svg_attr(struct ss_buf *b, const char *name, double v)
{
	ss_buf_addc(b, ' ');
	ss_buf_adds(b, name);
	ss_buf_adds(b, "=\"");
	ss_svg_coord(b, v);
	ss_buf_addc(b, '"');
}

static void chart_size(const struct ss_chart *c, double *w, double *h)
{
	*w = c->width > 0 ? c->width : DEFAULT_W;
	*h = c->height > 0 ? c->height : DEFAULT_H;
}

void ss_svg_open(struct ss_buf *b, const struct ss_chart *c)
{
	double w, h;

	chart_size(c, &w, &h);
	ss_buf_adds(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" aria-labelledby=\"");
	ss_buf_add_htmls(b, c->id);
	ss_buf_adds(b, "-t ");
	ss_buf_add_htmls(b, c->id);
	ss_svg_point(b, "-d\" viewBox=\"0 0 ", w, h);
	ss_buf_addc(b, '"');
	ss_svg_attr(b, "width", w);
	ss_svg_attr(b, "height", h);
	ss_buf_adds(b, " font-family=\"" FONT_FAMILY "\" font-size=\"12\">\n<title id=\"");
	ss_buf_add_htmls(b, c->id);
	ss_buf_adds(b, "-t\">");
	ss_buf_add_htmls(b, c->title);
	ss_buf_adds(b, "</title>\n<desc id=\"");
	ss_buf_add_htmls(b, c->id);
	ss_buf_adds(b, "-d\">");
	ss_buf_add_htmls(b, c->desc ? c->desc : c->title);
	ss_buf_adds(b, "</desc>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
	ss_buf_adds(b, "<text x=\"8\" y=\"22\" font-size=\"15\" font-weight=\"600\" fill=\"" SS_CH_INK "\">");
	ss_buf_add_htmls(b, c->title);
	ss_buf_adds(b, "</text>\n");
}

/* Plain text at (x, y); anchor "start", "middle" or "end". */
void ss_svg_text(struct ss_buf *b, double x, double y, const char *anchor,
		    const char *extra, const char *s)
{
	ss_buf_adds(b, "<text");
	ss_svg_attr(b, "x", x);
	ss_svg_attr(b, "y", y);
	if (anchor && strcmp(anchor, "start") != 0) {
		ss_buf_adds(b, " text-anchor=\"");
		ss_buf_adds(b, anchor);
		ss_buf_addc(b, '"');
	}
	if (extra) {
		ss_buf_addc(b, ' ');
		ss_buf_adds(b, extra);
	}
	ss_buf_addc(b, '>');
	ss_buf_add_htmls(b, s);
	ss_buf_adds(b, "</text>\n");
}

void ss_svg_line(struct ss_buf *b, double x1, double y1, double x2, double y2)
{
	ss_buf_adds(b, "<line");
	ss_svg_attr(b, "x1", x1);
	ss_svg_attr(b, "y1", y1);
	ss_svg_attr(b, "x2", x2);
	ss_svg_attr(b, "y2", y2);
	ss_buf_adds(b, "/>\n");
}

static double tick_label_width(const struct ss_ticks *t)
{
	double widest = 0;
	int i;

	for (i = 0; i < t->count; i++) {
		struct ss_buf tmp = SS_BUF_INIT;
		double w;

		ss_chart_add_fixed(&tmp, ss_ticks_value(t, i), t->decimals);
		w = tmp.data ? ss_text_width(tmp.data, tmp.len, SS_CH_FONT) : SS_CH_FONT;
		ss_buf_release(&tmp);
		if (w > widest)
			widest = w;
	}
	return widest;
}

/* Left margin for the y tick labels and the y axis title. */
void ss_frame_left(struct ss_frame *f, const struct ss_chart *c, double top)
{
	chart_size(c, &f->w, &f->h);
	f->left = 8 + SS_CH_FONT_AXIS + 10 + tick_label_width(&f->yt) + 8;
	f->right = f->w - 16;
	f->top = top;
}

/* Grid lines, y ticks and labels, the y axis title. Needs f->bottom. */
void ss_frame_y_axis(struct ss_buf *b, const struct ss_chart *c, struct ss_frame *f)
{
	int i;

	ss_scale_init(&f->ys, ss_ticks_value(&f->yt, 0), ss_ticks_last(&f->yt), f->bottom, f->top);
	ss_buf_adds(b, "<g stroke=\"" SS_CH_GRID "\" stroke-width=\"1\">\n");
	for (i = 0; i < f->yt.count; i++) {
		double y = ss_scale_map(&f->ys, ss_ticks_value(&f->yt, i));

		ss_svg_line(b, f->left, y, f->right, y);
	}
	ss_buf_adds(b, "</g>\n<g fill=\"" SS_CH_INK_SOFT "\" text-anchor=\"end\">\n");
	for (i = 0; i < f->yt.count; i++) {
		double y = ss_scale_map(&f->ys, ss_ticks_value(&f->yt, i));
		struct ss_buf lab = SS_BUF_INIT;

		ss_chart_add_fixed(&lab, ss_ticks_value(&f->yt, i), f->yt.decimals);
		ss_svg_text(b, f->left - 6, y + SS_CH_FONT * 0.35, NULL, NULL, lab.data ? lab.data : "");
		ss_buf_release(&lab);
	}
	ss_buf_adds(b, "</g>\n");
	/* axis title, rotated, centred on the plot */
	ss_buf_adds(b, "<text");
	ss_svg_attr(b, "x", 0);
	ss_svg_attr(b, "y", 0);
	ss_svg_point(b, " transform=\"translate(", 8 + SS_CH_FONT_AXIS, (f->top + f->bottom) / 2);
	ss_buf_adds(b, ") rotate(-90)\" text-anchor=\"middle\" fill=\"" SS_CH_INK "\">");
	ss_buf_add_htmls(b, c->y_label);
	ss_buf_adds(b, "</text>\n");
}

void ss_frame_x_title(struct ss_buf *b, const struct ss_chart *c, const struct ss_frame *f)
{
	ss_svg_text(b, (f->left + f->right) / 2, f->h - 8, "middle", "fill=\"" SS_CH_INK "\"", c->x_label);
}

void ss_frame_axis_line(struct ss_buf *b, const struct ss_frame *f)
{
	ss_buf_adds(b, "<g stroke=\"" SS_CH_AXIS "\" stroke-width=\"1\">\n");
	ss_svg_line(b, f->left, f->bottom, f->right, f->bottom);
	ss_buf_adds(b, "</g>\n");
}

void ss_chart_value_text(struct ss_buf *b, const struct ss_chart *c, double v)
{
	ss_chart_add_small(b, v, c->value_decimals);
	if (c->value_suffix)
		ss_buf_add_htmls(b, c->value_suffix);
}

/* A <title> child: the tooltip of the element it is in. */
void ss_svg_tooltip_open(struct ss_buf *b)
{
	ss_buf_adds(b, "<title>");
}
