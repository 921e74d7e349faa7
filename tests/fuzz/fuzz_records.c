/*
 * fuzz_records.c - libFuzzer target: the records-line reader (SPEC 2.6,
 * AIPerf `profile_export.jsonl` lines), the enriched-line reader (SPEC
 * 8.1) and the enriched-line writer whose lines must read back through
 * both.
 *
 * The first byte chooses the engine filter (--engine) and whether the kind
 * is detected or forced to `records` or `enriched`; the rest is one line.
 * Oracles beyond "no crash, no leak":
 *  - the status is valid and the outcome carries the line number;
 *  - a record (ok, zero_step) keeps SPEC 2.5's identities: histogram
 *    counts sum to the steps and Σ j·count to the accepted drafts,
 *    accepted <= drafted, per-step arrays as long as the steps; an ok
 *    record has steps > 0 or (llama.cpp) drafts > 0;
 *  - the enriched line written for it is valid JSON, and when it is itself
 *    a records line (metadata and metrics objects) it reads back to the
 *    same status and writes again to the same bytes (write-read-write is
 *    a fixed point);
 *  - whatever the request, its enriched line read back as an enriched
 *    line gives the same status and is written back byte for byte.
 * The metrics of a records line are rewritten once through the
 * processor's open line and once through a parser that checks them on
 * their own: the same bytes either way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/request.h"
#include "line_request.h"
#include "json/json.h"
#include "report/report.h"
#include "util/buf.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct ss_processor *procs[3][SS_ENGINE_COUNT];
static const enum ss_kind kinds[3] = {SS_KIND_UNKNOWN, SS_KIND_RECORDS, SS_KIND_ENRICHED};
static struct ssj_parser *scratch;
static struct ss_buf line, first, second;

/* The line through `p`, as line 7 of input "fuzz". */
static bool process(struct ss_processor *p, const char *text, size_t len,
		    struct ss_outcome *o)
{
	return fuzz_process_line(p, text, len, 7, o);
}

static void check_record(const struct ss_outcome *o)
{
	const struct ss_record *r = o->record;
	int64_t steps = 0, acc = 0;

	CHECK((unsigned)o->status < SS_ST_COUNT);
	CHECK(o->line == 7);
	if (o->status != SS_ST_OK && o->status != SS_ST_ZERO_STEP) {
		CHECK(o->reason[0] != '\0');
		return;
	}
	CHECK(r != NULL);
	CHECK(r->num_accepted_draft_tokens >= 0 && r->num_draft_tokens >= 0);
	CHECK(r->num_accepted_draft_tokens <= r->num_draft_tokens);
	if (r->has_histogram && r->has_steps) {
		for (size_t j = 0; j < r->histogram.len; j++) {
			CHECK(r->histogram.v[j] >= 0);
			CHECK(!__builtin_add_overflow(steps, r->histogram.v[j], &steps));
			/* Identity 2 holds, so Σ j·count cannot overflow. */
			acc += (int64_t)j * r->histogram.v[j];
		}
		CHECK(steps == r->num_spec_steps);
		CHECK(acc == r->num_accepted_draft_tokens);
	}
	if (r->has_per_step_accepted)
		CHECK(r->has_steps && r->per_step_accepted.len == (size_t)r->num_spec_steps);
	if (r->has_per_step_drafted)
		CHECK(r->has_steps && r->per_step_drafted.len == (size_t)r->num_spec_steps);
	if (o->status == SS_ST_OK)
		CHECK(r->has_steps ? r->num_spec_steps > 0 : r->num_draft_tokens > 0);
	else
		CHECK(r->has_steps ? r->num_spec_steps == 0 : r->num_draft_tokens == 0);
}

static const char *const meta_names[] = {"s", "i", "benchmark_phase", "was_cancelled"};

/* The meta values: every name's, or none; a string has its bytes. */
static void check_meta(const struct ss_outcome *o)
{
	if (!o->meta)
		return;
	CHECK(o->nmeta == sizeof(meta_names) / sizeof(meta_names[0]));
	for (size_t k = 0; k < o->nmeta; k++) {
		CHECK(o->meta[k].type <= SS_META_STR);
		CHECK(o->meta[k].type != SS_META_STR || o->meta[k].s != NULL);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_processor *p;
	struct ss_outcome a, b;
	enum ss_status st;

	if (!scratch) {
		for (int k = 0; k < 3; k++)
			for (int e = 0; e < SS_ENGINE_COUNT; e++) {
				struct ss_process_opts o;

				memset(&o, 0, sizeof(o));
				o.force_kind = kinds[k];
				o.only_engine = (enum ss_engine)e;
				/* SPEC 7.3's meta.NAME keys, read in the same walk,
				 * two of them keys the metadata scan reads too */
				o.meta_names = meta_names;
				o.meta_n = sizeof(meta_names) / sizeof(meta_names[0]);

				procs[k][e] = ss_processor_new(&o);
				if (!procs[k][e])
					abort();
			}
		scratch = ssj_parser_new();
		if (!scratch)
			abort();
	}
	if (size < 1)
		return 0;
	p = procs[(data[0] & 3) % 3][(data[0] >> 2) % SS_ENGINE_COUNT];
	data++;
	size--;

	ss_buf_reset(&line);
	ss_buf_add(&line, data, size);
	if (line.failed || !ss_buf_grow(&line, SSJ_PADDING))
		return 0;
	if (!process(p, line.data, size, &a))
		return 0;
	check_record(&a);
	check_meta(&a);
	st = a.status;
	ss_buf_reset(&first);
	ss_report_jsonl(&first, ss_processor_document(p), "fuzz", &a);
	if (first.failed)
		return 0;
	CHECK(first.len > 0 && first.data[first.len - 1] == '\n');
	if (!ss_buf_grow(&first, SSJ_PADDING))
		return 0;
	CHECK(ssj_open(scratch, first.data, first.len - 1) == SSJ_OK);
	ssj_close(scratch);
	/* SPEC 8.1: an enriched line reads back to its status and is
	 * written back unchanged. */
	if (!process(procs[2][SS_ENGINE_NONE], first.data, first.len - 1, &b))
		return 0;
	CHECK(b.status == st);
	ss_buf_reset(&second);
	ss_report_jsonl(&second, scratch, "other", &b);
	if (second.failed)
		return 0;
	CHECK(second.len == first.len && memcmp(second.data, first.data, first.len) == 0);
	if (a.kind != SS_KIND_RECORDS || (st != SS_ST_OK && st != SS_ST_ZERO_STEP) ||
	    a.metadata_len == 0 || a.metadata[0] != '{' || a.metrics_len == 0)
		return 0;
	/* The enriched line is a records line: it must read back the same. */
	if (!process(p, first.data, first.len - 1, &b))
		return 0;
	check_record(&b);
	CHECK(b.status == st);
	ss_buf_reset(&second);
	ss_report_jsonl(&second, ss_processor_document(p), "fuzz", &b);
	if (second.failed)
		return 0;
	CHECK(second.len == first.len && memcmp(second.data, first.data, first.len) == 0);
	return 0;
}
