/*
 * fuzz_whole.c - libFuzzer target: the whole-text path (ssj_validate_whole)
 * against the usual On-Demand path, at two levels.
 *
 *  - The shim: when the whole path takes the input, the validating walk
 *    must call it valid too, and everything a reader can see of it (see
 *    tests/unit/whole_dump.h) must be the same through both paths; and
 *    ssj_validate_parse() (which takes the whole path first) answers and
 *    shows the same with the path as without it.
 *  - The request reader: the line read with the whole path turned off
 *    everywhere (ssj_set_whole_path), by a processor whose last line was a
 *    records line and by one whose last line was a body (the line-level
 *    whole path first, and the whole path in every validation) gives the
 *    same outcome and the same enriched line.
 *
 * Each input is processed after a fixed primer line, so a crash or a
 * failed oracle reproduces from the input alone.
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
#define WHOLE_CHECK(c) CHECK(c)
#include "../unit/whole_dump.h"

static const char *const primers[3] = {
	"{\"neither\":1}",
	"{\"metadata\":{},\"metrics\":{},\"spec_decode_acceptance\":{\"engine\":\"vllm\","
	"\"num_accepted_draft_tokens\":1,\"num_draft_tokens\":2,\"num_spec_steps\":1,"
	"\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":{\"1\":1}}}",
	"{\"choices\":[],\"timings\":{\"draft_n\":4,\"draft_n_accepted\":2}}",
};

static struct ss_processor *procs[3];
static struct ssj_parser *pw, *po, *scratch;
static struct ss_buf line, out[3];

/* The line through `p`, as line 3 of input "fuzz". */
static bool process(struct ss_processor *p, const char *text, size_t len,
		    struct ss_outcome *o)
{
	return fuzz_process_line(p, text, len, 3, o);
}

/* The primer's line, padded, through the processor. */
static bool prime(int k)
{
	size_t n = strlen(primers[k]);
	struct ss_outcome o;

	ss_buf_reset(&line);
	ss_buf_add(&line, primers[k], n);
	if (line.failed || !ss_buf_grow(&line, SSJ_PADDING))
		return false;
	return process(procs[k], line.data, n, &o);
}

static void shim_level(const char *text, size_t len)
{
	struct dump a = {0}, b = {0}, c = {0}, e = {0};

	a.base = b.base = c.base = e.base = text;
	if (ssj_validate_whole(pw, text, len, field, &a) == SSJ_OK) {
		ssj_set_whole_path(false);
		CHECK(ssj_validate(po, text, len) == SSJ_OK);
		CHECK(ssj_validate_parse(po, text, len, field, &b) == SSJ_OK);
		ssj_set_whole_path(true);
		CHECK((a.s == NULL) == (b.s == NULL));
		CHECK(!a.s || strcmp(a.s, b.s) == 0);
		CHECK(ssj_parse_again(pw, span_field, &c) == SSJ_OK);
		CHECK(ssj_parse_again(po, span_field, &e) == SSJ_OK);
		CHECK((c.s == NULL) == (e.s == NULL));
		CHECK(!c.s || strcmp(c.s, e.s) == 0);
	}
	free(a.s);
	free(b.s);
	a.s = b.s = NULL;
	a.len = b.len = a.cap = b.cap = 0;
	{
		enum ssj_status on = ssj_validate_parse(pw, text, len, field, &a), off;

		ssj_set_whole_path(false);
		off = ssj_validate_parse(po, text, len, field, &b);
		ssj_set_whole_path(true);
		CHECK(on == off);
		CHECK((a.s == NULL) == (b.s == NULL));
		CHECK(!a.s || strcmp(a.s, b.s) == 0);
	}
	free(a.s);
	free(b.s);
	free(c.s);
	free(e.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_outcome o[3];

	if (!scratch) {
		struct ss_process_opts opts;

		memset(&opts, 0, sizeof(opts));
		for (int k = 0; k < 3; k++) {
			procs[k] = ss_processor_new(&opts);
			if (!procs[k])
				abort();
		}
		pw = ssj_parser_new();
		po = ssj_parser_new();
		scratch = ssj_parser_new();
		if (!pw || !po || !scratch)
			abort();
	}
	for (int k = 0; k < 3; k++) {
		if (!prime(k))
			return 0;
		ss_buf_reset(&line);
		ss_buf_add(&line, data, size);
		if (line.failed || !ss_buf_grow(&line, SSJ_PADDING))
			return 0;
		if (k == 0)
			shim_level(line.data, size);
		ssj_set_whole_path(k != 0);
		if (!process(procs[k], line.data, size, &o[k])) {
			ssj_set_whole_path(true);
			return 0;
		}
		ssj_set_whole_path(true);
		ss_buf_reset(&out[k]);
		ss_report_jsonl(&out[k], scratch, "fuzz", &o[k]);
		if (out[k].failed)
			return 0;
	}
	for (int k = 1; k < 3; k++) {
		CHECK(o[k].status == o[0].status && o[k].kind == o[0].kind &&
		      o[k].phase == o[0].phase);
		CHECK(strcmp(o[k].reason, o[0].reason) == 0);
		CHECK(out[k].len == out[0].len &&
		      memcmp(out[k].data, out[0].data, out[0].len) == 0);
	}
	return 0;
}
