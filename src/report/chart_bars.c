/*
 * chart_bars.c - the bar chart of chart.h: bars over categories, from 0,
 * with interval whiskers, value labels and category labels placed by
 * ss_labels_place().
 */
#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/chart_svg.h"
#include "report/htmlesc.h"
#include "util/alloc.h"

void ss_chart_bar_geom(const struct ss_scale *ys, double v, double *y, double *h)
{
	double y0 = ss_scale_map(ys, 0.0), yv = ss_scale_map(ys, v);

	*y = yv < y0 ? yv : y0;
	*h = fabs(y0 - yv);
}

static void draw_labels(struct ss_buf *b, const struct ss_labels *l, const char *const *full)
{
	size_t i;

	ss_buf_adds(b, "<g fill=\"" SS_CH_INK "\">\n");
	for (i = 0; i < l->n; i++) {
		const struct ss_label *lab = &l->v[i];

		if (!lab->shown)
			continue;
		ss_buf_adds(b, "<text");
		ss_svg_attr(b, "x", lab->x);
		ss_svg_attr(b, "y", lab->y);
		if (l->mode == SS_LABELS_HORIZONTAL) {
			ss_buf_adds(b, " text-anchor=\"middle\"");
		} else {
			ss_svg_point(b, " text-anchor=\"end\" transform=\"rotate(-45 ", lab->x, lab->y);
			ss_buf_adds(b, ")\"");
		}
		ss_buf_addc(b, '>');
		if (lab->shortened) {
			ss_svg_tooltip_open(b);
			ss_buf_add_htmls(b, full[i]);
			ss_buf_adds(b, "</title>");
		}
		ss_buf_add_htmls(b, lab->text);
		ss_buf_adds(b, "</text>\n");
	}
	ss_buf_adds(b, "</g>\n");
}

void ss_chart_bars(struct ss_buf *out, const struct ss_chart *c,
		   const struct ss_bar *bars, size_t n)
{
	struct ss_frame f;
	struct ss_labels labels;
	const char **names;
	double ymax = c->y_max_hint > 0 ? c->y_max_hint : 0, ymin = 0, band, bw;
	size_t i;

	for (i = 0; i < n; i++) {
		double hi = bars[i].has_interval ? fmax(bars[i].value, bars[i].hi) : bars[i].value;
		double lo = bars[i].has_interval ? fmin(bars[i].value, bars[i].lo) : bars[i].value;

		if (isfinite(hi) && hi > ymax)
			ymax = hi;
		if (isfinite(lo) && lo < ymin)
			ymin = lo;
	}
	if (ymax == ymin)
		ymax = ymin + 1;
	ss_ticks_nice(&f.yt, ymin, ymax, SS_CH_MAX_TICK_INTERVALS);
	ss_frame_left(&f, c, 44);
	band = n ? (f.right - f.left) / (double)n : (f.right - f.left);
	names = ss_calloc(n ? n : 1, sizeof(*names));
	if (!names) {
		out->failed = true;
		return;
	}
	for (i = 0; i < n; i++)
		names[i] = bars[i].label ? bars[i].label : "";
	/* the labels' room: what is left under the plot, at most a third */
	if (!ss_labels_place(&labels, names, n, f.left, band, 0,
			     fmin(f.h * 0.3, 130), f.left, SS_CH_FONT)) {
		ss_free(names);
		out->failed = true;
		return;
	}
	f.bottom = f.h - (8 + SS_CH_FONT_AXIS + 6) - labels.extent - 2;
	for (i = 0; i < labels.n; i++)
		labels.v[i].y += f.bottom;

	ss_svg_open(out, c);
	ss_frame_y_axis(out, c, &f);

	bw = band * (n > 12 ? 0.72 : 0.62);
	if (bw > 90)
		bw = 90;
	ss_buf_adds(out, "<g fill=\"");
	ss_buf_adds(out, ss_chart_color(0));
	ss_buf_adds(out, "\">\n");
	for (i = 0; i < n; i++) {
		double cx = f.left + ((double)i + 0.5) * band, y, h;

		if (!isfinite(bars[i].value))
			continue;
		ss_chart_bar_geom(&f.ys, bars[i].value, &y, &h);
		ss_buf_adds(out, "<rect");
		ss_svg_attr(out, "x", cx - bw / 2);
		ss_svg_attr(out, "y", y);
		ss_svg_attr(out, "width", bw);
		ss_svg_attr(out, "height", h);
		ss_buf_adds(out, "><title>");
		ss_buf_add_htmls(out, names[i]);
		ss_buf_adds(out, ": ");
		ss_chart_value_text(out, c, bars[i].value);
		if (bars[i].has_interval) {
			ss_buf_adds(out, " (interval ");
			ss_chart_value_text(out, c, bars[i].lo);
			ss_buf_adds(out, "\xE2\x80\x93");
			ss_chart_value_text(out, c, bars[i].hi);
			ss_buf_addc(out, ')');
		}
		ss_buf_adds(out, "</title></rect>\n");
	}
	ss_buf_adds(out, "</g>\n");

	/* whiskers: a vertical line with caps */
	ss_buf_adds(out, "<g stroke=\"" SS_CH_INK "\" stroke-width=\"1.5\">\n");
	for (i = 0; i < n; i++) {
		double cx = f.left + ((double)i + 0.5) * band, ylo, yhi, cap = fmin(bw * 0.3, 8);

		if (!bars[i].has_interval || !isfinite(bars[i].lo) || !isfinite(bars[i].hi))
			continue;
		ylo = ss_scale_map(&f.ys, bars[i].lo);
		yhi = ss_scale_map(&f.ys, bars[i].hi);
		ss_svg_line(out, cx, ylo, cx, yhi);
		ss_svg_line(out, cx - cap, ylo, cx + cap, ylo);
		ss_svg_line(out, cx - cap, yhi, cx + cap, yhi);
	}
	ss_buf_adds(out, "</g>\n");

	if (c->show_values) {
		ss_buf_adds(out, "<g fill=\"" SS_CH_INK "\" font-size=\"11\" text-anchor=\"middle\">\n");
		for (i = 0; i < n; i++) {
			struct ss_buf v = SS_BUF_INIT;
			double cx = f.left + ((double)i + 0.5) * band, top;

			if (!isfinite(bars[i].value))
				continue;
			ss_chart_value_text(&v, c, bars[i].value);
			if (v.data && ss_text_width(v.data, v.len, SS_CH_FONT_VALUE) <= band - 2) {
				top = ss_scale_map(&f.ys, bars[i].value > 0 ? bars[i].value : 0);
				if (bars[i].has_interval && isfinite(bars[i].hi))
					top = fmin(top, ss_scale_map(&f.ys, bars[i].hi));
				ss_svg_text(out, cx, top - 4, NULL, NULL, v.data);
			}
			ss_buf_release(&v);
		}
		ss_buf_adds(out, "</g>\n");
	}
	ss_frame_axis_line(out, &f);
	if (ss_ticks_value(&f.yt, 0) < 0) {
		/* bars go both ways: the zero line is the baseline */
		ss_buf_adds(out, "<g stroke=\"" SS_CH_AXIS "\" stroke-width=\"1\">\n");
		ss_svg_line(out, f.left, ss_scale_map(&f.ys, 0), f.right, ss_scale_map(&f.ys, 0));
		ss_buf_adds(out, "</g>\n");
	}
	draw_labels(out, &labels, names);
	ss_frame_x_title(out, c, &f);
	ss_buf_adds(out, "</svg>\n");
	ss_labels_release(&labels);
	ss_free(names);
}
