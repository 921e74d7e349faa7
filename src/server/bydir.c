#include "server/bydir.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"
#include "util/text.h"

void ss_server_bydir_init(struct ss_server_bydir *d, uint64_t budget)
{
	memset(d, 0, sizeof(*d));
	d->budget = budget;
}

void ss_server_bydir_release(struct ss_server_bydir *d)
{
	for (size_t i = 0; i < d->n; i++) {
		ss_free(d->rows[i].dir);
		ss_server_free(d->rows[i].srv);
	}
	ss_free(d->rows);
	ss_server_bydir_init(d, d->budget);
}

struct ss_server *ss_server_bydir_of(struct ss_server_bydir *d, const char *name, bool *nomem)
{
	size_t keep, n;
	const char *sfx = ss_name_dir(name, strlen(name), &keep);
	struct ss_server_bydir_row *r;
	char *dir;

	*nomem = false;
	n = keep + strlen(sfx);
	/* the inputs of one directory come together: the last row first */
	for (size_t i = d->n; i-- > 0;)
		if (d->rows[i].len == n && memcmp(d->rows[i].dir, name, keep) == 0 &&
		    strcmp(d->rows[i].dir + keep, sfx) == 0)
			return d->rows[i].srv;
	if (d->n >= SS_SERVER_BYDIR_MAX) {
		d->full = true;
		return NULL;
	}
	if (!SS_ALLOC_GROW(d->rows, d->n + 1, d->cap))
		goto nomem;
	dir = ss_malloc(n + 1);
	if (!dir)
		goto nomem;
	memcpy(dir, name, keep);
	memcpy(dir + keep, sfx, strlen(sfx) + 1);
	r = &d->rows[d->n];
	r->srv = ss_server_new(NULL);
	if (!r->srv) {
		ss_free(dir);
		goto nomem;
	}
	if (d->budget)
		ss_server_share_budget(r->srv, d->budget, &d->charged);
	r->dir = dir;
	r->len = n;
	d->n++;
	return r->srv;
nomem:
	*nomem = true;
	return NULL;
}

bool ss_server_bydir_bounded(const struct ss_server_bydir *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (ss_server_bounded(d->rows[i].srv))
			return true;
	return false;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct ss_server_group *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->dir, y->dir, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

bool ss_server_groups_finish(struct ss_server_bydir *d, bool has_cost, double cost,
			     const char *compare, struct ss_server_groups *out)
{
	memset(out, 0, sizeof(*out));
	if (!d->n)
		return true;
	out->rows = ss_calloc(d->n, sizeof(*out->rows));
	if (!out->rows)
		return false;
	for (size_t i = 0; i < d->n; i++) {
		struct ss_server_group *g = &out->rows[out->n];

		g->dir = ss_strndup(d->rows[i].dir, d->rows[i].len);
		g->len = d->rows[i].len;
		if (!g->dir)
			goto nomem;
		out->n++;
		if (!ss_server_finish(d->rows[i].srv, NULL, has_cost, cost, &g->res))
			goto nomem;
	}
	if (out->n > 1)
		qsort(out->rows, out->n, sizeof(*out->rows), cmp_rows);
	if (compare) {
		size_t n = strlen(compare);

		while (n > 1 && compare[n - 1] == '/')
			n--;
		for (size_t i = 0; i < out->n && !out->has_baseline; i++)
			if (out->rows[i].len == n && memcmp(out->rows[i].dir, compare, n) == 0) {
				out->has_baseline = true;
				out->baseline = i;
			}
	}
	return true;
nomem:
	ss_server_groups_release(out);
	return false;
}

void ss_server_groups_release(struct ss_server_groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		ss_free(g->rows[i].dir);
		ss_server_results_release(&g->rows[i].res);
	}
	ss_free(g->rows);
	memset(g, 0, sizeof(*g));
}
