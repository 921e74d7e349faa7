/*
 * aggjson.c - the `specscan` member of the aggregate JSON (SPEC 4.1): the
 * inputs, the accounting, the phases and the engines. report.c composes
 * the document, laid out as Python's json.dumps(indent=2) writes it.
 */
#include <stdint.h>

#include "report/jsonw.h"
#include "report/report.h"
#include "report/report_int.h"

void ss_report_json_specscan(struct ss_jsonw *w, const struct ss_agg *a, const char *version)
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
		if (in->log) {   /* SPEC 12.1, 13 */
			ss_jsonw_u64(w, "log_lines", in->log_lines);
			ss_jsonw_u64(w, "bad_lines", in->bad_lines);
			ss_jsonw_u64(w, "refused_lines", in->refused_lines);
		}
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
