/*
 * procs.c - the closing snapshot (SPEC 10.3): its process (the endpoint,
 * process_start_time_seconds, `# endpoint:`), each series' state in that
 * process, the per-series differences with the reset rule, and the keys
 * of the two orders (time, and the counters' sum) that results.c reads
 * when input order was not the process's order.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "server/server_int.h"
#include "util/alloc.h"
#include "util/grow.h"

static void iv_add(struct ss_server_iv_sums *iv, const struct ss_server_pseries *se, uint64_t d);
static void push_interval(struct ss_server *s, struct ss_server_fe *f,
			  const struct ss_server_raw_interval *r);

/* Processes kept; past it a snapshot goes to its endpoint's unnamed process. */
#define MAX_PROCESSES 10000

void ss_server_slice_start(struct ss_server *s, int64_t start_ns)
{
	s->slice_start = start_ns;
}

/* A closing slice: one interval [slice_start, end] of each fe it touched. */
static void slice_close(struct ss_server *s, const uint32_t *tps, size_t n, int64_t end_ns)
{
	for (size_t i = 0; i < s->ntouched; i++)
		memset(&s->fe[s->touched[i]].ivs, 0, sizeof(s->fe[s->touched[i]].ivs));
	for (size_t i = 0; i < n; i++) {
		const struct ss_server_pseries *se = &s->ps[tps[i]];

		if (s->series[se->series].valued == s->snap_id)
			iv_add(&s->fe[se->fe].ivs, se, s->series[se->series].cur);
	}
	for (size_t i = 0; i < s->ntouched; i++) {
		struct ss_server_fe *f = &s->fe[s->touched[i]];
		struct ss_server_raw_interval r = {.has_start = true, .start_ns = s->slice_start,
						   .has_end = true, .end_ns = end_ns};

		ss_family_derive(&ss_family_rows[f->row], f->ivs.v, f->ivs.dp1, &r.steps, &r.drafted,
				 &r.accepted);
		push_interval(s, f, &r);
		f->slices++;
	}
}

void ss_server_set_process(struct ss_server *s, const struct ss_server_proc_info *p)
{
	ss_buf_reset(&s->pend_name);
	ss_buf_reset(&s->pend_input);
	s->pend = *p;
	if (p->name)
		ss_buf_add(&s->pend_name, p->name, p->name_len);
	if (p->input)
		ss_buf_adds(&s->pend_input, p->input);
}

/* Room for process index i: its row of fe indexes and its entry. */
static bool process_room(struct ss_server *s, size_t i)
{
	size_t rows = ss_family_count, cap;
	uint32_t *fo;
	struct ss_server_process *pr;

	if (i < s->fe_of_cap)
		return true;
	for (cap = s->fe_of_cap ? 2 * s->fe_of_cap : 4; cap <= i; cap *= 2)
		;
	fo = ss_reallocarray(s->fe_of, cap * rows, sizeof(*fo));
	if (!fo)
		return false;
	s->fe_of = fo;
	pr = ss_reallocarray(s->procs, cap, sizeof(*pr));
	if (!pr)
		return false;
	s->procs = pr;
	for (size_t j = s->fe_of_cap * rows; j < cap * rows; j++)
		s->fe_of[j] = SS_SERVER_NONE;
	memset(s->procs + s->fe_of_cap, 0, (cap - s->fe_of_cap) * sizeof(*pr));
	s->fe_of_cap = cap;
	return true;
}

/* The process key into s->key: space, endpoint, start (or none) and name. */
static void proc_key(struct ss_server *s, bool with_info)
{
	unsigned char head[6] = {0};
	uint64_t bits = 0;
	double st = s->pend.start_s == 0.0 ? 0.0 : s->pend.start_s; /* -0 is 0 */

	ss_buf_reset(&s->key);
	head[0] = with_info ? s->pend.space : 0;
	memcpy(head + 1, &s->endpoint, 4);
	head[5] = with_info && s->pend.has_start;
	ss_buf_add(&s->key, head, sizeof(head));
	if (head[5]) {
		memcpy(&bits, &st, sizeof(bits));
		ss_buf_add(&s->key, &bits, sizeof(bits));
	}
	if (with_info && s->pend.name)
		ss_buf_add(&s->key, s->pend_name.data, s->pend_name.len);
}

static uint32_t proc_find(struct ss_server *s, bool with_info)
{
	uint64_t h;
	uint32_t i;
	bool added, full;
	struct ss_server_process *p;
	const struct ss_buf *nm;

	proc_key(s, with_info);
	if (s->key.failed)
		return SS_SERVER_NONE;
	h = ss_keymap_hash(s->key.data, s->key.len);
	if (ss_keymap_find(&s->procmap, s->key.data, s->key.len, h, &i))
		return i;
	if (with_info && (s->procmap.n >= MAX_PROCESSES ||
			  !ss_server_charge(s, 2 * (s->key.len + s->pend_name.len +
						    s->pend_input.len + sizeof(*p) +
						    sizeof(struct ss_keymap_entry) +
						    ss_family_count * sizeof(uint32_t))))) {
		ss_server_bound(s, NULL, 0, "more server processes than are kept (10,000, or the "
					    "memory limit's share): the snapshots of the others go "
					    "to their input's unnamed process");
		return SS_SERVER_FULL;
	}
	if (!process_room(s, s->procmap.n) ||
	    !ss_keymap_put(&s->procmap, s->key.data, s->key.len, h, MAX_PROCESSES + 2, &i, &added,
			   &full))
		return SS_SERVER_NONE;
	p = &s->procs[i];
	p->has_start = with_info && s->pend.has_start;
	p->start_s = s->pend.start_s;
	nm = with_info && s->pend.name ? &s->pend_name
	     : p->has_start && s->pend.input ? &s->pend_input : NULL;
	if (nm) {
		p->name = ss_malloc(nm->len + 1);
		if (!p->name)
			return SS_SERVER_NONE;
		memcpy(p->name, nm->data, nm->len);
		p->name[nm->len] = '\0';
	}
	return i;
}

uint32_t ss_server_proc_resolve(struct ss_server *s)
{
	bool info = s->pend.has_start || s->pend.name || s->pend.space;
	uint32_t i = proc_find(s, info);

	if (i == SS_SERVER_FULL)
		i = proc_find(s, false);
	return i == SS_SERVER_FULL ? SS_SERVER_NONE : i;
}

/* The fe of (process, row), made when new; SS_SERVER_NONE when out of memory. */
static uint32_t fe_get(struct ss_server *s, uint32_t process, uint32_t row)
{
	uint32_t *slot = &s->fe_of[(size_t)process * ss_family_count + row];
	struct ss_server_fe *f;

	if (*slot != SS_SERVER_NONE)
		return *slot;
	if (!SS_ALLOC_GROW(s->fe, s->nfe + 1, s->fe_cap) ||
	    !SS_ALLOC_GROW(s->touched, s->nfe + 1, s->touched_cap))
		return SS_SERVER_NONE;
	f = &s->fe[s->nfe];
	memset(f, 0, sizeof(*f));
	f->row = row;
	f->process = process;
	f->head = f->tail = SS_SERVER_NONE;
	f->stride = 1;
	*slot = (uint32_t)s->nfe;
	return (uint32_t)s->nfe++;
}

/*
 * The state of series h in process p, made when new: counted against the
 * budget with its fe and the room for its position in the fe's sums.
 * SS_SERVER_FULL when refused (told), SS_SERVER_NONE when out of memory.
 */
uint32_t ss_server_ps_get(struct ss_server *s, uint32_t h, uint32_t p)
{
	struct ss_server_series *g = &s->series[h];
	uint32_t key[2] = {h, p}, idx, fe, slot, cap = 0, ncap = 0;
	uint64_t hash, cost;
	int which = g->role - SS_ROLE_POS_ACCEPTED;
	bool added, full, by_pos = g->role == SS_ROLE_POS_ACCEPTED || g->role == SS_ROLE_POS_DRAFTED;
	struct ss_server_pseries *ps;

	if (g->last_proc == p)
		return g->last_ps;
	hash = ss_keymap_hash(key, sizeof(key));
	if (ss_keymap_find(&s->psmap, key, sizeof(key), hash, &idx)) {
		g->last_proc = p;
		g->last_ps = idx;
		return idx;
	}
	slot = s->fe_of[(size_t)p * ss_family_count + g->row];
	cost = g->prepaid ? 0 : SS_SERVER_PS_COST;
	if (slot == SS_SERVER_NONE)
		cost += 2 * (sizeof(struct ss_server_fe) + sizeof(uint32_t));
	if (by_pos) {
		/* the least of the three: an earlier failure may have grown only some */
		if (slot != SS_SERVER_NONE) {
			const struct ss_server_fe *f = &s->fe[slot];

			cap = f->first.cap[which];
			cap = f->delta.cap[which] < cap ? f->delta.cap[which] : cap;
			cap = f->incr.cap[which] < cap ? f->incr.cap[which] : cap;
		}
		ncap = ss_server_pos_cap(cap, g->position);
		cost += 3 * (uint64_t)(ncap - cap) * sizeof(unsigned __int128);
	}
	/*
	 * A series' first state was paid for with it: its fe and positions
	 * are counted then but never refused (the series was kept).
	 */
	if (g->prepaid) {
		ss_server_charge_anyway(s, cost);
	} else if (!ss_server_charge(s, cost)) {
		ss_server_bound(s, NULL, 0, "more series of the known families than are kept "
					    "(100,000, or the memory limit's share, see "
					    "--memory-limit): the samples of the others are bad samples");
		return SS_SERVER_FULL;
	}
	fe = fe_get(s, p, g->row);
	if (fe == SS_SERVER_NONE || !SS_ALLOC_GROW(s->ps, s->nps + 1, s->ps_cap))
		return SS_SERVER_NONE;
	if (ncap > cap && (!ss_server_pos_grow(&s->fe[fe].first, which, ncap) ||
			   !ss_server_pos_grow(&s->fe[fe].delta, which, ncap) ||
			   !ss_server_pos_grow(&s->fe[fe].incr, which, ncap)))
		return SS_SERVER_NONE;
	if (!ss_keymap_put(&s->psmap, key, sizeof(key), hash, UINT32_MAX - 2, &idx, &added, &full) ||
	    !added)
		return SS_SERVER_NONE;
	ps = &s->ps[s->nps++];
	memset(ps, 0, sizeof(*ps));
	ps->fe = fe;
	ps->next = SS_SERVER_NONE;
	ps->series = h;
	ps->position = g->position;
	ps->role = g->role;
	if (s->fe[fe].tail == SS_SERVER_NONE)
		s->fe[fe].head = idx;
	else
		s->ps[s->fe[fe].tail].next = idx;
	s->fe[fe].tail = idx;
	g->last_proc = p;
	g->last_ps = idx;
	g->prepaid = false;
	return idx;
}

static void touch(struct ss_server *s, uint32_t fe)
{
	/* room for every fe was made with it */
	if (s->fe[fe].touched != s->snap_id) {
		s->fe[fe].touched = s->snap_id;
		s->touched[s->ntouched++] = fe;
	}
}

/* Add d to the sum of se's role (room for its position was made with it). */
static void acc_add(struct ss_server_acc *a, const struct ss_server_pseries *se, uint64_t d)
{
	int which;

	if (se->role < SS_ROLE_SCALARS) {
		a->v[se->role] += d;
		return;
	}
	which = se->role - SS_ROLE_POS_ACCEPTED;
	if (se->position > a->npos[which]) {
		memset(a->pos[which] + a->npos[which], 0,
		       (se->position - a->npos[which]) * sizeof(*a->pos[which]));
		a->npos[which] = se->position;
	}
	a->pos[which][se->position - 1] += d;
}

static void iv_add(struct ss_server_iv_sums *iv, const struct ss_server_pseries *se, uint64_t d)
{
	if (se->role < SS_ROLE_SCALARS)
		iv->v[se->role] += d;
	else if (se->role == SS_ROLE_POS_DRAFTED && se->position == 1)
		iv->dp1 += d;
}

/* An interval whose end came before its start has neither (README: `# time:` going back). */
static void no_backwards(struct ss_server_raw_interval *r)
{
	if (r->has_start && r->has_end && r->end_ns < r->start_ns)
		r->has_start = r->has_end = false;
}

static void merge_interval(struct ss_server_raw_interval *a, const struct ss_server_raw_interval *b)
{
	a->has_end = b->has_end;
	a->end_ns = b->end_ns;
	a->steps += b->steps;
	a->drafted += b->drafted;
	a->accepted += b->accepted;
	no_backwards(a);
}

/*
 * Keep one raw interval. Past SS_SERVER_MAX_INTERVALS, or when the budget
 * (or memory) gives no more room, the kept ones merge in pairs and each
 * later one gathers twice as many raw intervals.
 */
static void push_interval(struct ss_server *s, struct ss_server_fe *f,
			  const struct ss_server_raw_interval *r)
{
	size_t cap = f->ivcap;

	if (f->pend_n == 0)
		f->pending = *r;
	else
		merge_interval(&f->pending, r);
	if (++f->pend_n < f->stride)
		return;
	if (f->niv >= SS_SERVER_MAX_INTERVALS ||
	    (f->niv == f->ivcap && (!ss_server_charge(s, (f->niv ? f->niv : 16) * sizeof(*f->iv)) ||
				    !SS_ALLOC_GROW(f->iv, f->niv + 1, cap)))) {
		if (f->niv < SS_SERVER_MAX_INTERVALS)
			ss_server_bound(s, NULL, 0, "intervals over time past the memory limit's "
						    "share (see --memory-limit): neighbours merge in pairs");
		if (f->niv < 2) {
			f->pend_n = 0; /* no room for even two: the window's totals still hold it */
			return;
		}
		for (size_t i = 0; i < f->niv / 2; i++) {
			f->iv[i] = f->iv[2 * i];
			merge_interval(&f->iv[i], &f->iv[2 * i + 1]);
		}
		f->niv /= 2;
		f->stride *= 2;
		return; /* the pending one now gathers toward the new stride */
	}
	f->ivcap = cap;
	f->iv[f->niv++] = f->pending;
	f->pend_n = 0;
}

/* A closing snapshot opens its part in each fe it touched. */
static void fe_open(struct ss_server_fe *f, bool sparse)
{
	f->t = f->snaps++;
	f->reset = false;
	f->snap_sum = 0;
	memset(&f->ivs, 0, sizeof(f->ivs));
	if (sparse)
		f->sparse = true;
}

/* A value at key k on one track (SPEC 10.3's orders); later input wins a tie. */
static void track(struct ss_server_track *t, __int128 k, uint64_t v)
{
	if (!t->has) {
		*t = (struct ss_server_track){true, false, k, k, v, v};
	} else if (k >= t->hi_key) {
		t->broken |= v < t->hi;
		t->hi_key = k;
		t->hi = v;
	} else if (k < t->lo_key) {
		t->broken |= v > t->lo;
		t->lo_key = k;
		t->lo = v;
	} else {
		t->broken |= v < t->lo || v > t->hi || (k == t->lo_key && v != t->lo);
	}
}

/*
 * One series of a closing snapshot (s_0 kept as it is, s_t diffed with
 * its value in the last snapshot of its process that held it: SPEC 10.3,
 * a snapshot without it says nothing of it, no drop to 0, no reset).
 */
static void series_snapshot(struct ss_server *s, struct ss_server_fe *f,
			    struct ss_server_pseries *se, const struct ss_server_series *g,
			    bool sparse, bool has_time, int64_t t_ns)
{
	uint64_t v, d;

	if (g->valued != s->snap_id) {
		/* A bad sample holds its series; bad from the start, it starts at its first good value. */
		if (!se->has_prev)
			se->baseline = true;
		return;
	}
	v = g->cur;
	if (has_time)
		track(&se->by_time, t_ns, v);
	track(&se->by_sum, f->snap_sum, v);
	if (f->t == 0) {
		acc_add(&f->first, se, v);
	} else if (se->has_prev || (!sparse && !se->baseline)) {
		/* A series new since s_{t-1} had 0 there (prev is 0). */
		if (v >= se->prev) {
			d = v - se->prev;
		} else {
			d = v; /* went down: the server restarted */
			f->reset = true;
		}
		acc_add(&f->delta, se, d);
		iv_add(&f->ivs, se, d);
	}
	se->prev = v;
	se->has_prev = true;
}

/* The fe's part of a closed snapshot, once its series are in. */
static void fe_close(struct ss_server *s, struct ss_server_fe *f, bool has_time,
		     int64_t t_ns)
{
	struct ss_server_raw_interval r;

	if (has_time) {
		f->time_back |= f->timed > 0 && t_ns < f->max_time;
		if (!f->timed || t_ns > f->max_time)
			f->max_time = t_ns;
		if (!f->has_min_time || t_ns < f->min_time)
			f->min_time = t_ns, f->has_min_time = true;
		f->timed++;
	}
	f->sum_back |= f->t > 0 && f->snap_sum < f->max_sum;
	if (f->t == 0 || f->snap_sum > f->max_sum)
		f->max_sum = f->snap_sum;
	if (f->t == 0 || f->snap_sum < f->min_sum)
		f->min_sum = f->snap_sum;
	if (f->t == 0) {
		f->has_first_time = has_time;
		f->first_time = t_ns;
	} else {
		if (f->reset)
			f->resets++;
		r.has_start = f->has_prev_time;
		r.start_ns = f->prev_time;
		r.has_end = has_time;
		r.end_ns = t_ns;
		if (r.has_start && r.has_end && r.end_ns < r.start_ns) {
			f->backwards++;
			ss_server_bound(s, NULL, 0, "a snapshot's `# time:` (or timestamp) is before "
						    "the one before it: a process whose every "
						    "snapshot is timed is diffed in time order; "
						    "else that interval has no start or end, and "
						    "the window spans the earliest to the latest time");
		}
		no_backwards(&r);
		ss_family_derive(&ss_family_rows[f->row], f->ivs.v, f->ivs.dp1, &r.steps, &r.drafted,
				 &r.accepted);
		push_interval(s, f, &r);
		if (has_time && f->has_first_time && t_ns < f->first_time)
			f->first_time = t_ns;
	}
	f->has_prev_time = has_time;
	f->prev_time = t_ns;
	/* last_time: the latest time (the last one's when in order); unknown when the last is */
	if (has_time && f->t > 0 && f->has_last_time && f->last_time > t_ns)
		t_ns = f->last_time;
	f->has_last_time = has_time;
	f->last_time = t_ns;
}

static void gauges_close(struct ss_server *s)
{
	for (size_t r = 0; r < ss_family_count; r++) {
		for (int g = 0; g < SS_FAMILY_GAUGES; g++) {
			struct ss_server_gauge_state *gs = &s->gauge[r][g];

			if (gs->stamp != s->snap_id || !gs->n)
				continue;
			gs->has = true;
			gs->last = gs->sum / (double)gs->n;
			if (!isfinite(gs->last)) {
				/* Σ g overflowed: the scaled sum's mean is finite (SPEC 13) */
				gs->last = ldexp(gs->scaled / (double)gs->n, 64);
				if (!isfinite(gs->last))
					gs->last = copysign(DBL_MAX, gs->last);
			}
		}
	}
}

/*
 * Close the open snapshot: only the fes it touched and the series it had
 * are visited (the work is the snapshot's, not every series ever seen).
 * Its process is known now; each series is found (or made) in it.
 */
void ss_server_end(struct ss_server *s, bool has_time, int64_t time_ns)
{
	bool incr = s->flags & SS_SNAP_INCREMENT, sparse = s->flags & SS_SNAP_SPARSE;
	uint32_t proc;
	size_t n = 0;

	if (!s->open)
		return;
	proc = ss_server_proc_resolve(s);
	s->nomem |= proc == SS_SERVER_NONE;
	for (size_t i = 0; proc != SS_SERVER_NONE && i < s->ntseries; i++) {
		uint32_t p = ss_server_ps_get(s, s->tseries[i], proc);

		s->nomem |= p == SS_SERVER_NONE;
		if (p >= SS_SERVER_FULL)
			continue; /* refused (told) or out of memory: not in this snapshot */
		s->tps[n++] = p;
		if (s->series[s->tseries[i]].valued == s->snap_id)
			touch(s, s->ps[p].fe);
	}
	if (s->flags & SS_SNAP_SLICE) {
		slice_close(s, s->tps, n, time_ns);
		if (proc != SS_SERVER_NONE)
			s->procs[proc].used = true;
		s->ntouched = s->ntseries = 0;
		s->open = false;
		return;
	}
	for (size_t i = 0; i < s->ntouched; i++) {
		if (incr)
			s->fe[s->touched[i]].incrs++;
		else
			fe_open(&s->fe[s->touched[i]], sparse);
	}
	for (size_t i = 0; !incr && i < n; i++) {
		const struct ss_server_pseries *se = &s->ps[s->tps[i]];

		if (s->series[se->series].valued == s->snap_id)
			s->fe[se->fe].snap_sum += s->series[se->series].cur;
	}
	if (!incr)
		ss_server_points_add(s, s->tps, n, has_time, time_ns);
	for (size_t i = 0; i < n; i++) {
		struct ss_server_pseries *se = &s->ps[s->tps[i]];
		const struct ss_server_series *g = &s->series[se->series];
		struct ss_server_fe *f = &s->fe[se->fe];

		if (f->touched != s->snap_id)
			continue; /* only bad samples of its family here: not its snapshot */
		if (!incr)
			series_snapshot(s, f, se, g, sparse, has_time, time_ns);
		else if (g->valued == s->snap_id)
			acc_add(&f->incr, se, g->cur);
	}
	for (size_t i = 0; !incr && i < s->ntouched; i++)
		fe_close(s, &s->fe[s->touched[i]], has_time, time_ns);
	gauges_close(s);
	if (proc != SS_SERVER_NONE)
		s->procs[proc].used = true;
	s->snapshots++;
	s->ntouched = s->ntseries = 0;
	s->open = false;
}
