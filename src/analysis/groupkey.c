#include "analysis/groupkey.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

/* ---- --group-by ---- */

static const struct {
	const char *name;
	enum ss_gkey kind;
} plain_keys[] = {
	{"input", SS_GK_INPUT}, {"engine", SS_GK_ENGINE}, {"k", SS_GK_K},
	{"phase", SS_GK_PHASE}, {"model", SS_GK_MODEL},   {"osl", SS_GK_OSL},
	{"isl", SS_GK_ISL},     {"dir", SS_GK_DIR}, {"concurrency", SS_GK_CONCURRENCY},
	{"reasoning", SS_GK_REASONING},
};

void ss_group_spec_release(struct ss_group_spec *s)
{
	for (size_t i = 0; i < s->n; i++)
		ss_free(s->keys[i].name);
	ss_free(s->keys);
	s->keys = NULL;
	s->n = 0;
}

enum ss_gparse ss_group_spec_parse(const char *text, struct ss_group_spec *out, char *err,
				   size_t errlen)
{
	const char *p = text;
	size_t nkeys = 1;

	out->keys = NULL;
	out->n = 0;
	for (const char *q = text; *q; q++)
		nkeys += *q == ',';
	if (nkeys > SS_GROUP_MAX_KEYS) {
		snprintf(err, errlen, "--group-by: more than %d keys", SS_GROUP_MAX_KEYS);
		return SS_GP_USAGE;
	}
	out->keys = ss_calloc(nkeys, sizeof(*out->keys));
	if (!out->keys)
		return SS_GP_NOMEM;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		struct ss_group_key *k = &out->keys[out->n];
		bool known = false;

		if (len == 0) {
			snprintf(err, errlen, "--group-by: empty key in '%s'", text);
			goto usage;
		}
		k->name = ss_strndup(p, len);
		if (!k->name) {
			ss_group_spec_release(out);
			return SS_GP_NOMEM;
		}
		out->n++;
		for (size_t i = 0; i < sizeof(plain_keys) / sizeof(plain_keys[0]); i++)
			if (strcmp(k->name, plain_keys[i].name) == 0) {
				k->kind = plain_keys[i].kind;
				known = true;
			}
		if (!known && strncmp(k->name, "meta.", 5) == 0 && k->name[5]) {
			k->kind = SS_GK_META;
			k->meta = k->name + 5;
			known = true;
		}
		if (!known) {
			snprintf(err, errlen,
				 "--group-by: unknown key '%s' (keys: input, engine, k, phase, "
				 "model, osl, isl, dir, concurrency, reasoning, meta.NAME)",
				 k->name);
			goto usage;
		}
		for (size_t i = 0; i + 1 < out->n; i++)
			if (strcmp(out->keys[i].name, k->name) == 0) {
				snprintf(err, errlen, "--group-by: key '%s' given twice", k->name);
				goto usage;
			}
		if (!end)
			break;
		p = end + 1;
	}
	return SS_GP_OK;
usage:
	ss_group_spec_release(out);
	return SS_GP_USAGE;
}
