/*
 * Unit tests of the chart core (report/chart.h): scales and bar geometry,
 * nice ticks, text shortening, label placement without overlap, histogram
 * bins and escaping. Every expected value is worked out by hand in the
 * comment next to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "report/chart.h"
#include "report/htmlesc.h"
#include "util/alloc.h"

static char out[4096];

static const char *fixed(double v, int d)
{
	struct ss_buf b = SS_BUF_INIT;

	ss_chart_add_fixed(&b, v, d);
	assert_false(b.failed);
	snprintf(out, sizeof(out), "%s", b.data ? b.data : "");
	ss_buf_release(&b);
	return out;
}

static const char *esc(const char *s, size_t n)
{
	struct ss_buf b = SS_BUF_INIT;

	ss_buf_add_html(&b, s, n);
	assert_false(b.failed);
	snprintf(out, sizeof(out), "%s", b.data ? b.data : "");
	ss_buf_release(&b);
	return out;
}

static void test_escape(void **state)
{
	(void)state;
	assert_string_equal(esc("<script>&\"'", 11), "&lt;script&gt;&amp;&quot;&#39;");
	assert_string_equal(esc("plain", 5), "plain");
	assert_string_equal(esc("", 0), "");
	/* valid UTF-8 stays, an invalid byte and a NUL become U+FFFD */
	assert_string_equal(esc("caf\xC3\xA9", 5), "caf\xC3\xA9");
	assert_string_equal(esc("a\xFFz", 3), "a\xEF\xBF\xBDz");
	assert_string_equal(esc("a\0b", 3), "a\xEF\xBF\xBD" "b");
	/* an overlong '<' (C0 BC) must not survive as anything but U+FFFD */
	assert_string_equal(esc("\xC0\xBC", 2), "\xEF\xBF\xBD\xEF\xBF\xBD");
	/* a truncated sequence at the end */
	assert_string_equal(esc("x\xE2\x80", 3), "x\xEF\xBF\xBD\xEF\xBF\xBD");
	/* tab and newline kept, other controls replaced */
	assert_string_equal(esc("a\tb\nc\x1b", 6), "a\tb\nc\xEF\xBF\xBD");
}

static void test_fixed(void **state)
{
	(void)state;
	assert_string_equal(fixed(0.6, 1), "0.6");
	assert_string_equal(fixed(100, 0), "100");
	assert_string_equal(fixed(2.25, 1), "2.3");        /* exact tie: away from 0 */
	assert_string_equal(fixed(-0.04, 1), "0.0");       /* no "-0.0" */
	assert_string_equal(fixed(-1.5, 2), "-1.50");
	assert_string_equal(fixed(0.05, 2), "0.05");
	assert_string_equal(fixed(1234567.891, 2), "1234567.89");
	assert_string_equal(fixed(NAN, 2), "");
	{
		struct ss_buf b = SS_BUF_INIT;

		/* 2 of 12,534 is 0.016%: present, so "<0.1", not "0.0" */
		ss_chart_add_small(&b, 2.0 / 12534 * 100, 1);
		ss_buf_addc(&b, ' ');
		ss_chart_add_small(&b, 0.0, 1);
		ss_buf_addc(&b, ' ');
		ss_chart_add_small(&b, 0.05, 1);       /* rounds to 0.1: shown */
		ss_buf_addc(&b, ' ');
		ss_chart_add_small(&b, 0.004, 2);
		assert_string_equal(b.data, "<0.1 0.0 0.1 <0.01");
		ss_buf_release(&b);
	}
}

static void test_scale_and_bar(void **state)
{
	struct ss_scale s;
	double y, h;

	(void)state;
	/* domain [0, 100] onto [300, 50]: the y axis of a plot 250 px tall
	 * whose bottom is at 300 */
	ss_scale_init(&s, 0, 100, 300, 50);
	assert_true(ss_scale_map(&s, 0) == 300);
	assert_true(ss_scale_map(&s, 100) == 50);
	assert_true(ss_scale_map(&s, 40) == 200);      /* 300 - 0.4 x 250 */
	/* a bar of 25: top at 300 - 62.5 = 237.5, 62.5 tall */
	ss_chart_bar_geom(&s, 25, &y, &h);
	assert_true(y == 237.5);
	assert_true(h == 62.5);
	ss_chart_bar_geom(&s, 0, &y, &h);
	assert_true(y == 300 && h == 0);
	ss_chart_bar_geom(&s, 100, &y, &h);
	assert_true(y == 50 && h == 250);
	/* a negative value hangs down from the zero line: domain [-50, 50]
	 * onto [300, 100], zero at 200, -25 is 50 px below it */
	ss_scale_init(&s, -50, 50, 300, 100);
	ss_chart_bar_geom(&s, -25, &y, &h);
	assert_true(y == 200 && h == 50);
	/* a degenerate domain maps to r0 */
	ss_scale_init(&s, 3, 3, 10, 20);
	assert_true(ss_scale_map(&s, 7) == 10);
}

static void expect_ticks(double lo, double hi, int maxi, double first, double step,
			 int count, int decimals)
{
	struct ss_ticks t;
	int i;

	ss_ticks_nice(&t, lo, hi, maxi);
	assert_int_equal(t.count, count);
	assert_int_equal(t.decimals, decimals);
	assert_true(t.step == step);
	assert_true(ss_ticks_value(&t, 0) == first);
	for (i = 0; i < count; i++) {
		/* first + i x step as the nearest double to the decimal: the
		 * products below are exact in these cases, the division one
		 * rounding, as in the module */
		double want = decimals ? (first * 1e3 + i * step * 1e3) / 1e3 : first + i * step;

		assert_true(fabs(ss_ticks_value(&t, i) - want) < 1e-12);
	}
}

static void test_ticks(void **state)
{
	struct ss_ticks t;
	int mant, e;

	(void)state;
	/* [0, 1], at most 5 intervals: 1/5 = 0.2 is nice: 0, 0.2, ..., 1 */
	expect_ticks(0, 1, 5, 0, 0.2, 6, 1);
	ss_ticks_nice(&t, 0, 1, 5);
	assert_true(ss_ticks_value(&t, 3) == 0.6);     /* exactly the double 0.6 */
	assert_true(ss_ticks_last(&t) == 1.0);
	/* [0, 87]: 87/5 = 17.4 -> 20; 87/20 = 4.35 -> up to 100: 6 ticks */
	expect_ticks(0, 87, 5, 0, 20, 6, 0);
	/* [0, 100]: 20 again, 0..100 */
	expect_ticks(0, 100, 5, 0, 20, 6, 0);
	/* [1, 4.2]: 3.2/5 = 0.64 -> 1; 1..5 is 4 intervals */
	expect_ticks(1, 4.2, 5, 1, 1, 5, 0);
	/* [0, 0.037]: 0.0074 -> 0.01; up to 0.04: 0, 0.01, ..., 0.04 */
	expect_ticks(0, 0.037, 5, 0, 0.01, 5, 2);
	/* [-3, 7]: 10/5 = 2 -> 2 gives -4..8 = 6 intervals, too many; 5
	 * gives -5, 0, 5, 10 */
	expect_ticks(-3, 7, 5, -5, 5, 4, 0);
	/* [5, 5] is widened to [4.5, 5.5]: 0.2 gives 4.4..5.6 (6 intervals),
	 * 0.5 gives 4.5, 5, 5.5 */
	expect_ticks(5, 5, 5, 4.5, 0.5, 3, 1);
	/* [0, 1234]: 246.8 -> 500: 0, 500, 1000, 1500 */
	expect_ticks(0, 1234, 5, 0, 500, 4, 0);
	/* [0, 25.3] (a histogram in %): 5.06 -> 10: 0, 10, 20, 30 */
	expect_ticks(0, 25.3, 5, 0, 10, 4, 0);

	assert_true(ss_nice_step(0.2, &mant, &e) == 0.2);
	assert_int_equal(mant, 2);
	assert_int_equal(e, -1);
	assert_true(ss_nice_step(17.4, &mant, &e) == 20);
	assert_true(ss_nice_step(1, &mant, &e) == 1);
	assert_true(ss_nice_step(1.0000001, &mant, &e) == 2);
	assert_true(ss_nice_step(7, &mant, &e) == 10);
	assert_int_equal(mant, 1);
	assert_int_equal(e, 1);
	assert_true(ss_nice_step(0.0074, &mant, &e) == 0.01);
	assert_true(ss_nice_step(1000, &mant, &e) == 1000);
}

static void test_text(void **state)
{
	char *s;
	bool sh;

	(void)state;
	/* widths in em: digits and most lower case 0.65, 'i' 0.34, 'M' 1.0 */
	assert_true(fabs(ss_text_width("100", 3, 12) - 3 * 0.65 * 12) < 1e-9);
	assert_true(fabs(ss_text_width("iM", 2, 10) - (0.34 + 1.0) * 10) < 1e-9);
	/* a two-byte character counts once, as a full em */
	assert_true(fabs(ss_text_width("\xC3\xA9", 2, 10) - 10) < 1e-9);

	/* 26 letters at 7.8 px = 202.8 px into 100 px: the ellipsis takes
	 * 12 px, 88 px leave 11 characters (85.8 px), 6 from the start and 5
	 * from the end */
	s = ss_text_shorten("abcdefghijklmnopqrstuvwxyz", 100, 12, &sh);
	assert_non_null(s);
	assert_true(sh);
	assert_string_equal(s, "abcdef\xE2\x80\xA6vwxyz");
	ss_free(s);
	/* a text that fits is copied */
	s = ss_text_shorten("vllm", 100, 12, &sh);
	assert_string_equal(s, "vllm");
	assert_false(sh);
	ss_free(s);
	/* multi-byte characters are never cut in the middle: 10 x 12 px of
	 * CJK into 60 px: 48 px left for 4 characters, 2 + 2 */
	s = ss_text_shorten("\xE4\xB8\x80\xE4\xB8\x81\xE4\xB8\x82\xE4\xB8\x83\xE4\xB8\x84"
			    "\xE4\xB8\x85\xE4\xB8\x86\xE4\xB8\x87\xE4\xB8\x88\xE4\xB8\x89", 60, 12, &sh);
	assert_true(sh);
	assert_string_equal(s, "\xE4\xB8\x80\xE4\xB8\x81\xE2\x80\xA6\xE4\xB8\x88\xE4\xB8\x89");
	ss_free(s);
}

/*
 * The box a label's text covers: from its anchor back along the text by its
 * width (anchor at the end) or centred (horizontal), from 0.8 em above the
 * baseline to 0.25 em below, rotated by the label angle about the anchor.
 */
struct quad {
	double x[4], y[4];
};

static struct quad label_box(const struct ss_labels *l, const struct ss_label *lab)
{
	double a = l->angle * M_PI / 180.0, c = cos(a), s = sin(a);
	double u0, u1, v0 = -0.8 * l->font, v1 = 0.25 * l->font;
	double us[4], vs[4];
	struct quad q;
	int i;

	if (l->mode == SS_LABELS_HORIZONTAL)
		u0 = -lab->width / 2, u1 = lab->width / 2;
	else
		u0 = -lab->width, u1 = 0;
	us[0] = u0, vs[0] = v0;
	us[1] = u1, vs[1] = v0;
	us[2] = u1, vs[2] = v1;
	us[3] = u0, vs[3] = v1;
	for (i = 0; i < 4; i++) {
		q.x[i] = lab->x + us[i] * c - vs[i] * s;
		q.y[i] = lab->y + us[i] * s + vs[i] * c;
	}
	return q;
}

/* Separating axis test for two convex quadrilaterals: true when disjoint
 * (touching counts as disjoint). */
static bool quads_disjoint(const struct quad *p, const struct quad *q)
{
	const struct quad *both[2] = {p, q};
	int k, i, j;

	for (k = 0; k < 2; k++)
		for (i = 0; i < 4; i++) {
			const struct quad *e = both[k];
			double nx = -(e->y[(i + 1) % 4] - e->y[i]), ny = e->x[(i + 1) % 4] - e->x[i];
			double pmin = INFINITY, pmax = -INFINITY, qmin = INFINITY, qmax = -INFINITY;

			for (j = 0; j < 4; j++) {
				double a = p->x[j] * nx + p->y[j] * ny, b = q->x[j] * nx + q->y[j] * ny;

				pmin = fmin(pmin, a), pmax = fmax(pmax, a);
				qmin = fmin(qmin, b), qmax = fmax(qmax, b);
			}
			if (pmax <= qmin + 1e-9 || qmax <= pmin + 1e-9)
				return true;
		}
	return false;
}

static void check_layout(const struct ss_labels *l, double axis_y)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		struct quad a;

		if (!l->v[i].shown)
			continue;
		a = label_box(l, &l->v[i]);
		for (j = 0; j < 4; j++) {
			assert_true(a.y[j] > axis_y);                   /* below the axis */
			assert_true(a.y[j] <= axis_y + l->extent + 1e-9); /* within its room */
			assert_true(a.x[j] >= 0);                       /* inside the chart */
		}
		for (j = i + 1; j < l->n; j++) {
			struct quad b;

			if (!l->v[j].shown)
				continue;
			b = label_box(l, &l->v[j]);
			assert_true(quads_disjoint(&a, &b));
		}
	}
}

static void test_labels_one(void **state)
{
	struct ss_labels l;
	const char *one[] = {"vllm"};
	const char *longname[] = {
		"/data/benchmarks/2026-11-30/qwen3-8b-eagle3-k4-temperature-0.7/profile_export_aiperf.jsonl"};

	(void)state;
	/* one short name in a 500 px band: horizontal, centred at 60 + 250 */
	assert_true(ss_labels_place(&l, one, 1, 60, 500, 300, 100, 60, 12));
	assert_int_equal(l.mode, SS_LABELS_HORIZONTAL);
	assert_true(l.v[0].shown);
	assert_false(l.v[0].shortened);
	assert_true(l.v[0].x == 310);
	assert_string_equal(l.v[0].text, "vllm");
	check_layout(&l, 300);
	ss_labels_release(&l);
	/* one very long name: still horizontal (the band is wide), shortened
	 * to the band less 6 px, with the full name kept for the tooltip */
	assert_true(ss_labels_place(&l, longname, 1, 60, 500, 300, 100, 60, 12));
	assert_int_equal(l.mode, SS_LABELS_HORIZONTAL);
	assert_true(l.v[0].shortened);
	assert_true(l.v[0].width <= 494);
	assert_non_null(strstr(l.v[0].text, "\xE2\x80\xA6"));
	assert_int_equal(strncmp(l.v[0].text, "/data/", 6), 0);
	check_layout(&l, 300);
	ss_labels_release(&l);
}

static void test_labels_twenty(void **state)
{
	struct ss_labels l;
	char names[20][64];
	const char *p[20];
	size_t i;

	(void)state;
	/* 20 short names ("g01" = 3 x 7.8 = 23.4 px) in 30 px bands fit
	 * horizontally (23.4 <= 30 - 6) */
	for (i = 0; i < 20; i++) {
		snprintf(names[i], sizeof(names[i]), "g%02zu", i + 1);
		p[i] = names[i];
	}
	assert_true(ss_labels_place(&l, p, 20, 70, 30, 250, 100, 70, 12));
	assert_int_equal(l.mode, SS_LABELS_HORIZONTAL);
	for (i = 0; i < 20; i++)
		assert_true(l.v[i].shown && !l.v[i].shortened);
	check_layout(&l, 250);
	ss_labels_release(&l);

	/* 20 model names in 30 px bands: rotated by -45 degrees; 30 x sin 45 =
	 * 21.2 px between lines of text >= 15.6, so all are shown */
	for (i = 0; i < 20; i++) {
		snprintf(names[i], sizeof(names[i]), "org/model-%02zu-with-a-rather-long-name", i + 1);
		p[i] = names[i];
	}
	assert_true(ss_labels_place(&l, p, 20, 70, 30, 250, 100, 70, 12));
	assert_int_equal(l.mode, SS_LABELS_ROTATED);
	assert_true(l.angle == -45);
	assert_int_equal(l.every, 1);
	for (i = 0; i < 20; i++) {
		assert_true(l.v[i].shown);
		assert_true(l.v[i].shortened);         /* 100 px of room is not enough */
		assert_true(l.extent <= 100 + 1e-9);
	}
	check_layout(&l, 250);
	ss_labels_release(&l);

	/* the same in 15 px bands: 15 x sin 45 = 10.6 < 15.6, so every
	 * second label (21.2 px apart) */
	assert_true(ss_labels_place(&l, p, 20, 70, 15, 250, 100, 70, 12));
	assert_int_equal(l.mode, SS_LABELS_ROTATED);
	assert_int_equal(l.every, 2);
	for (i = 0; i < 20; i++)
		assert_true(l.v[i].shown == (i % 2 == 0));
	check_layout(&l, 250);
	ss_labels_release(&l);
}

static void test_bins(void **state)
{
	static const double v[] = {1.0, 1.5, 2.0, 2.5, 3.0, 3.25, 4.0, 4.0, 5.0};
	static const double same[] = {3.0, 3.0};
	static const double tenths[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
	struct ss_bins b;

	(void)state;
	/* 9 values: sqrt(9) = 3 bins; (5 - 1) / 3 = 1.33 -> width 2; edges on
	 * multiples of 2: [0,2) [2,4) [4,6) */
	assert_true(ss_bins_compute(&b, v, 9));
	assert_true(b.width == 2 && b.lo == 0);
	assert_int_equal(b.n, 3);
	assert_int_equal(b.count[0], 2);       /* 1.0 1.5 */
	assert_int_equal(b.count[1], 4);       /* 2.0 2.5 3.0 3.25 */
	assert_int_equal(b.count[2], 3);       /* 4.0 4.0 5.0 */
	assert_int_equal(b.total, 9);
	assert_true(ss_bins_edge(&b, 3) == 6);
	ss_bins_release(&b);
	/* all equal: the nice step of 3 is 5 x 10^0, so bins 10^-1 wide; one
	 * bin [3.0, 3.1) */
	assert_true(ss_bins_compute(&b, same, 2));
	assert_int_equal(b.n, 1);
	assert_true(b.width == 0.1);
	assert_true(b.lo == 3.0);
	assert_int_equal(b.count[0], 2);
	ss_bins_release(&b);
	/* 0.1 .. 1.0: ceil(sqrt(10)) = 4 bins, 0.9 / 4 = 0.225 -> 0.5; edges
	 * 0, 0.5, 1.0, 1.5: [0, 0.5) holds 0.1..0.4, [0.5, 1) 0.5..0.9 and
	 * 1.0 opens a third bin. 0.3 / 0.1 is 2.9999999999999996 in binary:
	 * the tolerance matters for edges like this one. */
	assert_true(ss_bins_compute(&b, tenths, 10));
	assert_true(b.width == 0.5);
	assert_int_equal(b.n, 3);
	assert_int_equal(b.count[0], 4);
	assert_int_equal(b.count[1], 5);
	assert_int_equal(b.count[2], 1);
	ss_bins_release(&b);
	/* nothing finite: no bins */
	{
		const double nan1[] = {NAN};

		assert_false(ss_bins_compute(&b, nan1, 1));
	}
}

/* A whole chart: well formed, accessible, escaped, deterministic. */
static void test_chart_output(void **state)
{
	struct ss_bar bars[3] = {
		{"<script>alert(1)</script>", 25, false, 0, 0},
		{"a&b \"quoted\" 'x'", 50, true, 40, 60},
		{"c", NAN, false, 0, 0},
	};
	struct ss_chart c = {
		.id = "c1", .title = "Title <b>", .desc = "Desc & more",
		.x_label = "Group", .y_label = "Share (%)", .show_values = true,
		.value_decimals = 1, .value_suffix = "%",
	};
	struct ss_buf a = SS_BUF_INIT, b = SS_BUF_INIT;

	(void)state;
	ss_chart_bars(&a, &c, bars, 3);
	ss_chart_bars(&b, &c, bars, 3);
	assert_false(a.failed);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	assert_null(strstr(a.data, "<script"));
	assert_null(strstr(a.data, "<b>"));
	assert_non_null(strstr(a.data, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(a.data, "a&amp;b &quot;quoted&quot; &#39;x&#39;"));
	assert_non_null(strstr(a.data, "role=\"img\""));
	assert_non_null(strstr(a.data, "<title id=\"c1-t\">Title &lt;b&gt;</title>"));
	assert_non_null(strstr(a.data, "<desc id=\"c1-d\">Desc &amp; more</desc>"));
	assert_non_null(strstr(a.data, ">25.0%<"));
	assert_non_null(strstr(a.data, "(interval 40.0%\xE2\x80\x93" "60.0%)"));
	assert_int_equal(strncmp(a.data, "<svg ", 5), 0);
	assert_string_equal(a.data + a.len - 7, "</svg>\n");
	ss_buf_release(&a);
	ss_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_scale_and_bar),
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_labels_one),
		cmocka_unit_test(test_labels_twenty),
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_chart_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
