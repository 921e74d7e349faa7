/*
 * fuzz_request.c - libFuzzer target: one JSONL line (or one SSE event)
 * through the shim, capture, adapters and the enriched JSONL writer.
 *
 * Oracles beyond "no crash": on input that is valid JSON, the fast path
 * (key scan, response elements passed over) and the full parse must agree
 * on the status and reason; and the enriched line written for any request
 * must itself be valid JSON. (Every line is checked whole when it is
 * opened; what the fast path leaves unread is the JSON inside the strings
 * of chunks it passes over, which SPEC 1.4 skips anyway when invalid.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/request.h"
#include "json/json.h"
#include "report/report.h"
#include "util/buf.h"

static struct ss_processor *fast, *full;
static struct ssj_parser *check;
static struct ss_buf line, out;

static void run(const uint8_t *data, size_t size, bool sse)
{
	struct ss_request_text req;
	struct ss_outcome a, b;
	const char *parts[1];
	size_t lens[1];

	ss_buf_reset(&line);
	ss_buf_add(&line, data, size);
	if (line.failed || !ss_buf_grow(&line, SSJ_PADDING))
		return;
	parts[0] = line.data;
	lens[0] = size;
	memset(&req, 0, sizeof(req));
	req.parts = parts;
	req.lens = lens;
	req.nparts = 1;
	req.sse = sse;
	req.line = 1;
	req.input_name = "fuzz";
	if (!ss_process(fast, &req, &a))
		return;
	ss_buf_reset(&out);
	ss_report_jsonl(&out, ss_processor_document(fast), "fuzz", &a);
	if (!out.failed) {
		if (out.len == 0 || out.data[out.len - 1] != '\n')
			__builtin_trap();
		if (!ss_buf_grow(&out, SSJ_PADDING))
			return;
		if (ssj_open(check, out.data, out.len - 1) != SSJ_OK)
			__builtin_trap();
	}
	if (ssj_open(check, line.data, size) != SSJ_OK)
		return;
	if (!ss_process(full, &req, &b))
		return;
	if (a.status != b.status || strcmp(a.reason, b.reason) != 0)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fast) {
		struct ss_process_opts o = {SS_KIND_UNKNOWN, SS_ENGINE_NONE, false, false, false, false, false, NULL, 0};

		fast = ss_processor_new(&o);
		o.full_parse = true;
		full = ss_processor_new(&o);
		check = ssj_parser_new();
		if (!fast || !full || !check)
			abort();
	}
	run(data, size, false);
	run(data, size, true);
	return 0;
}
