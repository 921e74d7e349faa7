/*
 * groups.h - the values of `--group-by` keys (SPEC 7.3) and the table that
 * maps each request's key values to its group, the aggregate's group
 * dimension (the keys themselves are parsed by analysis/groupkey.h).
 *
 * A key value is null, a boolean, a number (a 64-bit integer, or a count
 * of quarters: SPEC 11.4's `reasoning`, 0.25 is 1) or a byte string, and
 * values order as null < false < true < numbers (numerically) < strings
 * (byte-wise, a prefix first). Groups are listed in ascending order of
 * their key tuples, keys compared in the order given.
 *
 * Ownership: the table owns the key values it stores (strings copied)
 * until ss_group_table_release(); what ss_group_table_key() returns is
 * borrowed from it and lives as long as the table.
 */
#ifndef SS_GROUPS_H
#define SS_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

enum ss_kv_type { SS_KV_NULL = 0, SS_KV_BOOL, SS_KV_INT, SS_KV_STR, SS_KV_QUARTERS };

/*
 * One key value: `b` (SS_KV_BOOL), `i` (SS_KV_INT; SS_KV_QUARTERS: the
 * value is i / 4), `s` and `len` (SS_KV_STR). `s` is borrowed in a value the caller builds
 * and owned by the table in a value the table returns.
 */
struct ss_kv {
	enum ss_kv_type type;
	bool b;
	int64_t i;
	const char *s;
	size_t len;
};

/* <0, 0, >0 as a orders before, with, after b. */
int ss_kv_cmp(const struct ss_kv *a, const struct ss_kv *b);
/* The same for tuples of n values, compared key by key. */
int ss_kv_tuple_cmp(const struct ss_kv *a, const struct ss_kv *b, size_t n);

/*
 * Whether `text`, a `--compare` argument, names value v: `null`, `true`,
 * `false`, an integer in decimal (a sign and leading zeros allowed), a
 * number equal to a quarters value (`1` and `1.0` name 1.0), or a
 * string's bytes exactly.
 */
bool ss_kv_matches_text(const struct ss_kv *v, const char *text);

/*
 * Append v as the console shows it: null, true, false, 42, 0.25, 1.0 (a
 * quarters value as Python's repr() writes the double), or the bytes
 * (the report stage writes the JSON form, with its UTF-8 checks).
 */
void ss_kv_add_text(struct ss_buf *b, const struct ss_kv *v);

/*
 * The `osl` bucket of a completion token count c: 2^floor(log2 c) for
 * c >= 1 (1, 2, 4, ...; 300 gives 256); 0 (the caller's null) for c < 1.
 */
int64_t ss_osl_bucket(int64_t c);

/*
 * The groups of a run: key tuples of `nkeys` values, each stored once, in
 * the order first seen, with an id 0, 1, ... The caller keeps whatever it
 * accounts per group in arrays indexed by id.
 */
struct ss_group_table {
	size_t nkeys;
	size_t n;            /* groups */
	struct ss_kv *vals;  /* n * nkeys values, strings owned */
	size_t vals_cap;     /* values */
	uint32_t *slots;     /* open addressing: id + 1, 0 = empty */
	uint64_t *hashes;    /* per group */
	size_t hashes_cap;
	size_t nslots;       /* a power of two */
	size_t last;         /* the id found last: tried first */
};

void ss_group_table_init(struct ss_group_table *t, size_t nkeys);
void ss_group_table_release(struct ss_group_table *t);
/*
 * The id of the group of `tuple` (nkeys values; strings borrowed, copied
 * when the group is new). *is_new tells whether it was just added. false
 * when out of memory.
 */
bool ss_group_table_id(struct ss_group_table *t, const struct ss_kv *tuple, size_t *id,
		       bool *is_new);
/* The key values of group `id` (nkeys values, owned by the table). */
const struct ss_kv *ss_group_table_key(const struct ss_group_table *t, size_t id);
/*
 * Fill order[0..n-1] with the group ids in ascending key order (SPEC 7.3).
 * false when out of memory.
 */
bool ss_group_table_sorted(const struct ss_group_table *t, size_t *order);

#endif
