/*
 * fuzz_whole.c - libFuzzer target: the shim's two paths against each
 * other, the whole-text path and On-Demand, forced per parser
 * (json_paths.h), at two levels.
 *
 *  - The shim: both paths open the input with the same status, and when
 *    it is valid everything a reader can see of it (see
 *    tests/unit/whole_dump.h: every value, span and double, objects
 *    visited again where they lie) is the same through both, on a first
 *    visit and a second; opened as an array root (ssj_open_array), the
 *    same status, and the same elements through both.
 *  - The request reader: the line read by a processor whose parsers take
 *    On-Demand only and by two whose parsers take the shim's choice (one
 *    after a records line, one after a body), gives the same outcome and
 *    the same enriched line (written through each processor's open line).
 *
 * Each input is processed after a fixed primer line, so a crash or a
 * failed oracle reproduces from the input alone. In a build without the
 * whole-text path both levels compare On-Demand with itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/request.h"
#include "line_request.h"
#include "json/json.h"
#include "json/json_paths.h"
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
static struct ssj_parser *pw, *po;
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

static void dump_free(struct dump *d)
{
	free(d->s);
	memset(d, 0, sizeof(*d));
}

static void same(const struct dump *a, const struct dump *b)
{
	CHECK((a->s == NULL) == (b->s == NULL));
	CHECK(!a->s || strcmp(a->s, b->s) == 0);
}

static void shim_level(const char *text, size_t len)
{
	struct dump a = {0}, b = {0}, c = {0}, e = {0};
	enum ssj_status sw = ssj_open(pw, text, len), so = ssj_open(po, text, len);

	CHECK(sw == so);
	if (sw != SSJ_OK)
		return;
	for (int again = 0; again < 2; again++) {
		a.base = b.base = c.base = e.base = text;
		c.parser = pw;
		e.parser = po;
		CHECK(ssj_visit(pw, field, &a) == SSJ_OK);
		CHECK(ssj_visit(po, field, &b) == SSJ_OK);
		same(&a, &b);
		CHECK(ssj_visit(pw, span_field, &c) == SSJ_OK);
		CHECK(ssj_visit(po, span_field, &e) == SSJ_OK);
		same(&c, &e);
		dump_free(&a);
		dump_free(&b);
		dump_free(&c);
		dump_free(&e);
	}
}

/* The same for the text opened as an array root: its elements. */
static void shim_array_level(const char *text, size_t len)
{
	struct dump a = {0}, b = {0};
	enum ssj_status sw = ssj_open_array(pw, text, len), so = ssj_open_array(po, text, len);

	CHECK(sw == so);
	if (sw != SSJ_OK)
		return;
	for (int again = 0; again < 2; again++) {
		a.base = b.base = text;
		CHECK(ssj_visit_array(pw, elem, &a) == SSJ_OK);
		CHECK(ssj_visit_array(po, elem, &b) == SSJ_OK);
		same(&a, &b);
		dump_free(&a);
		dump_free(&b);
	}
	CHECK(ssj_visit(pw, NULL, NULL) == SSJ_ENOTOBJECT);
	CHECK(ssj_visit(po, NULL, NULL) == SSJ_ENOTOBJECT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_outcome o[3];

	if (!pw) {
		struct ss_process_opts opts;

		memset(&opts, 0, sizeof(opts));
		for (int k = 0; k < 3; k++) {
			ssj_set_default_path(k == 0 ? SSJ_PATH_ONDEMAND : SSJ_PATH_AUTO);
			procs[k] = ss_processor_new(&opts);
			if (!procs[k])
				abort();
		}
		ssj_set_default_path(SSJ_PATH_AUTO);
		pw = ssj_parser_new();
		po = ssj_parser_new();
		if (!pw || !po)
			abort();
		ssj_parser_set_path(pw, ssj_whole_built() ? SSJ_PATH_WHOLE : SSJ_PATH_ONDEMAND);
		ssj_parser_set_path(po, SSJ_PATH_ONDEMAND);
	}
	for (int k = 0; k < 3; k++) {
		if (!prime(k))
			return 0;
		ss_buf_reset(&line);
		ss_buf_add(&line, data, size);
		if (line.failed || !ss_buf_grow(&line, SSJ_PADDING))
			return 0;
		if (k == 0) {
			shim_level(line.data, size);
			shim_array_level(line.data, size);
		}
		if (!process(procs[k], line.data, size, &o[k]))
			return 0;
		ss_buf_reset(&out[k]);
		ss_report_jsonl(&out[k], ss_processor_document(procs[k]), "fuzz", &o[k]);
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
