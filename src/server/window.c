/*
 * window.c - snapshots and increments in, per-series differences out
 * (SPEC 10.3): each kept series holds its previous value; at the end of
 * a snapshot every family on the endpoint that got a value there diffs
 * its series, with the reset rule, into its sums and one interval.
 */
#include <float.h>
#include <math.h>
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
	ss_keymap_init(&s->procmap);
	ss_keymap_init(&s->psmap);
	ss_buf_init(&s->key);
	ss_buf_init(&s->pend_name);
	ss_buf_init(&s->pend_input);
	s->inexact = ss_calloc(ss_family_count, sizeof(*s->inexact));
	s->gauge = ss_calloc(ss_family_count, sizeof(*s->gauge));
	if (!s->inexact || !s->gauge) {
		ss_server_free(s);
		return NULL;
	}
	return s;
}

static void acc_release(struct ss_server_acc *a)
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
		ss_server_points_free(&s->fe[i]);
	}
	for (size_t i = 0; i < s->procmap.n; i++)
		ss_free(s->procs[i].name);
	ss_free(s->procs);
	ss_free(s->ps);
	ss_free(s->fe);
	ss_free(s->fe_of);
	ss_free(s->series);
	ss_free(s->touched);
	ss_free(s->tseries);
	ss_free(s->tps);
	ss_free(s->inexact);
	ss_free(s->gauge);
	ss_keymap_release(&s->series_map);
	ss_keymap_release(&s->endpoints);
	ss_keymap_release(&s->procmap);
	ss_keymap_release(&s->psmap);
	ss_buf_release(&s->key);
	ss_buf_release(&s->pend_name);
	ss_buf_release(&s->pend_input);
	ss_server_log_free(s->log);
	ss_free(s);
}

void ss_server_set_budget(struct ss_server *s, uint64_t bytes)
{
	s->budget = bytes;
}

void ss_server_share_budget(struct ss_server *s, uint64_t bytes, uint64_t *pool)
{
	s->budget = bytes;
	s->pool = pool;
}

bool ss_server_bounded(const struct ss_server *s)
{
	return s->ntold > 0;
}

/* Count n more bytes against the budget; false (nothing counted) past it. */
bool ss_server_charge(struct ss_server *s, uint64_t n)
{
	uint64_t *c = s->pool ? s->pool : &s->charged;

	if (s->budget && n > s->budget - (*c < s->budget ? *c : s->budget))
		return false;
	*c += n;
	return true;
}

void ss_server_charge_anyway(struct ss_server *s, uint64_t n)
{
	*(s->pool ? s->pool : &s->charged) += n;
}

void ss_server_refund(struct ss_server *s, uint64_t n)
{
	uint64_t *c = s->pool ? s->pool : &s->charged;

	*c -= n < *c ? n : *c;
}

void ss_server_bound(struct ss_server *s, const char *place, uint64_t line, const char *what)
{
	for (size_t i = 0; i < s->ntold; i++)
		if (s->told[i] == what)
			return;
	if (s->ntold < sizeof(s->told) / sizeof(s->told[0]))
		s->told[s->ntold++] = what;
	if (!s->msg || s->msg->verbosity < SS_NORMAL)
		return;
	if (place)
		ss_msg_warn(s->msg, "%s:%llu: %s", place, (unsigned long long)line, what);
	else
		ss_msg_warn(s->msg, "server counters: %s", what);
}

uint32_t ss_server_endpoint(struct ss_server *s, const char *key, size_t len)
{
	uint64_t h = ss_keymap_hash(key, len);
	uint32_t i;
	bool added, full;

	if (ss_keymap_find(&s->endpoints, key, len, h, &i))
		return i;
	/* a new one: its name, its entry and its row of fe indexes, slack included
	 * (the unnamed one, of every input but AIPerf's, is never refused) */
	if (len > 0 &&
	    (len > SS_SERVER_MAX_ENDPOINT_KEY || s->endpoints.n >= SS_SERVER_MAX_ENDPOINTS ||
	     !ss_server_charge(s, 2 * (len + sizeof(struct ss_keymap_entry) +
			     ss_family_count * sizeof(uint32_t) + sizeof(bool)) +
			    4 * sizeof(uint32_t)))) {
		ss_server_bound(s, NULL, 0,
				len > SS_SERVER_MAX_ENDPOINT_KEY
					? "an endpoint name over 8 KiB: its lines are bad lines"
					: "more endpoints than are kept (10,000, or the memory limit's "
					  "share, see --memory-limit): the lines of the others are bad lines");
		return SS_SERVER_ENDPOINT_FULL;
	}
	if (!ss_keymap_put(&s->endpoints, key, len, h, SS_SERVER_MAX_ENDPOINTS + 1, &i, &added, &full))
		return UINT32_MAX;
	return i;
}

bool ss_server_begin(struct ss_server *s, uint32_t endpoint, enum ss_server_source src,
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
	s->ntouched = s->ntseries = 0;
	memset(&s->pend, 0, sizeof(s->pend));
	return true;
}

static void put_u32(struct ss_buf *b, uint32_t v)
{
	unsigned char w[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
			      (unsigned char)(v >> 24)};

	ss_buf_add(b, w, 4);
}

static int label_cmp(const struct ss_server_label *a, const struct ss_server_label *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

static bool label_is(const struct ss_server_label *l, const char *name)
{
	return name && l->name_len == strlen(name) && memcmp(l->name, name, l->name_len) == 0;
}

/* A position label's value: decimal digits, 0-based, below SS_POS_MAX_K. */
static bool parse_position(const struct ss_server_label *l, uint32_t *pos)
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
 * The canonical key of a series into s->key: row, role, gauge, process
 * and position (SS_SERVER_KEY_HEAD), then the labels sorted by name (the
 * position label left out: it is in the head), each length-prefixed.
 * Returns NULL on success, else the reason of a bad sample; *ignored when
 * the row leaves this series out.
 */
static const char *build_key(struct ss_server *s, const struct ss_family_row *row,
			     const struct ss_family_match *m, uint32_t process,
			     const struct ss_server_label *labels, size_t n, uint32_t *position,
			     bool *ignored)
{
	uint16_t order[SS_SERVER_MAX_LABELS];
	bool by_pos = m->role == SS_ROLE_POS_ACCEPTED || m->role == SS_ROLE_POS_DRAFTED;
	size_t pos_label = n, bytes = 0;
	unsigned char head[SS_SERVER_KEY_HEAD - 8];

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
		bytes += labels[i].name_len + labels[i].value_len;
	}
	for (size_t i = 0; i < n; i++) {
		const struct ss_server_label *l = &labels[order[i]];

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
	if (bytes > SS_SERVER_MAX_KEY)
		return "labels longer than 4 KiB in all (names and values)";
	ss_buf_reset(&s->key);
	head[0] = (unsigned char)m->row;
	head[1] = (unsigned char)(m->row >> 8);
	head[2] = m->role;
	head[3] = m->gauge;
	ss_buf_add(&s->key, head, sizeof(head));
	put_u32(&s->key, process);
	put_u32(&s->key, *position);
	for (size_t i = 0; i < n; i++) {
		const struct ss_server_label *l = &labels[order[i]];

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

/* The capacity an acc's position array grows to for position pos (1-based). */
uint32_t ss_server_pos_cap(uint32_t cap, uint32_t pos)
{
	if (pos <= cap)
		return cap;
	cap = cap ? 2 * cap : 8;
	if (cap < pos)
		cap = pos;
	return cap > SS_POS_MAX_K ? SS_POS_MAX_K : cap;
}

bool ss_server_pos_grow(struct ss_server_acc *a, int which, uint32_t cap)
{
	unsigned __int128 *p;

	if (cap <= a->cap[which])
		return true;
	p = ss_reallocarray(a->pos[which], cap, sizeof(*p));
	if (!p)
		return false;
	a->pos[which] = p;
	a->cap[which] = cap;
	return true;
}

/* What is made of a sample's value before its series is (NULL value: nothing checked). */
static enum ss_server_status value_check(uint8_t role, const char *value, size_t value_len,
				      const char **reason)
{
	enum ss_count_status st;
	uint64_t v;
	double g;
	bool inexact = false;

	if (!value)
		return SS_SERVER_KEPT;
	if (role == SS_ROLE_GAUGE)
		return ss_server_parse_gauge(value, value_len, &g) ? SS_SERVER_KEPT : SS_SERVER_NOVALUE;
	st = ss_server_parse_count(value, value_len, &v, &inexact);
	if (st == SS_COUNT_OK)
		return SS_SERVER_KEPT;
	*reason = ss_count_status_text(st);
	return SS_SERVER_BAD;
}

/*
 * A new series: what it needs is counted against the budget and made
 * first (its slot, its room in the snapshot's lists), so that no later
 * step fails for it; its state in a process is made when a snapshot of
 * that process closes (procs.c). SS_SERVER_BAD with *reason past a bound.
 */
static enum ss_server_status series_room(struct ss_server *s, const char **reason)
{
	uint64_t cost = 2 * (s->key.len + sizeof(struct ss_server_series) +
			     sizeof(struct ss_keymap_entry) + 2 * sizeof(uint32_t)) +
			4 * sizeof(uint32_t) + SS_SERVER_PS_COST;

	if (s->nseries >= SS_SERVER_MAX_SERIES || !ss_server_charge(s, cost)) {
		*reason = "a series past the limit of kept series (100,000, or the memory "
			  "limit's share, see --memory-limit)";
		ss_server_bound(s, NULL, 0, "more series of the known families than are kept "
					    "(100,000, or the memory limit's share, see "
					    "--memory-limit): the samples of the others are bad samples");
		return SS_SERVER_BAD;
	}
	if (!SS_ALLOC_GROW(s->series, s->nseries + 1, s->series_cap) ||
	    !SS_ALLOC_GROW(s->tseries, s->nseries + 1, s->tseries_cap) ||
	    !SS_ALLOC_GROW(s->tps, s->nseries + 1, s->tps_cap))
		return SS_SERVER_NOMEM;
	return SS_SERVER_KEPT;
}

enum ss_server_status ss_server_resolve_value(struct ss_server *s, uint32_t endpoint,
					   enum ss_server_source src, const char *name,
					   size_t name_len, const struct ss_server_label *labels,
					   size_t nlabels, const char *value, size_t value_len,
					   uint32_t *handle, const char **reason)
{
	struct ss_family_match m;
	bool ignored, added, full;
	uint32_t position, idx;
	uint64_t h;
	const char *why;
	enum ss_server_status st;
	struct ss_server_series *se;

	*reason = NULL;
	if (ends_with(name, name_len, "_created", 8))
		return SS_SERVER_IGNORED;
	if (ends_with(name, name_len, "_total", 6))
		name_len -= 6;
	if (!ss_family_lookup(src, name, name_len, &m) || endpoint >= s->endpoints.n)
		return SS_SERVER_IGNORED;
	why = build_key(s, &ss_family_rows[m.row], &m, endpoint, labels,
			nlabels, &position, &ignored);
	if (why) {
		*reason = why;
		return SS_SERVER_BAD;
	}
	if (ignored)
		return SS_SERVER_IGNORED;
	if (s->key.failed)
		return SS_SERVER_NOMEM;
	h = ss_keymap_hash(s->key.data, s->key.len);
	if (ss_keymap_find(&s->series_map, s->key.data, s->key.len, h, handle))
		return SS_SERVER_KEPT;
	/* New: its value first (a bad line makes nothing), then its room. */
	st = value_check(m.role, value, value_len, reason);
	if (st == SS_SERVER_KEPT)
		st = series_room(s, reason);
	if (st != SS_SERVER_KEPT)
		return st;
	if (!ss_keymap_put(&s->series_map, s->key.data, s->key.len, h, SS_SERVER_MAX_SERIES, &idx,
			   &added, &full) || !added)
		return SS_SERVER_NOMEM;
	se = &s->series[s->nseries++];
	memset(se, 0, sizeof(*se));
	se->endpoint = endpoint;
	se->row = m.row;
	se->position = position;
	se->role = m.role;
	se->gauge = m.gauge;
	se->last_proc = se->last_ps = SS_SERVER_NONE;
	se->prepaid = true;
	*handle = idx;
	return SS_SERVER_KEPT;
}

enum ss_server_status ss_server_resolve(struct ss_server *s, uint32_t endpoint,
				     enum ss_server_source src, const char *name, size_t name_len,
				     const struct ss_server_label *labels, size_t nlabels,
				     uint32_t *handle, const char **reason)
{
	return ss_server_resolve_value(s, endpoint, src, name, name_len, labels, nlabels, NULL, 0,
				       handle, reason);
}

enum ss_server_status ss_server_put(struct ss_server *s, uint32_t handle, const char *value,
				 size_t value_len, const char **reason)
{
	struct ss_server_series *se;
	enum ss_count_status st;
	uint32_t row;
	uint64_t v;
	double g;
	bool inexact = false;

	*reason = NULL;
	if (!s->open || handle >= s->nseries) {
		*reason = "a sample outside a snapshot";
		return SS_SERVER_BAD;
	}
	se = &s->series[handle];
	if (se->seen == s->snap_id)
		return SS_SERVER_REPEAT;
	se->seen = s->snap_id;
	row = se->row;
	if (se->role == SS_ROLE_GAUGE) {
		struct ss_server_gauge_state *gs = &s->gauge[row][se->gauge];

		/* A gauge may be NaN (nothing measured yet): no value, not a bad one. */
		if (!ss_server_parse_gauge(value, value_len, &g))
			return SS_SERVER_IGNORED;
		if (gs->stamp != s->snap_id) {
			gs->stamp = s->snap_id;
			gs->sum = gs->scaled = 0.0;
			gs->n = 0;
		}
		gs->sum += g;
		gs->scaled += ldexp(g, -64);
		gs->n++;
		return SS_SERVER_KEPT;
	}
	/* room for every series was made with it */
	s->tseries[s->ntseries++] = handle;
	st = ss_server_parse_count(value, value_len, &v, &inexact);
	if (st != SS_COUNT_OK) {
		*reason = ss_count_status_text(st);
		return SS_SERVER_BAD;
	}
	if (inexact || (ss_family_rows[row].engine == SS_ENGINE_LLAMACPP &&
			ss_server_count_rounded(value, value_len)))
		s->inexact[row] = true;
	se->cur = v;
	se->valued = s->snap_id;
	return SS_SERVER_KEPT;
}

enum ss_server_status ss_server_sample(struct ss_server *s, const char *name, size_t name_len,
				    const struct ss_server_label *labels, size_t nlabels,
				    const char *value, size_t value_len, const char **reason)
{
	uint32_t h;
	enum ss_server_status st;

	if (!s->open) {
		*reason = "a sample outside a snapshot";
		return SS_SERVER_BAD;
	}
	st = ss_server_resolve_value(s, s->endpoint, s->source, name, name_len, labels, nlabels,
				     value, value_len, &h, reason);
	if (st == SS_SERVER_NOVALUE)
		return SS_SERVER_IGNORED;
	if (st != SS_SERVER_KEPT)
		return st;
	return ss_server_put(s, h, value, value_len, reason);
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
