#include "analysis/profile.h"

#include <stdio.h>

void ss_profile_begin(struct ss_buf *b)
{
	ss_buf_adds(b, "{\"profiles\": [");
}

void ss_profile_end(struct ss_buf *b)
{
	ss_buf_adds(b, "]}\n");
}

bool ss_profile_aic_args(struct ss_buf *b, const struct ss_pos_result *p)
{
	if (p->k < 1 || p->k > SS_PROFILE_AIC_MAX_K || !p->defined)
		return false;
	ss_buf_addf(b, "--aic-nextn %u --aic-nextn-accept-rates ", (unsigned)p->k);
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_pos_row *r = &p->pos[i];
		char num[64];

		/* LC_NUMERIC stays "C" (only LC_CTYPE is set): a '.' radix */
		snprintf(num, sizeof(num), "%.4f", r->has_conditional ? r->conditional : 0.0);
		if (i)
			ss_buf_addc(b, ',');
		ss_buf_adds(b, num);
	}
	return true;
}

/* S_0, a sum of 64-bit counts, in decimal (it may pass 2^64). */
static void add_u128(struct ss_buf *b, unsigned __int128 v)
{
	char d[40];
	size_t n = sizeof(d);

	do {
		d[--n] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	ss_buf_add(b, d + n, sizeof(d) - n);
}

/* `[r_1, r_2, ...]` of the unconditional (or conditional) rates. */
static void add_rates(struct ss_buf *b, const struct ss_pos_result *p, bool conditional,
		      void (*add_double)(struct ss_buf *, double))
{
	ss_buf_addc(b, '[');
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_pos_row *r = &p->pos[i];

		if (i)
			ss_buf_adds(b, ", ");
		if (!p->defined || (conditional && !r->has_conditional))
			ss_buf_adds(b, "null");
		else
			add_double(b, conditional ? r->conditional : r->rate);
	}
	ss_buf_addc(b, ']');
}

void ss_profile_entry(struct ss_buf *b, bool first, const char *key_json, size_t key_len,
		      const struct ss_pos_result *p, void (*add_double)(struct ss_buf *, double))
{
	if (!first)
		ss_buf_adds(b, ", ");
	ss_buf_adds(b, "{\"key\": ");
	ss_buf_add(b, key_json, key_len);
	ss_buf_addf(b, ", \"k\": %u, \"requests\": ", (unsigned)p->k);
	ss_buf_add_u64(b, p->requests);
	ss_buf_adds(b, ", \"steps\": ");
	add_u128(b, p->steps);
	ss_buf_adds(b, ", \"acceptance_length\": ");
	if (p->defined)
		add_double(b, p->acceptance_length);
	else
		ss_buf_adds(b, "null");
	ss_buf_adds(b, ", \"unconditional\": ");
	add_rates(b, p, false, add_double);
	ss_buf_adds(b, ", \"conditional\": ");
	add_rates(b, p, true, add_double);
	if (p->defined) {
		ss_buf_adds(b, ", \"vllm\": {\"rejection_sample_method\": \"synthetic\", "
			       "\"synthetic_acceptance_rates\": ");
		add_rates(b, p, false, add_double);
		ss_buf_addc(b, '}');
		if (p->k >= 1 && p->k <= SS_PROFILE_AIC_MAX_K) {
			ss_buf_adds(b, ", \"aic_args\": \"");
			ss_profile_aic_args(b, p);
			ss_buf_addc(b, '"');
		}
	}
	ss_buf_addc(b, '}');
}
