/*
 * html_read.c - the "What was read" section of the HTML report: the inputs
 * (the first MAX_INPUT_ROWS by name), the requests by status, the phases,
 * the engines and the versions.
 */
#include <stdint.h>

#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"

/* Inputs listed by name; the rest are summed in one line. */
#define MAX_INPUT_ROWS 50

void ss_html_read(struct ss_buf *b, const struct ss_agg *a, const struct ss_html_opts *o)
{
	uint64_t rest_inputs = 0, rest_requests = 0;

	ss_buf_adds(b, "<section id=\"read\">\n<h2>What was read</h2>\n");
	ss_buf_adds(b, "<div class=\"fig\">\n<table>\n<caption>Inputs</caption>\n"
		    "<thead><tr><th>#</th><th class=\"l\">Input</th><th class=\"l\">Kind</th>"
		    "<th>Requests</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];

		if (i >= MAX_INPUT_ROWS) {
			rest_inputs++;
			rest_requests += in->requests;
			continue;
		}
		ss_buf_adds(b, "<tr><td>");
		ss_buf_add_u64(b, i + 1);
		ss_buf_adds(b, "</td><td class=\"name\">");
		ss_buf_add_htmls(b, in->name);
		if (in->failed)
			ss_buf_adds(b, " <strong>(read failed)</strong>");
		ss_buf_adds(b, "</td><td class=\"l\">");
		ss_buf_adds(b, ss_input_kind_name(in));
		if (in->server) {   /* SPEC 10.1: its snapshots */
			ss_buf_adds(b, " (");
			ss_buf_add_u64_grouped(b, in->snapshots);
			ss_buf_adds(b, in->snapshots == 1 ? " snapshot)" : " snapshots)");
		}
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_u64_grouped(b, in->requests);
		ss_buf_adds(b, "</td></tr>\n");
	}
	if (rest_inputs) {
		ss_buf_adds(b, "<tr><td></td><td class=\"name\">&hellip; and ");
		ss_buf_add_u64_grouped(b, rest_inputs);
		ss_buf_adds(b, " more inputs</td><td></td><td>");
		ss_buf_add_u64_grouped(b, rest_requests);
		ss_buf_adds(b, "</td></tr>\n");
	}
	if (a->ninputs == 0)
		ss_buf_adds(b, "<tr><td></td><td class=\"name\">(no input)</td><td></td><td>0</td></tr>\n");
	ss_buf_adds(b, "</tbody>\n</table>\n");

	/* the accounting: every status that occurred, then the total */
	ss_buf_adds(b, "<table>\n<caption>Requests by status</caption>\n"
		    "<thead><tr><th>Status</th><th>Requests</th><th>Share (%)</th></tr></thead>\n<tbody>\n");
	for (int s = 0; s < SS_ST_COUNT; s++) {
		if (!a->status[s])
			continue;
		ss_buf_adds(b, "<tr><td>");
		ss_buf_adds(b, ss_status_label((enum ss_status)s));
		ss_buf_adds(b, " <code>");
		ss_buf_adds(b, ss_status_name((enum ss_status)s));
		ss_buf_adds(b, "</code></td><td>");
		ss_buf_add_u64_grouped(b, a->status[s]);
		ss_buf_adds(b, "</td><td>");
		ss_html_add_pct(b, (double)a->status[s], (double)a->total);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "<tr class=\"total\"><td>total</td><td>");
	ss_buf_add_u64_grouped(b, a->total);
	ss_buf_adds(b, "</td><td>");
	ss_buf_adds(b, a->total ? "100.0" : "0.0");
	ss_buf_adds(b, "</td></tr>\n</tbody>\n</table>\n</div>\n");

	ss_buf_adds(b, "<p>Phases: ");
	ss_buf_add_u64_grouped(b, a->phases[SS_PHASE_PROFILING]);
	ss_buf_adds(b, " profiling, ");
	ss_buf_add_u64_grouped(b, a->phases[SS_PHASE_WARMUP]);
	ss_buf_adds(b, " warmup. The results below are of the ");
	ss_buf_adds(b, a->mode == SS_PHASES_WARMUP ? "warmup requests (<code>--phase warmup</code>)" :
		       a->mode == SS_PHASES_ALL ? "requests of both phases (<code>--phase all</code>)" :
		       "profiling requests");
	ss_buf_adds(b, ".");
	if (a->nengines) {
		ss_buf_adds(b, " Engines of the records: ");
		for (size_t i = 0; i < a->nengines; i++) {
			if (i)
				ss_buf_adds(b, ", ");
			ss_buf_add_htmls(b, a->engines[i].name);
			ss_buf_adds(b, " (");
			ss_buf_add_u64_grouped(b, a->engines[i].count);
			ss_buf_adds(b, ")");
		}
		ss_buf_adds(b, ".");
	}
	ss_buf_adds(b, "</p>\n<p class=\"note\">Versions: specscan ");
	ss_buf_add_htmls(b, o->version);
	if (o->libraries) {
		ss_buf_adds(b, "; ");
		ss_buf_add_htmls(b, o->libraries);
	}
	ss_buf_adds(b, ".</p>\n</section>\n");
}

