/*
 * adapters.c - the registry of built-in adapters and the helpers they
 * share. Each adapter lives in its own file (vllm.c, trtllm.c, ...).
 */
#include "engines/adapters.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/alloc.h"

const struct ss_adapter *const ss_adapters[] = {
	&ss_adapter_vllm, &ss_adapter_trtllm, &ss_adapter_llamacpp, &ss_adapter_sglang, NULL,
};

void ss_read_per_step(struct ss_reader *rd, struct ss_record *r)
{
	ss_read_array(rd, SS_F_PER_STEP_ACCEPTED, false, &r->has_per_step_accepted,
		      &r->per_step_accepted);
	ss_read_array(rd, SS_F_PER_STEP_DRAFTED, false, &r->has_per_step_drafted,
		      &r->per_step_drafted);
}

bool ss_check_histogram_length(struct ss_reader *rd, const struct ss_record *r,
			       const char *name)
{
	if (rd->bad || !r->has_histogram || !r->has_spec_tokens)
		return !rd->bad;
	if (r->histogram.len == 0 ||
	    (uint64_t)(r->histogram.len - 1) != (uint64_t)r->num_spec_tokens)
		ss_reader_fail(rd, "%s has %zu buckets but num_spec_tokens is %lld", name,
			       r->histogram.len, (long long)r->num_spec_tokens);
	return !rd->bad;
}

/* A row of the collected by-length object: its d, where it starts, its place. */
struct bdl_row {
	int64_t d;
	size_t at;   /* index of its first count in the collected ints */
	size_t seq;
};

static int bdl_row_cmp(const void *a, const void *b)
{
	const struct bdl_row *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The collected rows, in order, their lengths checked; NULL when none or failed. */
static struct bdl_row *bdl_rows(struct ss_reader *rd, const struct ss_field *f, size_t *n)
{
	const struct ss_vec_i64 *v = &f->ints;
	struct bdl_row *rows;
	size_t count = 0;

	*n = 0;
	for (size_t i = 0; i + 1 < v->len; i += 2 + (size_t)v->v[i + 1])
		count++;
	if (count == 0)
		return NULL;
	rows = ss_calloc(count, sizeof(*rows));
	if (!rows) {
		ss_reader_fail(rd, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i + 1 < v->len; i += 2 + (size_t)v->v[i + 1]) {
		int64_t d = v->v[i], len = v->v[i + 1];

		if (len != d + 1) {
			ss_reader_fail(rd,
				       "acceptance_histogram_by_draft_length[\"%lld\"] has %lld counts, not %lld",
				       (long long)d, (long long)len, (long long)d + 1);
			ss_free(rows);
			return NULL;
		}
		rows[*n].d = d;
		rows[*n].at = i + 2;
		rows[*n].seq = *n;
		(*n)++;
	}
	qsort(rows, *n, sizeof(*rows), bdl_row_cmp);
	return rows;
}

void ss_read_by_draft_length(struct ss_reader *rd, struct ss_record *r)
{
	const struct ss_field *f = &rd->pl->f[SS_F_BY_DRAFT_LENGTH];
	const char *name = ss_field_name(SS_F_BY_DRAFT_LENGTH);
	struct bdl_row *rows;
	size_t n;

	r->has_by_draft_length = false;
	r->by_draft_length.len = 0;
	if (rd->bad || !ss_field_given(rd->pl, SS_F_BY_DRAFT_LENGTH))
		return;
	if (f->type != SSJ_OBJECT) {
		ss_reader_fail(rd, "%s is not an object", name);
		return;
	}
	if (f->ierr == SS_INT_TOO_LONG) {
		ss_reader_fail(rd, "%s has a row beyond %u entries", name, SS_HIST_MAX_BUCKETS);
		return;
	}
	if (f->ierr == SS_INT_NOT_INTEGER && f->ierr_index == SIZE_MAX) {
		ss_reader_fail(rd, "%s key \"%s\" is not a draft length", name, f->ierr_key);
		return;
	}
	if (f->ierr == SS_INT_NOT_NUMBER && f->ierr_index == SIZE_MAX) {
		ss_reader_fail(rd, "%s[\"%s\"] is not an array", name, f->ierr_key);
		return;
	}
	if (f->ierr != SS_INT_OK) {
		ss_reader_fail(rd, "%s[\"%s\"][%zu] is not a valid count", name, f->ierr_key,
			       f->ierr_index);
		return;
	}
	rows = bdl_rows(rd, f, &n);
	if (rd->bad)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct bdl_row *row = &rows[i];

		/* a key given twice: its last row (the next one, same d, later) */
		if (i + 1 < n && rows[i + 1].d == row->d)
			continue;
		if (!SS_VEC_PUSH(&r->by_draft_length, row->d)) {
			ss_reader_fail(rd, "out of memory");
			break;
		}
		for (int64_t j = 0; j <= row->d; j++) {
			if (!SS_VEC_PUSH(&r->by_draft_length, f->ints.v[row->at + (size_t)j])) {
				ss_reader_fail(rd, "out of memory");
				break;
			}
		}
		if (rd->bad)
			break;
	}
	ss_free(rows);
	r->has_by_draft_length = !rd->bad;
}
