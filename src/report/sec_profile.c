/*
 * sec_profile.c - SPEC 11.5, the acceptance profiles (--acceptance-profile
 * FILE): one JSON document with an entry per 7.1 `by_k` row of the main
 * results (key {}) and of each group in key order (its key values), each
 * entry written by analysis/profile.h with the reports' number form. It is
 * a file of its own, not a part of the aggregate reports: the cli asks
 * for it through ss_report_profile() (report.h).
 */
#include <string.h>

#include "analysis/profile.h"
#include "report/jsonw.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/section.h"

/* A group's key as one line of JSON: {"k": 4, "meta.category": "coding"}. */
static void add_key(struct ss_buf *b, const struct ss_group_spec *spec, const struct ss_kv *v)
{
	ss_buf_addc(b, '{');
	for (size_t i = 0; i < spec->n; i++) {
		const char *name = spec->keys[i].name;

		if (i)
			ss_buf_adds(b, ", ");
		ss_buf_add_json_string(b, name, strlen(name));
		ss_buf_adds(b, ": ");
		if (v[i].type == SS_KV_STR)
			ss_buf_add_json_string(b, v[i].s, v[i].len);
		else
			ss_kv_add_text(b, &v[i]);
	}
	ss_buf_addc(b, '}');
}

void ss_sec_profile_json(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
	struct ss_buf key = SS_BUF_INIT;
	bool first = true;

	ss_profile_begin(out);
	for (size_t i = 0; i < an->main.npos; i++) {
		ss_profile_entry(out, first, "{}", 2, &an->main.pos[i], ss_buf_add_double);
		first = false;
	}
	for (size_t j = 0; an->group && j < a->groups.n; j++) {
		size_t g = a->group_order[j];
		const struct ss_set_analysis *s = &an->group[g];

		ss_buf_reset(&key);
		add_key(&key, &an->opts->group_by, ss_group_table_key(&a->groups, g));
		if (key.failed)
			out->failed = true;
		for (size_t i = 0; i < s->npos; i++) {
			ss_profile_entry(out, first, key.data, key.len, &s->pos[i], ss_buf_add_double);
			first = false;
		}
	}
	ss_profile_end(out);
	ss_buf_release(&key);
}

void ss_report_profile(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	struct ss_report_ctx c = {.a = a, .an = an};

	ss_sec_profile_json(out, &c);
}
