/*
 * chart_hist.c - the histogram of chart.h: the bins of chart_geom.h as
 * contiguous bars, with edge labels that never touch.
 */
#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/chart_svg.h"
#include "report/htmlesc.h"

void ss_chart_histogram(struct ss_buf *out, const struct ss_chart *c, const struct ss_bins *b)
{
	struct ss_frame f;
	struct ss_scale xs;
	uint64_t cmax = 0;
	double binpx, lw;
	int64_t i, every = 1, padl = 0, padr = 0, nb = (int64_t)b->n;
	int decimals = b->exp10 < 0 ? -b->exp10 : 0;

	/* A few bins alone would fill the whole width: draw empty bins
	 * around them, up to 5 in all, so the x axis still reads as a range. */
	if (nb < 5) {
		padl = (5 - nb) / 2;
		padr = 5 - nb - padl;
		/* never below zero when the data are not */
		if (b->lo >= 0 && ss_bins_edge(b, -padl) < 0) {
			padr += padl;
			padl = 0;
		}
	}
	for (i = 0; i < nb; i++)
		if (b->count[i] > cmax)
			cmax = b->count[i];
	ss_ticks_integer(&f.yt, 0, cmax ? (double)cmax : 1, SS_CH_MAX_TICK_INTERVALS);
	ss_frame_left(&f, c, 44);
	f.bottom = f.h - (8 + SS_CH_FONT_AXIS + 6) - SS_CH_X_TICK_DY - 6;
	ss_scale_init(&xs, ss_bins_edge(b, -padl), ss_bins_edge(b, nb + padr), f.left, f.right);
	binpx = (f.right - f.left) / (double)(nb + padl + padr);

	ss_svg_open(out, c);
	ss_frame_y_axis(out, c, &f);
	ss_buf_adds(out, "<g fill=\"");
	ss_buf_adds(out, ss_chart_color(0));
	ss_buf_adds(out, "\" stroke=\"#ffffff\" stroke-width=\"1\">\n");
	for (i = 0; i < nb; i++) {
		double y, h;

		if (!b->count[i])
			continue;
		ss_chart_bar_geom(&f.ys, (double)b->count[i], &y, &h);
		ss_buf_adds(out, "<rect");
		ss_svg_attr(out, "x", ss_scale_map(&xs, ss_bins_edge(b, i)));
		ss_svg_attr(out, "y", y);
		ss_svg_attr(out, "width", binpx);
		ss_svg_attr(out, "height", h);
		ss_buf_adds(out, "><title>[");
		ss_chart_add_fixed(out, ss_bins_edge(b, i), decimals);
		ss_buf_adds(out, ", ");
		ss_chart_add_fixed(out, ss_bins_edge(b, i + 1), decimals);
		ss_buf_adds(out, "): ");
		ss_buf_add_u64(out, b->count[i]);
		ss_buf_adds(out, "</title></rect>\n");
	}
	ss_buf_adds(out, "</g>\n");

	/* edge labels, every m-th so that they never touch */
	lw = SS_CH_FONT;
	for (i = -padl; i <= nb + padr; i++) {
		struct ss_buf lab = SS_BUF_INIT;

		ss_chart_add_fixed(&lab, ss_bins_edge(b, i), decimals);
		if (lab.data && ss_text_width(lab.data, lab.len, SS_CH_FONT) > lw)
			lw = ss_text_width(lab.data, lab.len, SS_CH_FONT);
		ss_buf_release(&lab);
	}
	lw += 8;
	while (binpx * (double)every < lw)
		every = every == 1 ? 2 : every == 2 ? 5 : every * 2;
	ss_buf_adds(out, "<g fill=\"" SS_CH_INK "\" text-anchor=\"middle\">\n");
	for (i = -padl; i <= nb + padr; i++) {
		struct ss_buf lab = SS_BUF_INIT;
		double x = ss_scale_map(&xs, ss_bins_edge(b, i));

		if ((i + padl) % every)
			continue;
		ss_chart_add_fixed(&lab, ss_bins_edge(b, i), decimals);
		ss_svg_text(out, x, f.bottom + SS_CH_X_TICK_DY, NULL, NULL, lab.data ? lab.data : "");
		ss_buf_release(&lab);
	}
	ss_buf_adds(out, "</g>\n");
	ss_frame_axis_line(out, &f);
	ss_frame_x_title(out, c, &f);
	ss_buf_adds(out, "</svg>\n");
}

