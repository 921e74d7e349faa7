/*
 * chart_demo - writes an HTML page with one chart of each kind to stdout,
 * for tests/cli/test_htmlcheck.py (the charts in a real browser) and for a
 * look by hand. The data are made up; hostile and long names included.
 */
#include <math.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/htmlesc.h"

int main(void)
{
	struct ss_buf b = SS_BUF_INIT;
	struct ss_bar hist[6], groups[20], one[1];
	static const double pct[6] = {25.1, 18.0, 15.2, 13.3, 11.6, 16.8};
	double pos[4] = {1, 2, 3, 4}, rate[4] = {81.8, 54.5, 36.4, 9.1}, cond[4] = {81.8, 66.7, 66.7, 25.0};
	double tau[4] = {1.82, 2.36, 2.73, 2.82}, speed[4] = {1.65, 1.97, 2.10, 2.01};
	double vals[200];
	char gnames[20][80], hnames[6][8];
	struct ss_series rates[2] = {
		{"Rate (i-th draft token accepted)", pos, rate, 4},
		{"Conditional (given i-1 accepted)", pos, cond, 4},
	};
	struct ss_series taus[2] = {
		{"Acceptance length \xCF\x84(k')", pos, tau, 4},
		{"Speedup (draft cost 0.1)", pos, speed, 4},
	};
	struct ss_line_opts lo = {true, 3, "suggested k=3", NAN};
	struct ss_bins bins;
	size_t i;

	for (i = 0; i < 6; i++) {
		snprintf(hnames[i], sizeof(hnames[i]), "%zu", i);
		hist[i] = (struct ss_bar){hnames[i], pct[i], false, 0, 0};
	}
	for (i = 0; i < 20; i++) {
		double v = 2.0 + 1.5 * sin((double)i * 0.7) * 0.5 + (double)i * 0.05;

		if (i == 3)
			snprintf(gnames[i], sizeof(gnames[i]), "<script>alert('x')</script>&amp;");
		else
			snprintf(gnames[i], sizeof(gnames[i]), "runs/2026-11-30/qwen3-8b-eagle-k4-%02zu.jsonl", i);
		groups[i] = (struct ss_bar){gnames[i], v, true, v - 0.15 - 0.01 * (double)i, v + 0.12};
	}
	one[0] = (struct ss_bar){"/very/long/path/to/an/input/file/that/goes/on/and/on/profile_export_aiperf.jsonl",
				 2.82, true, 2.6, 3.0};
	for (i = 0; i < 200; i++)
		vals[i] = 1.0 + 4.0 * (0.5 + 0.5 * sin((double)i * 1.37)) * (0.5 + 0.5 * cos((double)i * 0.11));

	ss_buf_adds(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<title>chart demo</title><link rel=\"icon\" href=\"data:,\">"
		    "<style>body{font-family:sans-serif;margin:16px;background:#fff}"
		    "svg.chart{max-width:100%;height:auto;display:block;margin:8px 0}"
		    ".row{display:flex;flex-wrap:wrap;gap:16px}</style></head><body>\n"
		    "<h1>Chart demo</h1>\n<div class=\"row\">\n");
	ss_chart_bars(&b, &(struct ss_chart){
		.id = "hist", .title = "Accepted drafts per step",
		.desc = "Share of verify steps by number of accepted draft tokens.",
		.x_label = "Accepted draft tokens in a step", .y_label = "Share of steps (%)",
		.width = 600, .height = 340, .show_values = true, .value_decimals = 1,
		.value_suffix = "%"}, hist, 6);
	ss_chart_lines(&b, &(struct ss_chart){
		.id = "pos", .title = "Acceptance by position (k=4)",
		.desc = "Probability that the i-th draft token is accepted.",
		.x_label = "Draft position i", .y_label = "Accepted (% of steps)",
		.width = 600, .height = 340, .y_max_hint = 100, .value_decimals = 1,
		.value_suffix = "%"}, &(struct ss_line_opts){true, NAN, NULL, NAN}, rates, 2);
	ss_chart_lines(&b, &(struct ss_chart){
		.id = "tau", .title = "If the draft were shorter (k=4)",
		.desc = "Acceptance length and speedup for draft lengths 1 to 4.",
		.x_label = "Draft length k'", .y_label = "Tokens per step / speedup (x)",
		.width = 600, .height = 340, .value_decimals = 2}, &lo, taus, 2);
	if (ss_bins_compute(&bins, vals, 200)) {
		ss_chart_histogram(&b, &(struct ss_chart){
			.id = "dist", .title = "Acceptance length per request",
			.desc = "Histogram of the requests' mean acceptance lengths.",
			.x_label = "Acceptance length (tokens per step)", .y_label = "Requests (count)",
			.width = 600, .height = 340}, &bins);
		ss_bins_release(&bins);
	}
	ss_buf_adds(&b, "</div>\n");
	ss_chart_bars(&b, &(struct ss_chart){
		.id = "groups", .title = "Acceptance length by input (95% intervals)",
		.desc = "Mean acceptance length of each of 20 groups with bootstrap intervals.",
		.x_label = "Input", .y_label = "Acceptance length (tokens per step)",
		.width = 1200, .height = 420, .show_values = true, .value_decimals = 2}, groups, 20);
	ss_chart_bars(&b, &(struct ss_chart){
		.id = "one", .title = "Acceptance length, one group",
		.desc = "One group with a long name.", .x_label = "Input",
		.y_label = "Acceptance length (tokens per step)", .width = 600, .height = 300,
		.show_values = true, .value_decimals = 2}, one, 1);
	ss_buf_adds(&b, "</body></html>\n");
	if (b.failed)
		return 1;
	fwrite(b.data, 1, b.len, stdout);
	ss_buf_release(&b);
	return 0;
}
