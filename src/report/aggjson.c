/*
 * aggjson.c - the aggregate JSON (SPEC 4.1), laid out as Python's
 * json.dumps(indent=2) writes it, so AIPerf's consumers read it unchanged:
 * the `specscan` member here, the result sets through results_json.c and
 * the `analysis` key through analysis_json.c and the `server` key through
 * server_jsoncsv.c, all with the writer of jsonw.h.
 */
#include <stdint.h>

#include "report/jsonw.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/server_report.h"

static void add_specscan(struct ss_jsonw *w, const struct ss_agg *a, const char *version)
{
	ss_jsonw_begin_object(w, "specscan");
	ss_jsonw_str(w, "version", version);
	ss_jsonw_begin_array(w, "inputs");
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_str(w, "name", in->name);
		ss_jsonw_str(w, "kind", ss_input_kind_name(in));
		ss_jsonw_u64(w, "requests", in->requests);
		if (in->server)
			ss_jsonw_u64(w, "snapshots", in->snapshots);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_report_add_accounting(w, "requests", a->total, a->status);
	ss_jsonw_begin_object(w, "phases");
	ss_jsonw_u64(w, "profiling", a->phases[SS_PHASE_PROFILING]);
	ss_jsonw_u64(w, "warmup", a->phases[SS_PHASE_WARMUP]);
	ss_jsonw_end_object(w);
	/* ss_agg_finish() sorted them by name */
	ss_jsonw_begin_object(w, "engines");
	for (size_t i = 0; i < a->nengines; i++)
		ss_jsonw_u64(w, a->engines[i].name, a->engines[i].count);
	ss_jsonw_end_object(w);
	ss_jsonw_end_object(w);
}

void ss_report_json_full(struct ss_buf *out, const struct ss_agg *a,
			 const struct ss_analysis *an, const char *version)
{
	ss_report_json_all(out, a, an, NULL, version);
}

void ss_report_json_all(struct ss_buf *out, const struct ss_agg *a,
			const struct ss_analysis *an, const struct ss_server_results *srv,
			const char *version)
{
	struct ss_jsonw w;

	ss_jsonw_init(&w, out);
	ss_jsonw_begin_object(&w, NULL);
	add_specscan(&w, a, version);
	ss_report_add_results(&w, &a->main);
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_jsonw_begin_object(&w, "warmup_metrics");
		ss_report_add_metrics(&w, &a->warmup);
		ss_jsonw_end_object(&w);
	}
	if (an && an->any)
		ss_report_json_analysis(&w, a, an);
	if (srv)
		ss_report_json_server(&w, srv);   /* last (SPEC 10.4) */
	ss_jsonw_end_object(&w);
	ss_buf_addc(out, '\n');
}
