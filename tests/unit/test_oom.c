/*
 * test_oom.c - allocation failure everywhere: a small but representative
 * run is repeated with its N-th allocation failing (once, then from N on),
 * for every N from 1 until a run completes without reaching N.
 *
 * Each run must end in a clean error (false, NULL or a status), never a
 * crash; the sanitizer build's leak checker catches what a failure path
 * forgets to free. A run that reports success despite a failed allocation
 * (a path that recovers) must produce exactly the reference outputs:
 * running out of memory may stop a run, never corrupt its report.
 *
 * Two runs are swept: the library stages by hand (processor on lines of
 * every kind, the framer over a memory stream, the aggregate and every
 * report), and the whole pipeline (ss_run over temporary files, one
 * plain and one SSE capture, with the records sink).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/run.h"
#include "engines/request.h"
#include "io/framer.h"
#include "io/source.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "report/report.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/msg.h"

/* One line of each kind and status family (SPEC 1.3, 2.1, 6). */
static const char *const lines[] = {
	/* raw, streaming: JSON-in-a-string packets, vLLM usage chunk */
	"{\"metadata\":{\"benchmark_phase\":\"profiling\",\"n\":1},\"responses\":["
	"{\"perf_ns\":1,\"packets\":[{\"name\":\"data\",\"value\":"
	"\"{\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"hi\\\"}}]}\"}]},"
	"{\"perf_ns\":2,\"packets\":[{\"name\":\"data\",\"value\":"
	"\"{\\\"choices\\\":[],\\\"usage\\\":{\\\"completion_tokens\\\":50},"
	"\\\"metrics\\\":{\\\"speculative_decoding\\\":{\\\"mean_acceptance_length\\\":1.2325581395348837,"
	"\\\"draft_acceptance_rate\\\":0.07751937984496124,\\\"acceptance_histogram\\\":[39,1,0,3],"
	"\\\"num_spec_steps\\\":43,\\\"num_accepted_draft_tokens\\\":10,\\\"num_draft_tokens\\\":129,"
	"\\\"num_spec_tokens\\\":3}}}\"},{\"name\":\"data\",\"value\":\"[DONE]\"}]}]}",
	/* raw, warmup, non-streaming TensorRT-LLM body */
	"{\"metadata\":{\"benchmark_phase\":\"warmup\"},\"responses\":[{\"perf_ns\":1,"
	"\"text\":\"{\\\"choices\\\":[{\\\"text\\\":\\\"x\\\",\\\"speculative_decoding\\\":"
	"{\\\"acceptance_rate\\\":0.5,\\\"total_accepted_draft_tokens\\\":30,"
	"\\\"total_draft_tokens\\\":60,\\\"num_spec_steps\\\":20,"
	"\\\"acceptance_histogram\\\":[8,0,6,6],\\\"num_spec_tokens\\\":3}}]}\"}]}",
	/* records line */
	"{\"metadata\":{\"benchmark_phase\":\"profiling\"},\"metrics\":{\"x\":{\"value\":1,\"unit\":\"ms\"}},"
	"\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"mean_acceptance_length\":3.25,"
	"\"draft_acceptance_rate\":0.5625,\"acceptance_histogram\":{\"0\":1,\"1\":1,\"2\":2,\"3\":3,\"4\":1},"
	"\"num_accepted_draft_tokens\":18,\"num_draft_tokens\":32,\"num_spec_steps\":8,"
	"\"num_spec_tokens\":4}}",
	/* bodies: llama.cpp, SGLang native, vLLM with per-step arrays */
	"{\"content\":\"x\",\"timings\":{\"draft_n\":12,\"draft_n_accepted\":7}}",
	"{\"text\":\"x\",\"meta_info\":{\"spec_verify_ct\":4,\"spec_accept_token_num\":6,"
	"\"spec_draft_token_num\":12,\"spec_accept_histogram\":[1,0,1,2]}}",
	"{\"choices\":[{\"text\":\"x\"}],\"metrics\":{\"speculative_decoding\":"
	"{\"mean_acceptance_length\":2.0,\"draft_acceptance_rate\":0.3333333333333333,"
	"\"acceptance_histogram\":[2,1,0,1],\"num_spec_steps\":4,\"num_accepted_draft_tokens\":4,"
	"\"num_draft_tokens\":12,\"num_spec_tokens\":3,\"per_step_accepted\":[0,1,3,0],"
	"\"per_step_drafted\":[3,3,3,3]}}}",
	/* malformed, error, no_stats, unrecognized, unparsable */
	"{\"choices\":[{\"text\":\"x\"}],\"metrics\":{\"speculative_decoding\":"
	"{\"mean_acceptance_length\":1.0,\"draft_acceptance_rate\":0.0,"
	"\"acceptance_histogram\":[0,0,0,0,1],\"num_spec_steps\":1,\"num_accepted_draft_tokens\":4,"
	"\"num_draft_tokens\":4,\"num_spec_tokens\":3}}}",
	"{\"metadata\":{},\"responses\":[],\"error\":{\"code\":500,\"message\":\"boom\"}}",
	"{\"choices\":[{\"text\":\"x\"}]}",
	"{\"hello\":1}",
	"{\"choices\":[",
	/* enriched lines read back (SPEC 8.1): valid, then broken */
	"{\"source\":{\"input\":\"other.jsonl\",\"line\":3,\"kind\":\"raw\"},\"model\":\"m\","
	"\"metadata\":{\"benchmark_phase\":\"warmup\"},\"spec_decode_acceptance\":{\"engine\":\"vllm\","
	"\"mean_acceptance_length\":3.25,\"draft_acceptance_rate\":0.5625,"
	"\"acceptance_histogram\":{\"0\":1,\"1\":1,\"2\":2,\"3\":3,\"4\":1},"
	"\"num_accepted_draft_tokens\":18,\"num_draft_tokens\":32,\"num_spec_steps\":8},"
	"\"spec_decode_status\":\"ok\"}",
	"{\"source\":{\"input\":\"other.jsonl\",\"line\":4,\"kind\":\"raw\"},"
	"\"spec_decode_status\":\"bogus\"}",
};

static const char sse_text[] =
	": a comment\n"
	"data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
	"data: {\"choices\":[],\"timings\":{\"draft_n\":4,\"draft_n_accepted\":3}}\n\n"
	"data: [DONE]\n\n"
	"event: x\ndata: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n"
	"data: \n\n"
	"data: {\"choices\":[],\"timings\":{\"draft_n\":8,\"draft_n_accepted\":1}}\n\n";

struct outputs {
	struct ss_buf json, csv, table, jsonl;
};

static void outputs_init(struct outputs *o)
{
	ss_buf_init(&o->json);
	ss_buf_init(&o->csv);
	ss_buf_init(&o->table);
	ss_buf_init(&o->jsonl);
}

static void outputs_release(struct outputs *o)
{
	ss_buf_release(&o->json);
	ss_buf_release(&o->csv);
	ss_buf_release(&o->table);
	ss_buf_release(&o->jsonl);
}

static bool same(const struct ss_buf *a, const struct ss_buf *b)
{
	return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static void assert_same_outputs(const struct outputs *a, const struct outputs *b)
{
	assert_true(same(&a->json, &b->json));
	assert_true(same(&a->csv, &b->csv));
	assert_true(same(&a->table, &b->table));
	assert_true(same(&a->jsonl, &b->jsonl));
}

/* The reports of a finished aggregate; false when one ran out of memory. */
static bool reports(struct outputs *o, struct ss_agg *agg)
{
	if (!ss_agg_finish(agg))
		return false;
	ss_report_json(&o->json, agg, NULL, NULL, "test");
	ss_report_csv(&o->csv, agg, NULL, NULL);
	ss_report_table(&o->table, agg, NULL, NULL, true, false);
	return !o->json.failed && !o->csv.failed && !o->table.failed;
}

/* One request through the processor, the JSONL writer and the aggregate. */
static bool one(struct ss_processor *p, struct ssj_parser *jp, struct ss_agg *agg,
		struct outputs *o, const struct ss_request_text *req)
{
	struct ss_outcome out;

	if (!ss_process(p, req, &out))
		return false;
	ss_outcome_values(&out);
	ss_report_jsonl(&o->jsonl, jp, req->input_name, &out);
	if (o->jsonl.failed)
		return false;
	return ss_agg_add(agg, &out);
}

/* The library stages by hand. */
static bool run_library(struct outputs *o)
{
	struct ss_process_opts po = {SS_KIND_UNKNOWN, SS_ENGINE_NONE, false, false, false, false, false, NULL, 0};
	struct ss_processor *p = ss_processor_new(&po);
	struct ssj_parser *jp = ssj_parser_new();
	struct ss_framer *f = ss_framer_new(1 << 20, SS_FRAMING_AUTO);
	struct ss_stream *s = ss_source_mem_new(sse_text, strlen(sse_text), 7, NULL);
	struct ss_buf line = SS_BUF_INIT;
	struct ss_batch b;
	struct ss_agg agg;
	bool ok = p && jp && f && s;
	enum ss_fill fill = SS_FILL_MORE;

	ss_agg_init(&agg, SS_PHASES_PROFILING);
	ss_batch_init(&b);
	ok = ok && ss_agg_begin_input(&agg, "lines.jsonl");
	for (size_t i = 0; ok && i < sizeof(lines) / sizeof(lines[0]); i++) {
		const char *parts[1];
		size_t lens[1];
		struct ss_request_text req;

		ss_buf_reset(&line);
		ss_buf_adds(&line, lines[i]);
		if (line.failed || !ss_buf_grow(&line, SSJ_PADDING)) {
			ok = false;
			break;
		}
		parts[0] = line.data;
		lens[0] = line.len;
		memset(&req, 0, sizeof(req));
		req.parts = parts;
		req.lens = lens;
		req.nparts = 1;
		req.line = i + 1;
		req.input_name = "lines.jsonl";
		ok = one(p, jp, &agg, o, &req);
	}
	/* The framer over a memory stream, with a tiny window. */
	ok = ok && ss_agg_begin_input(&agg, "capture.sse");
	if (ok) {
		ss_framer_set_window(f, 16);
		ss_framer_start(f, s);
	}
	while (ok && fill == SS_FILL_MORE) {
		const char *parts[8];
		size_t lens[8];

		ss_batch_reset(&b);
		fill = ss_framer_fill(f, &b, 64);
		if (fill == SS_FILL_NOMEM || fill == SS_FILL_ERROR) {
			ok = false;
			break;
		}
		for (size_t u = 0; ok && u < b.nunits; u++) {
			const struct ss_unit *un = &b.units[u];
			struct ss_request_text req;

			assert_true(un->nparts <= 8);
			for (size_t k = 0; k < un->nparts; k++) {
				parts[k] = b.buf + b.part_off[un->first_part + k];
				lens[k] = b.part_len[un->first_part + k];
			}
			memset(&req, 0, sizeof(req));
			req.parts = parts;
			req.lens = lens;
			req.nparts = un->nparts;
			req.sse = un->sse;
			req.oversize = un->oversize;
			req.line = un->line;
			req.input_name = "capture.sse";
			ok = one(p, jp, &agg, o, &req);
		}
	}
	ok = ok && reports(o, &agg);
	ss_agg_release(&agg);
	ss_batch_release(&b);
	ss_buf_release(&line);
	ss_stream_free(s);
	ss_framer_free(f);
	ssj_parser_free(jp);
	ss_processor_free(p);
	return ok;
}

/* ---- the whole pipeline ---- */

static char tmpdir[256], path_jsonl[300], path_sse[300];
static FILE *devnull;

static bool sink(void *ctx, const char *data, size_t len)
{
	struct ss_buf *b = ctx;

	ss_buf_add(b, data, len);
	return !b->failed;
}

static bool run_pipeline(struct outputs *o)
{
	const char *paths[2] = {path_jsonl, path_sse};
	struct ss_run_cfg cfg;
	struct ss_msg msg;
	struct ss_agg agg;
	enum ss_run_status rs;
	bool ok;

	memset(&cfg, 0, sizeof(cfg));
	cfg.paths = paths;
	cfg.npaths = 2;
	cfg.max_record = 1 << 20;
	cfg.threads = 1;
	cfg.want_jsonl = true;
	cfg.sink = sink;
	cfg.sink_ctx = &o->jsonl;
	ss_msg_init(&msg, devnull, SS_NORMAL);
	ss_agg_init(&agg, SS_PHASES_PROFILING);
	rs = ss_run(&cfg, &agg, &msg);
	assert_true(rs == SS_RUN_OK || rs == SS_RUN_FATAL || rs == SS_RUN_SINK_FAILED ||
		    rs == SS_RUN_INPUT_FAILED);
	ok = rs == SS_RUN_OK && reports(o, &agg);
	ss_agg_release(&agg);
	return ok;
}

/*
 * Fail the N-th allocation (and with `sticky` all later ones) for every N
 * until a run no longer reaches N.
 */
static void sweep(bool (*run)(struct outputs *), int sticky)
{
	struct outputs ref;
	uint64_t n, failed = 0, recovered = 0;

	outputs_init(&ref);
	ss_alloc_fail_at(0, 0);
	assert_true(run(&ref));
	assert_true(ref.json.len > 0 && ref.jsonl.len > 0);
	for (n = 1;; n++) {
		struct outputs o;
		uint64_t reached;
		bool ok;

		outputs_init(&o);
		ss_alloc_fail_at(n, sticky);
		ok = run(&o);
		reached = ss_alloc_count();
		ss_alloc_fail_at(0, 0);
		if (ok) {
			assert_same_outputs(&o, &ref);
			recovered += reached >= n;
		} else {
			failed++;
		}
		outputs_release(&o);
		if (reached < n) {
			assert_true(ok);   /* no failure was injected */
			break;
		}
		assert_true(n < 1000000);
	}
	print_message("%s: %llu allocations, %llu runs failed cleanly, %llu recovered\n",
		      sticky ? "sticky" : "once", (unsigned long long)(n - 1),
		      (unsigned long long)failed, (unsigned long long)recovered);
	outputs_release(&ref);
}

static void test_library_once(void **state)
{
	(void)state;
	sweep(run_library, 0);
}

static void test_library_sticky(void **state)
{
	(void)state;
	sweep(run_library, 1);
}

static void test_pipeline_once(void **state)
{
	(void)state;
	sweep(run_pipeline, 0);
}

static void test_pipeline_sticky(void **state)
{
	(void)state;
	sweep(run_pipeline, 1);
}

static bool write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	bool ok;

	if (!fp)
		return false;
	ok = fputs(text, fp) >= 0;
	return fclose(fp) == 0 && ok;
}

static int setup(void **state)
{
	const char *base = getenv("TMPDIR");
	struct ss_buf all = SS_BUF_INIT;
	bool ok;

	(void)state;
	devnull = fopen("/dev/null", "w");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_oom.XXXXXX", base && *base ? base : "/tmp");
	if (!devnull || !mkdtemp(tmpdir))
		return -1;
	snprintf(path_jsonl, sizeof(path_jsonl), "%s/lines.jsonl", tmpdir);
	snprintf(path_sse, sizeof(path_sse), "%s/capture.sse", tmpdir);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		ss_buf_adds(&all, lines[i]);
		ss_buf_addc(&all, '\n');
	}
	ok = !all.failed && write_file(path_jsonl, all.data) && write_file(path_sse, sse_text);
	ss_buf_release(&all);
	return ok ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path_jsonl);
	unlink(path_sse);
	rmdir(tmpdir);
	if (devnull)
		fclose(devnull);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_once),
		cmocka_unit_test(test_library_sticky),
		cmocka_unit_test(test_pipeline_once),
		cmocka_unit_test(test_pipeline_sticky),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
