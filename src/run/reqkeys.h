/*
 * reqkeys.h - the --group-by key values of each request (SPEC 7.3), made
 * by the workers and read back in input order by the collector.
 *
 * A struct ss_keybuf holds the tuples of a batch of requests: nkeys values
 * per request, strings copied into one text arena (the request's own text
 * and the processor's views die with the next request). Tuples read back
 * with ss_keybuf_tuple() borrow from the keybuf.
 */
#ifndef SS_REQKEYS_H
#define SS_REQKEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/groupkey.h"
#include "engines/request.h"
#include "util/buf.h"

struct ss_keybuf {
	struct ss_kv *vals;   /* n * nkeys; a string's `i` is its offset in text */
	size_t n;             /* tuples */
	size_t cap;           /* values */
	struct ss_buf text;
};

void ss_keybuf_init(struct ss_keybuf *kb);
void ss_keybuf_release(struct ss_keybuf *kb);
void ss_keybuf_reset(struct ss_keybuf *kb);

/*
 * Append the key values of one request: `input` its input's name (an
 * enriched line's source.input, o->input, comes first), `o` its outcome
 * (its borrowed views still valid). Every value is the outcome's: the
 * meta.NAME keys are its `meta` values, read in the engines' walk over the
 * line from the names its processor was given (ss_keybuf_meta_names), in
 * the spec's order. false when out of memory.
 */
bool ss_keybuf_add(struct ss_keybuf *kb, const struct ss_group_spec *spec, const char *input,
		   const struct ss_outcome *o);
/*
 * The NAMEs of spec's meta.NAME keys, in order, into names (room for
 * SS_GROUP_MAX_KEYS), borrowed from spec: what the processor is asked to
 * read (struct ss_process_opts' meta_names). Their count.
 */
size_t ss_keybuf_meta_names(const struct ss_group_spec *spec, const char **names);

/* Tuple i (spec->n values) into out, strings pointing into kb. */
void ss_keybuf_tuple(const struct ss_keybuf *kb, size_t nkeys, size_t i, struct ss_kv *out);

#endif
