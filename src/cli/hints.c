/*
 * hints.c - the likely causes of an empty report, as AIPerf's guide lists
 * them (SPEC 5, "When nothing shows up"), picked by what the requests
 * without stats showed (model/record.h's causes, counted by the
 * aggregate), and the --group-by meta.NAME that no request has.
 */
#include "cli/hints.h"

#include <stdint.h>
#include <string.h>

#include "io/looks.h"

/* What each cause says, after "N of them". */
static const char *const advice[SS_NOSTATS_COUNT] = {
	[SS_NOSTATS_VLLM_FLAG] =
		"vLLM responses with a metrics object but no speculative_decoding: the "
		"server was started without --per-request-spec-decode-metrics (or predates "
		"it)",
	[SS_NOSTATS_STREAM_USAGE] =
		"streamed replies without a usage chunk: vLLM sends its per-request "
		"metrics with it only when the client asks for "
		"\"stream_options\": {\"include_usage\": true}",
	[SS_NOSTATS_LLAMACPP_DRAFT] =
		"llama.cpp timings without draft_n: no draft model was loaded (llama-server "
		"--model-draft)",
	[SS_NOSTATS_SGLANG_OFF] =
		"SGLang meta_info without spec_verify_ct: speculative decoding was off "
		"(sglang --speculative-algorithm)",
	[SS_NOSTATS_RECORDS] =
		"AIPerf records without a spec_decode_acceptance record: the server did not "
		"report speculative decoding per request",
};

static void no_stats(const struct ss_agg *a, struct ss_msg *msg)
{
	uint64_t n = a->status[SS_ST_NO_STATS], specific = 0;

	ss_msg_warn(msg, "no request carried spec-decode statistics (%llu of %llu without "
		    "stats)", (unsigned long long)n, (unsigned long long)a->total);
	for (unsigned c = 1; c < SS_NOSTATS_COUNT; c++) {
		if (!a->nostats[c])
			continue;
		specific += a->nostats[c];
		ss_msg_warn(msg, "  %llu of them: %s", (unsigned long long)a->nostats[c],
			    advice[c]);
	}
	if (specific < n)
		ss_msg_warn(msg, "  %s: speculative decoding off, per-request reporting "
			    "not enabled (vLLM --per-request-spec-decode-metrics), or a "
			    "frontend that strips the field (NVIDIA Dynamo): read the "
			    "server's own counters instead (its Prometheus /metrics)",
			    specific ? "the others" : "likely causes");
}

size_t ss_hints_unreadable(struct ss_agg *a, struct ss_msg *msg)
{
	size_t n = 0;

	for (size_t i = 0; i < a->ninputs; i++) {
		struct ss_input_info *in = &a->inputs[i];

		if (!in->requests || in->server || in->failed ||
		    (in->kinds & ~(1u << SS_KIND_UNKNOWN)) != 0)
			continue;
		in->failed = true;
		n++;
		ss_msg_error(msg, "%s: cannot be read: none of its %llu %s is a request or a "
			     "server line; %s", in->name, (unsigned long long)in->requests,
			     in->requests == 1 ? "line" : "lines",
			     ss_look_words((enum ss_look)in->look));
	}
	return n;
}

/* --group-by meta.NAME that gave every request the null value. */
static void meta_keys(const struct ss_agg *a, const struct ss_options *o, struct ss_msg *msg)
{
	const struct ss_group_spec *g = &o->analysis.group_by;

	if (!a->total || a->groups.nkeys != g->n)
		return;
	for (size_t k = 0; k < g->n; k++) {
		bool any = false;

		if (g->keys[k].kind != SS_GK_META)
			continue;
		for (size_t id = 0; id < a->groups.n && !any; id++)
			any = ss_group_table_key(&a->groups, id)[k].type != SS_KV_NULL;
		if (!any)
			ss_msg_warn(msg, "--group-by %s: no request has a metadata.%s that is a "
				    "string, an integer or a boolean; all are in the null group "
				    "(metadata keys are case-sensitive)", g->keys[k].name,
				    g->keys[k].meta);
	}
}

void ss_hints_after_run(const struct ss_agg *a, const struct ss_options *o,
			struct ss_msg *msg)
{
	if (a->total && !a->status[SS_ST_OK] && !a->status[SS_ST_ZERO_STEP] &&
	    a->status[SS_ST_NO_STATS])
		no_stats(a, msg);
	meta_keys(a, o, msg);
}

/* ---- the order of numbered parts ---- */

/* The last number of `name` (in its last path component, at most 18
 * digits): its offset and length; false when it has none. */
static bool last_number(const char *name, size_t *at, size_t *len, uint64_t *value)
{
	const char *base = strrchr(name, '/');
	size_t end = 0, start;

	base = base ? base + 1 : name;
	for (size_t i = (size_t)(base - name); name[i]; i++)
		if (name[i] >= '0' && name[i] <= '9')
			end = i + 1;
	if (!end)
		return false;
	start = end;
	while (start > (size_t)(base - name) && name[start - 1] >= '0' && name[start - 1] <= '9')
		start--;
	if (end - start > 18)
		return false;
	*value = 0;
	for (size_t i = start; i < end; i++)
		*value = *value * 10 + (uint64_t)(name[i] - '0');
	*at = start;
	*len = end - start;
	return true;
}

void ss_hints_input_order(const struct ss_options *o, struct ss_msg *msg)
{
	size_t at0, len0, at, len;
	uint64_t prev, v;
	const char *first;

	if (o->ninputs < 2 || !last_number(o->inputs[0], &at0, &len0, &prev))
		return;
	first = o->inputs[0];
	for (size_t i = 1; i < o->ninputs; i++) {
		const char *name = o->inputs[i];

		/* the same name around the number, or not one set */
		if (!last_number(name, &at, &len, &v) || at != at0 ||
		    strncmp(name, first, at) != 0 || strcmp(name + at + len, first + at0 + len0) != 0)
			return;
	}
	for (size_t i = 1; i < o->ninputs; i++) {
		last_number(o->inputs[i], &at, &len, &v);
		if (v < prev) {
			ss_msg_warn(msg, "the numbered inputs are out of order ('%s' after '%s'): "
				    "the report follows the order given, as a shell glob lists "
				    "them; zero-padded names sort in order (part-02 before "
				    "part-10), or list them by number", o->inputs[i],
				    o->inputs[i - 1]);
			return;
		}
		prev = v;
	}
}
