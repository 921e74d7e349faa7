#include "server/families.h"

#include <pthread.h>
#include <string.h>

/*
 * SPEC 10.2, one row per family. Names are those the servers export, with
 * one trailing `_total` taken off (the Python client adds it to counters;
 * AIPerf's files leave it out).
 */
const struct ss_family_row ss_family_rows[] = {
	{
		.engine = SS_ENGINE_VLLM, .source = SS_SRC_PROMETHEUS, .counters = "prometheus",
		.names = {
			[SS_ROLE_STEPS] = "vllm:spec_decode_num_drafts",
			[SS_ROLE_DRAFTED] = "vllm:spec_decode_num_draft_tokens",
			[SS_ROLE_ACCEPTED] = "vllm:spec_decode_num_accepted_tokens",
			[SS_ROLE_POS_ACCEPTED] = "vllm:spec_decode_num_accepted_tokens_per_pos",
			[SS_ROLE_POS_DRAFTED] = "vllm:spec_decode_num_draft_tokens_per_pos",
		},
		.position_label = "position",
	},
	/* SPEC 12.2: vLLM's interval lines in its log */
	{.engine = SS_ENGINE_VLLM, .source = SS_SRC_LOG, .counters = "log"},
	{
		.engine = SS_ENGINE_TRTLLM, .source = SS_SRC_PROMETHEUS, .counters = "prometheus",
		.names = {
			[SS_ROLE_DRAFTED] = "trtllm_spec_decode_num_draft_tokens",
			[SS_ROLE_ACCEPTED] = "trtllm_spec_decode_num_accepted_tokens",
			[SS_ROLE_POS_ACCEPTED] = "trtllm_spec_decode_accepted_tokens",
			[SS_ROLE_POS_DRAFTED] = "trtllm_spec_decode_drafted_tokens",
		},
		.position_label = "token_position",
		.steps_from = SS_STEPS_DRAFTED_AT_1,
		.gauges = {"trtllm_spec_decode_acceptance_length"},
	},
	{
		.engine = SS_ENGINE_TRTLLM, .source = SS_SRC_ITERATIONS, .counters = "iterations",
		.names = {
			[SS_ROLE_STEPS] = "numRequestsWithDraftTokens",
			[SS_ROLE_DRAFTED] = "numDraftTokens",
			[SS_ROLE_ACCEPTED] = "numAcceptedTokens",
		},
	},
	{
		.engine = SS_ENGINE_LLAMACPP, .source = SS_SRC_PROMETHEUS, .counters = "prometheus",
		.names = {
			[SS_ROLE_STEPS] = "llamacpp:spec_decode_num_drafts",
			[SS_ROLE_DRAFTED] = "llamacpp:spec_decode_num_draft_tokens",
			[SS_ROLE_ACCEPTED] = "llamacpp:spec_decode_num_accepted_tokens",
			[SS_ROLE_POS_ACCEPTED] = "llamacpp:spec_decode_num_accepted_tokens_per_pos",
		},
		.position_label = "position",
	},
	{
		.engine = SS_ENGINE_SGLANG, .source = SS_SRC_PROMETHEUS, .counters = "prometheus",
		.names = {
			[SS_ROLE_STEPS] = "sglang:spec_verify_calls",
			[SS_ROLE_GEN_TOKENS] = "sglang:generation_tokens",
			[SS_ROLE_REQUESTS] = "sglang:num_requests",
		},
		/* tensor-parallel ranks report the same batch */
		.only_label = "tp_rank", .only_value = "0",
		.accepted_from = SS_ACC_TOKENS_ESTIMATE,
		.estimated = true,
		.gauges = {"sglang:spec_accept_length", "sglang:spec_accept_rate"},
	},
	{
		.engine = SS_ENGINE_SGLANG, .source = SS_SRC_SERVER_INFO, .counters = "server_info",
		.names = {
			[SS_ROLE_STEPS] = "spec_cumulative_num_forward_ct",
			[SS_ROLE_ACCEPT_TOTAL] = "spec_cumulative_num_accept_tokens",
		},
		.only_label = "tp_rank", .only_value = "0",
		.accepted_from = SS_ACC_TOTAL_LESS_STEPS,
	},
	/* SPEC 12.3: SGLang's decode batch lines in its log (estimated, no counts) */
	{.engine = SS_ENGINE_SGLANG, .source = SS_SRC_LOG, .counters = "log", .estimated = true},
};

const size_t ss_family_count = sizeof(ss_family_rows) / sizeof(ss_family_rows[0]);

/*
 * Every name of the table in one small open-addressed table, built once:
 * a reader looks up the name of every sample line it cannot match with the
 * page before, most of them names of no family.
 */
#define SLOTS 128

struct slot {
	const char *name; /* NULL: empty */
	size_t len;
	enum ss_server_source source;
	struct ss_family_match m;
};

static struct slot slots[SLOTS];
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;

static size_t name_hash(const char *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h & (SLOTS - 1);
}

static void put(const char *name, enum ss_server_source src, size_t row, unsigned role,
		unsigned gauge)
{
	size_t len = strlen(name), i = name_hash(name, len);

	while (slots[i].name)
		i = (i + 1) & (SLOTS - 1);
	slots[i] = (struct slot){name, len, src, {(uint16_t)row, (uint8_t)role, (uint8_t)gauge}};
}

static void build(void)
{
	for (size_t r = 0; r < ss_family_count; r++) {
		const struct ss_family_row *f = &ss_family_rows[r];

		for (unsigned role = 0; role < SS_ROLE_COUNTERS; role++)
			if (f->names[role])
				put(f->names[role], f->source, r, role, 0);
		for (unsigned g = 0; g < SS_FAMILY_GAUGES && f->gauges[g]; g++)
			put(f->gauges[g], f->source, r, SS_ROLE_GAUGE, g);
	}
}

bool ss_family_lookup(enum ss_server_source src, const char *name, size_t len,
		      struct ss_family_match *m)
{
	size_t i;

	pthread_once(&slots_once, build);
	for (i = name_hash(name, len); slots[i].name; i = (i + 1) & (SLOTS - 1)) {
		const struct slot *s = &slots[i];

		if (s->len == len && s->source == src && memcmp(s->name, name, len) == 0) {
			*m = s->m;
			return true;
		}
	}
	return false;
}

void ss_family_derive(const struct ss_family_row *row, const unsigned __int128 *v,
		      unsigned __int128 dp1, unsigned __int128 *S, unsigned __int128 *D,
		      __int128 *A)
{
	*S = row->steps_from == SS_STEPS_DRAFTED_AT_1 ? dp1 : v[SS_ROLE_STEPS];
	*D = v[SS_ROLE_DRAFTED];
	switch (row->accepted_from) {
	case SS_ACC_COUNTER:
		*A = (__int128)v[SS_ROLE_ACCEPTED];
		break;
	case SS_ACC_TOKENS_ESTIMATE:
		/* one token of each request comes from prefill, one of each step is the bonus */
		*A = (__int128)v[SS_ROLE_GEN_TOKENS] - (__int128)v[SS_ROLE_REQUESTS] - (__int128)*S;
		break;
	case SS_ACC_TOTAL_LESS_STEPS:
		/* SGLang's accept count includes the bonus token of each step */
		*A = (__int128)v[SS_ROLE_ACCEPT_TOTAL] - (__int128)*S;
		break;
	}
}
