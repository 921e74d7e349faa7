/*
 * window.c - snapshots and increments in, per-series differences out
 * (SPEC 10.3): each kept series holds its previous value; at the end of
 * a snapshot every family on the endpoint that got a value there diffs
 * its series, with the reset rule, into its sums and one interval.
 */
#include <string.h>

#include "server/number.h"
#include "server/server_int.h"
#include "util/alloc.h"
#include "util/grow.h"

struct ss_server *ss_server_new(struct ss_msg *msg)
{
	struct ss_server *s = ss_calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->msg = msg;
	ss_keymap_init(&s->series_map);
	ss_keymap_init(&s->endpoints);
	ss_buf_init(&s->key);
	s->inexact = ss_calloc(ss_family_count, sizeof(*s->inexact));
	s->gauge = ss_calloc(ss_family_count, sizeof(*s->gauge));
	if (!s->inexact || !s->gauge) {
		ss_server_free(s);
		return NULL;
	}
	return s;
}

static void acc_release(struct ss_srv_acc *a)
{
	ss_free(a->pos[0]);
	ss_free(a->pos[1]);
}

void ss_server_free(struct ss_server *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfe; i++) {
		acc_release(&s->fe[i].first);
		acc_release(&s->fe[i].delta);
		acc_release(&s->fe[i].incr);
		ss_free(s->fe[i].iv);
	}
	ss_free(s->fe);
	ss_free(s->fe_of);
	ss_free(s->series);
	ss_free(s->endpoint_used);
	ss_free(s->touched);
	ss_free(s->inexact);
	ss_free(s->gauge);
	ss_keymap_release(&s->series_map);
	ss_keymap_release(&s->endpoints);
	ss_buf_release(&s->key);
	ss_free(s);
}

/* Room for endpoint index i: its row of fe indexes and its used flag. */
static bool endpoint_room(struct ss_server *s, size_t i)
{
	size_t rows = ss_family_count, cap;
	uint32_t *fo;
	bool *used;

	if (i < s->fe_of_cap)
		return true;
	for (cap = s->fe_of_cap ? 2 * s->fe_of_cap : 4; cap <= i; cap *= 2)
		;
	fo = ss_reallocarray(s->fe_of, cap * rows, sizeof(*fo));
	if (!fo)
		return false;
	s->fe_of = fo;
	used = ss_reallocarray(s->endpoint_used, cap, sizeof(*used));
	if (!used)
		return false;
	s->endpoint_used = used;
	for (size_t j = s->fe_of_cap * rows; j < cap * rows; j++)
		s->fe_of[j] = SS_SRV_NONE;
	for (size_t j = s->fe_of_cap; j < cap; j++)
		s->endpoint_used[j] = false;
	s->fe_of_cap = cap;
	return true;
}

uint32_t ss_server_endpoint(struct ss_server *s, const char *key, size_t len)
{
	uint32_t i;
	bool added, full;

	/* Room first, so that every endpoint in the map has its row. */
	if (!endpoint_room(s, s->endpoints.n) ||
	    !ss_keymap_put(&s->endpoints, key, len, ss_keymap_hash(key, len), UINT32_MAX - 1, &i,
			   &added, &full))
		return UINT32_MAX;
	return i;
}

bool ss_server_begin(struct ss_server *s, uint32_t endpoint, enum ss_srv_source src,
		     unsigned flags)
{
	if (s->open)
		ss_server_end(s, false, 0);
	if (endpoint >= s->endpoints.n)
		return false;
	s->open = true;
	s->snap_id++;
	s->endpoint = endpoint;
	s->source = src;
	s->flags = flags;
	s->ntouched = 0;
	return true;
}

/* The fe of (endpoint, row), made when new; SS_SRV_NONE when out of memory. */
static uint32_t fe_get(struct ss_server *s, uint32_t endpoint, uint32_t row)
{
	uint32_t *slot = &s->fe_of[(size_t)endpoint * ss_family_count + row];
	struct ss_srv_fe *f;

	if (*slot != SS_SRV_NONE)
		return *slot;
	if (!SS_ALLOC_GROW(s->fe, s->nfe + 1, s->fe_cap))
		return SS_SRV_NONE;
	f = &s->fe[s->nfe];
	memset(f, 0, sizeof(*f));
	f->row = row;
	f->endpoint = endpoint;
	f->head = f->tail = SS_SRV_NONE;
	f->stride = 1;
	*slot = (uint32_t)s->nfe;
	return (uint32_t)s->nfe++;
}

static void put_u32(struct ss_buf *b, uint32_t v)
{
	unsigned char w[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};

	ss_buf_add(b, w, 4);
}

static int label_cmp(const struct ss_srv_label *a, const struct ss_srv_label *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

static bool label_is(const struct ss_srv_label *l, const char *name)
{
	return name && l->name_len == strlen(name) && memcmp(l->name, name, l->name_len) == 0;
}

/* A position label's value: decimal digits, 0-based, below SS_POS_MAX_K. */
static bool parse_position(const struct ss_srv_label *l, uint32_t *pos)
{
	uint32_t v = 0;

	if (l->value_len == 0 || l->value_len > 5)
		return false;
	for (size_t i = 0; i < l->value_len; i++) {
		if (l->value[i] < '0' || l->value[i] > '9')
			return false;
		v = v * 10 + (uint32_t)(l->value[i] - '0');
	}
	if (v >= SS_POS_MAX_K)
		return false;
	*pos = v + 1;
	return true;
}

/*
 * The canonical key of a series into s->key: row, role, gauge, whether the
 * name had `_total`, endpoint and position, then the labels sorted by name
 * (the position label left out: it is in the head), each length-prefixed.
 * Returns NULL on success, else the reason of a bad sample; *ignored when
 * the row leaves this series out.
 */
static const char *build_key(struct ss_server *s, const struct ss_family_row *row,
			     const struct ss_family_match *m, bool total, uint32_t endpoint,
			     const struct ss_srv_label *labels, size_t n, uint32_t *position,
			     bool *ignored)
{
	uint16_t order[SS_SERVER_MAX_LABELS];
	bool by_pos = m->role == SS_ROLE_POS_ACCEPTED || m->role == SS_ROLE_POS_DRAFTED;
	size_t pos_label = n;
	unsigned char head[SS_SRV_KEY_HEAD - 8];

	*ignored = false;
	*position = 0;
	if (n > SS_SERVER_MAX_LABELS)
		return "more than 64 labels";
	/* Insertion sort of the label indexes by name: label sets are small. */
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (j > 0 && label_cmp(&labels[order[j - 1]], &labels[i]) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = (uint16_t)i;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ss_srv_label *l = &labels[order[i]];

		if (i > 0 && label_cmp(&labels[order[i - 1]], l) == 0)
			return "a label name appears twice";
		if (label_is(l, row->only_label) &&
		    !(l->value_len == strlen(row->only_value) &&
		      memcmp(l->value, row->only_value, l->value_len) == 0))
			*ignored = true;
		if (by_pos && label_is(l, row->position_label)) {
			if (!parse_position(l, position))
				return "a position label that is not a position below 4096";
			pos_label = order[i];
		}
	}
	if (*ignored)
		return NULL;
	if (by_pos && pos_label == n)
		return "no position label";
	ss_buf_reset(&s->key);
	head[0] = (unsigned char)m->row;
	head[1] = (unsigned char)(m->row >> 8);
	head[2] = m->role;
	head[3] = m->gauge;
	head[4] = total;
	ss_buf_add(&s->key, head, sizeof(head));
	put_u32(&s->key, endpoint);
	put_u32(&s->key, *position);
	for (size_t i = 0; i < n; i++) {
		const struct ss_srv_label *l = &labels[order[i]];

		if (order[i] == pos_label)
			continue;
		put_u32(&s->key, (uint32_t)l->name_len);
		ss_buf_add(&s->key, l->name, l->name_len);
		put_u32(&s->key, (uint32_t)l->value_len);
		ss_buf_add(&s->key, l->value, l->value_len);
	}
	return NULL;
}

static bool ends_with(const char *p, size_t n, const char *suffix, size_t sn)
{
	return n >= sn && memcmp(p + n - sn, suffix, sn) == 0;
}

enum ss_srv_status ss_server_resolve(struct ss_server *s, uint32_t endpoint,
				     enum ss_srv_source src, const char *name, size_t name_len,
				     const struct ss_srv_label *labels, size_t nlabels,
				     uint32_t *handle, const char **reason)
{
	struct ss_family_match m;
	const struct ss_family_row *row;
	bool total = false, ignored, added, full;
	uint32_t position, idx, fe;
	const char *why;
	struct ss_srv_series *se;

	*reason = NULL;
	if (ends_with(name, name_len, "_created", 8))
		return SS_SRV_IGNORED;
	if (ends_with(name, name_len, "_total", 6)) {
		name_len -= 6;
		total = true;
	}
	if (!ss_family_lookup(src, name, name_len, &m))
		return SS_SRV_IGNORED;
	if (endpoint >= s->endpoints.n)
		return SS_SRV_IGNORED;
	row = &ss_family_rows[m.row];
	why = build_key(s, row, &m, total, endpoint, labels, nlabels, &position, &ignored);
	if (why) {
		*reason = why;
		return SS_SRV_BAD;
	}
	if (ignored)
		return SS_SRV_IGNORED;
	/* Room first, so that a key in the map always has its series. */
	fe = fe_get(s, endpoint, m.row);
	if (s->key.failed || fe == SS_SRV_NONE ||
	    !SS_ALLOC_GROW(s->series, s->nseries + 1, s->series_cap))
		return SS_SRV_NOMEM;
	if (!ss_keymap_put(&s->series_map, s->key.data, s->key.len,
			   ss_keymap_hash(s->key.data, s->key.len), SS_SERVER_MAX_SERIES, &idx,
			   &added, &full)) {
		if (!full)
			return SS_SRV_NOMEM;
		*reason = "more than 100000 series of known families";
		return SS_SRV_BAD;
	}
	if (added) {
		se = &s->series[s->nseries++];
		memset(se, 0, sizeof(*se));
		se->fe = fe;
		se->next = SS_SRV_NONE;
		se->position = position;
		se->role = m.role;
		se->gauge = m.gauge;
		if (s->fe[fe].tail == SS_SRV_NONE)
			s->fe[fe].head = idx;
		else
			s->series[s->fe[fe].tail].next = idx;
		s->fe[fe].tail = idx;
	}
	*handle = idx;
	return SS_SRV_KEPT;
}

static bool touch(struct ss_server *s, uint32_t fe)
{
	if (s->fe[fe].touched == s->snap_id)
		return true;
	if (!SS_ALLOC_GROW(s->touched, s->ntouched + 1, s->touched_cap))
		return false;
	s->fe[fe].touched = s->snap_id;
	s->touched[s->ntouched++] = fe;
	return true;
}

enum ss_srv_status ss_server_put(struct ss_server *s, uint32_t handle, const char *value,
				 size_t value_len, const char **reason)
{
	struct ss_srv_series *se;
	enum ss_count_status st;
	uint32_t row;
	uint64_t v;
	double g;
	bool inexact = false;

	*reason = NULL;
	if (!s->open || handle >= s->nseries) {
		*reason = "a sample outside a snapshot";
		return SS_SRV_BAD;
	}
	se = &s->series[handle];
	if (se->seen == s->snap_id)
		return SS_SRV_REPEAT;
	se->seen = s->snap_id;
	row = s->fe[se->fe].row;
	if (se->role == SS_ROLE_GAUGE) {
		struct ss_srv_gauge_state *gs = &s->gauge[row][se->gauge];

		/* A gauge may be NaN (nothing measured yet): no value, not a bad one. */
		if (!ss_srv_parse_gauge(value, value_len, &g))
			return SS_SRV_IGNORED;
		if (gs->stamp != s->snap_id) {
			gs->stamp = s->snap_id;
			gs->sum = 0.0;
			gs->n = 0;
		}
		gs->sum += g;
		gs->n++;
		return SS_SRV_KEPT;
	}
	st = ss_srv_parse_count(value, value_len, &v, &inexact);
	if (st != SS_COUNT_OK) {
		*reason = ss_count_status_text(st);
		return SS_SRV_BAD;
	}
	if (!touch(s, se->fe))
		return SS_SRV_NOMEM;
	if (inexact)
		s->inexact[row] = true;
	se->cur = v;
	se->valued = s->snap_id;
	return SS_SRV_KEPT;
}

enum ss_srv_status ss_server_sample(struct ss_server *s, const char *name, size_t name_len,
				    const struct ss_srv_label *labels, size_t nlabels,
				    const char *value, size_t value_len, const char **reason)
{
	uint32_t h;
	enum ss_srv_status st;

	if (!s->open) {
		*reason = "a sample outside a snapshot";
		return SS_SRV_BAD;
	}
	st = ss_server_resolve(s, s->endpoint, s->source, name, name_len, labels, nlabels, &h,
			       reason);
	if (st != SS_SRV_KEPT)
		return st;
	return ss_server_put(s, h, value, value_len, reason);
}

/* Room for position `pos` (1-based) in one of an acc's two arrays. */
static bool acc_pos_room(struct ss_srv_acc *a, int which, uint32_t pos)
{
	if (pos <= a->npos[which])
		return true;
	if (pos > a->cap[which]) {
		size_t cap = a->cap[which];

		if (!SS_ALLOC_GROW(a->pos[which], pos, cap))
			return false;
		a->cap[which] = (uint32_t)cap;
	}
	memset(a->pos[which] + a->npos[which], 0,
	       (pos - a->npos[which]) * sizeof(*a->pos[which]));
	a->npos[which] = pos;
	return true;
}

static bool acc_add(struct ss_srv_acc *a, const struct ss_srv_series *se, uint64_t d)
{
	int which;

	if (se->role < SS_ROLE_SCALARS) {
		a->v[se->role] += d;
		return true;
	}
	which = se->role - SS_ROLE_POS_ACCEPTED;
	if (!acc_pos_room(a, which, se->position))
		return false;
	a->pos[which][se->position - 1] += d;
	return true;
}

/* One interval's sums by role, before the row's rule makes S, D and A of them. */
struct iv_sums {
	unsigned __int128 v[SS_ROLE_SCALARS];
	unsigned __int128 dp1;
};

static void iv_add(struct iv_sums *iv, const struct ss_srv_series *se, uint64_t d)
{
	if (se->role < SS_ROLE_SCALARS)
		iv->v[se->role] += d;
	else if (se->role == SS_ROLE_POS_DRAFTED && se->position == 1)
		iv->dp1 += d;
}

static void merge_interval(struct ss_srv_raw_interval *a, const struct ss_srv_raw_interval *b)
{
	a->has_end = b->has_end;
	a->end_ns = b->end_ns;
	a->steps += b->steps;
	a->drafted += b->drafted;
	a->accepted += b->accepted;
}

/*
 * Keep one raw interval. Past SS_SERVER_MAX_INTERVALS the kept ones merge
 * in pairs and each later one gathers twice as many raw intervals.
 */
static bool push_interval(struct ss_srv_fe *f, const struct ss_srv_raw_interval *r)
{
	if (f->pend_n == 0)
		f->pending = *r;
	else
		merge_interval(&f->pending, r);
	if (++f->pend_n < f->stride)
		return true;
	if (f->niv == SS_SERVER_MAX_INTERVALS) {
		for (size_t i = 0; i < f->niv / 2; i++) {
			f->iv[i] = f->iv[2 * i];
			merge_interval(&f->iv[i], &f->iv[2 * i + 1]);
		}
		f->niv /= 2;
		f->stride *= 2;
		return true; /* the pending one now gathers toward the new stride */
	}
	if (!SS_ALLOC_GROW(f->iv, f->niv + 1, f->ivcap))
		return false;
	f->iv[f->niv++] = f->pending;
	f->pend_n = 0;
	return true;
}

/* The fe's part of a closed snapshot: s_0 is kept as it is, s_t diffed with s_{t-1}. */
static bool fe_snapshot(struct ss_server *s, struct ss_srv_fe *f, bool has_time, int64_t t_ns)
{
	bool sparse = s->flags & SS_SNAP_SPARSE, reset = false, ok = true;
	uint64_t t = f->snaps++;
	struct iv_sums iv;
	struct ss_srv_raw_interval r;

	memset(&iv, 0, sizeof(iv));
	for (uint32_t i = f->head; i != SS_SRV_NONE; i = s->series[i].next) {
		struct ss_srv_series *se = &s->series[i];
		uint64_t v, d;

		if (se->role == SS_ROLE_GAUGE)
			continue;
		if (se->valued == s->snap_id) {
			v = se->cur;
		} else if (se->seen == s->snap_id) {
			/* A bad sample holds its series; bad from the start, it starts at its first good value. */
			if (!se->has_prev)
				se->baseline = true;
			continue;
		} else if (sparse) {
			continue; /* sparse results: a series is diffed over its own samples */
		} else {
			v = 0;   /* missing: counts 0 (SPEC 10.3) */
		}
		if (t == 0) {
			ok &= acc_add(&f->first, se, v);
		} else if (se->has_prev || (!sparse && !se->baseline)) {
			/* A series new since s_{t-1} had 0 there (prev is 0). */
			if (v >= se->prev) {
				d = v - se->prev;
			} else {
				d = v; /* went down: the server restarted */
				reset = true;
			}
			ok &= acc_add(&f->delta, se, d);
			iv_add(&iv, se, d);
		}
		se->prev = v;
		se->has_prev = true;
	}
	if (t == 0) {
		f->has_first_time = has_time;
		f->first_time = t_ns;
	} else {
		if (reset)
			f->resets++;
		r.has_start = f->has_last_time;
		r.start_ns = f->last_time;
		r.has_end = has_time;
		r.end_ns = t_ns;
		ss_family_derive(&ss_family_rows[f->row], iv.v, iv.dp1, &r.steps, &r.drafted, &r.accepted);
		ok &= push_interval(f, &r);
	}
	f->has_last_time = has_time;
	f->last_time = t_ns;
	return ok;
}

static bool fe_increment(struct ss_server *s, struct ss_srv_fe *f)
{
	bool ok = true;

	f->incrs++;
	for (uint32_t i = f->head; i != SS_SRV_NONE; i = s->series[i].next) {
		const struct ss_srv_series *se = &s->series[i];

		if (se->role != SS_ROLE_GAUGE && se->valued == s->snap_id)
			ok &= acc_add(&f->incr, se, se->cur);
	}
	return ok;
}

void ss_server_end(struct ss_server *s, bool has_time, int64_t time_ns)
{
	if (!s->open)
		return;
	for (size_t i = 0; i < s->ntouched; i++) {
		struct ss_srv_fe *f = &s->fe[s->touched[i]];

		/* Out of memory here loses a position's sum; the run is failing anyway. */
		if (s->flags & SS_SNAP_INCREMENT)
			(void)fe_increment(s, f);
		else
			(void)fe_snapshot(s, f, has_time, time_ns);
	}
	for (size_t r = 0; r < ss_family_count; r++) {
		for (int g = 0; g < SS_FAMILY_GAUGES; g++) {
			struct ss_srv_gauge_state *gs = &s->gauge[r][g];

			if (gs->stamp == s->snap_id && gs->n) {
				gs->has = true;
				gs->last = gs->sum / (double)gs->n;
			}
		}
	}
	s->endpoint_used[s->endpoint] = true;
	s->snapshots++;
	s->ntouched = 0;
	s->open = false;
}

void ss_server_bad(struct ss_server *s, const char *place, uint64_t line, const char *what,
		   const char *reason)
{
	s->bad_lines++;
	if (!s->msg || s->msg->verbosity < SS_NORMAL)
		return;
	if (s->msg->verbosity < SS_VERBOSE && s->bad_shown >= SS_SERVER_BAD_SHOWN)
		return;
	s->bad_shown++;
	ss_msg_warn(s->msg, "%s:%llu: %s: %s", place, (unsigned long long)line, what, reason);
}
