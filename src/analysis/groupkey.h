/*
 * groupkey.h - the `--group-by` key list (SPEC 7.3): input, engine, k,
 * phase, model, osl, isl, dir, concurrency, reasoning and meta.NAME. The values and the group table are the
 * aggregate's (metrics/groups.h).
 *
 * Ownership: a parsed struct ss_group_spec owns its key array and the keys'
 * names until ss_group_spec_release(); `meta` points into `name`.
 */
#ifndef SS_GROUPKEY_H
#define SS_GROUPKEY_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/groups.h"

/* More keys than this make no readable table. */
#define SS_GROUP_MAX_KEYS 16

enum ss_gkey {
	SS_GK_INPUT = 0,
	SS_GK_ENGINE,
	SS_GK_K,
	SS_GK_PHASE,
	SS_GK_MODEL,
	SS_GK_META,
	SS_GK_OSL,
	SS_GK_ISL,
	SS_GK_DIR,     /* the input's directory (util/text.h's ss_name_dir) */
	SS_GK_CONCURRENCY,
	SS_GK_REASONING  /* SPEC 11.4: a number in quarters (SS_KV_QUARTERS) */
};

struct ss_group_key {
	enum ss_gkey kind;
	char *name;      /* the key as written: "input", "meta.NAME"; owned */
	const char *meta; /* SS_GK_META: NAME, inside `name` */
};

struct ss_group_spec {
	struct ss_group_key *keys; /* owned */
	size_t n;
};

enum ss_gparse { SS_GP_OK = 0, SS_GP_USAGE, SS_GP_NOMEM };

/*
 * Parse a --group-by list: KEY[,KEY...], each one of input, engine, k,
 * phase, model, osl, isl, dir, concurrency, reasoning or meta.NAME (NAME non-empty, any bytes but a comma).
 * Empty keys and a key given twice are usage errors; the message (without
 * a "specscan: " prefix) goes to err. `out` is empty unless SS_GP_OK.
 */
enum ss_gparse ss_group_spec_parse(const char *text, struct ss_group_spec *out, char *err,
				   size_t errlen);
void ss_group_spec_release(struct ss_group_spec *s);

#endif
