#include "metrics/aggregate.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"

static void results_init(struct ss_results *r)
{
	memset(r, 0, sizeof(*r));
}

static void results_release(struct ss_results *r)
{
	for (int m = 0; m < SS_M_COUNT; m++)
		ss_free(r->values[m].v);
	ss_free(r->hist);
	ss_samples_release(&r->samples);
	ss_positions_release(&r->positions);
	ss_drafted_release(&r->drafted);
	ss_timekeep_release(&r->timing);
	results_init(r);
}

void ss_agg_init(struct ss_agg *a, enum ss_phase_mode mode)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
	a->stream_entry = SIZE_MAX;
	a->last_named = SIZE_MAX;
	a->threads = 1;
	results_init(&a->main);
	results_init(&a->warmup);
	ss_timeline_init(&a->timeline);
	ss_outliers_init(&a->outliers);
}

void ss_agg_set_threads(struct ss_agg *a, unsigned threads)
{
	a->threads = threads ? threads : 1;
}

void ss_agg_keep(struct ss_agg *a, bool samples, bool positions, size_t nkeys)
{
	a->main.keep_samples = samples;
	a->main.keep_positions = positions;
	ss_group_table_init(&a->groups, nkeys);
}

bool ss_agg_keep_main(struct ss_agg *a, bool windows, size_t outliers, bool counts)
{
	a->timeline.keep = windows;
	a->keep_counts = counts || outliers > 0;
	return outliers == 0 || ss_outliers_keep(&a->outliers, outliers);
}

void ss_agg_keep_timing(struct ss_agg *a, bool draws)
{
	a->main.keep_timing = true;
	a->timing_draws = draws;
}

void ss_agg_keep_definitions(struct ss_agg *a)
{
	a->main.keep_defs = true;
}

void ss_agg_release(struct ss_agg *a)
{
	ss_timeline_release(&a->timeline);
	ss_outliers_release(&a->outliers);
	results_release(&a->main);
	results_release(&a->warmup);
	for (size_t g = 0; g < a->groups.n; g++)
		results_release(&a->group[g].res);
	ss_free(a->group);
	ss_free(a->group_order);
	ss_group_table_release(&a->groups);
	for (size_t i = 0; i < a->nengines; i++)
		ss_free(a->engines[i].name);
	ss_free(a->engines);
	for (size_t i = 0; i < a->ninputs; i++)
		ss_free(a->inputs[i].name);
	ss_free(a->inputs);
	ss_free(a->stream_name);
	ss_free(a->by_name);
	memset(a, 0, sizeof(*a));
}

/* FNV-1a: enough for a table of file names. */
static size_t name_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (size_t)h;
}

static bool name_is(const struct ss_input_info *in, const char *s, size_t n)
{
	return strncmp(in->name, s, n) == 0 && in->name[n] == '\0';
}

/* The slot of `name` in the hash table: its entry's, or a free one. */
static size_t *name_slot(struct ss_agg *a, const char *s, size_t n)
{
	size_t mask = a->by_name_cap - 1, i = name_hash(s, n) & mask;

	while (a->by_name[i] && !name_is(&a->inputs[a->by_name[i] - 1], s, n))
		i = (i + 1) & mask;
	return &a->by_name[i];
}

/* Index every entry by name (the latest entry of a name wins). */
static bool reindex(struct ss_agg *a, size_t cap)
{
	size_t *t = ss_calloc(cap, sizeof(*t));

	if (!t)
		return false;
	ss_free(a->by_name);
	a->by_name = t;
	a->by_name_cap = cap;
	for (size_t i = 0; i < a->ninputs; i++)
		*name_slot(a, a->inputs[i].name, strlen(a->inputs[i].name)) = i + 1;
	return true;
}

/* A new entry at the end of `inputs`; SIZE_MAX when out of memory. */
static size_t new_input(struct ss_agg *a, const char *name, size_t n)
{
	struct ss_input_info *in;
	char *copy = ss_strndup(name, n);

	if (!copy)
		return SIZE_MAX;
	if (!SS_ALLOC_GROW(a->inputs, a->ninputs + 1, a->inputs_cap)) {
		ss_free(copy);
		return SIZE_MAX;
	}
	in = &a->inputs[a->ninputs++];
	memset(in, 0, sizeof(*in));
	in->name = copy;
	if (a->ninputs * 2 > a->by_name_cap) {
		if (!reindex(a, a->by_name_cap ? a->by_name_cap * 2 : 64)) {
			a->ninputs--;
			ss_free(copy);
			return SIZE_MAX;
		}
	} else {
		*name_slot(a, copy, n) = a->ninputs;
	}
	return a->ninputs - 1;
}

/* List the current stream now if it ended without any request. */
static bool close_stream(struct ss_agg *a)
{
	if (a->stream_name && a->stream_seen == 0 && a->stream_entry == SIZE_MAX) {
		a->stream_entry = new_input(a, a->stream_name, strlen(a->stream_name));
		if (a->stream_entry == SIZE_MAX)
			return false;
		a->inputs[a->stream_entry].empty_stream = true;
		a->inputs[a->stream_entry].failed = a->stream_failed;
	}
	ss_free(a->stream_name);
	a->stream_name = NULL;
	return true;
}

bool ss_agg_begin_input(struct ss_agg *a, const char *name)
{
	if (!close_stream(a))
		return false;
	a->stream_name = ss_strdup(name);
	a->stream_entry = SIZE_MAX;
	a->stream_seen = 0;
	a->stream_failed = false;
	return a->stream_name != NULL;
}

/* The current stream's entry, listed on first use; NULL with *ok false: out of
 * memory; NULL with *ok true: no current stream. */
static struct ss_input_info *stream_info(struct ss_agg *a, bool *ok)
{
	*ok = true;
	if (!a->stream_name)
		return NULL;
	if (a->stream_entry == SIZE_MAX) {
		a->stream_entry = new_input(a, a->stream_name, strlen(a->stream_name));
		if (a->stream_entry == SIZE_MAX) {
			*ok = false;
			return NULL;
		}
		a->inputs[a->stream_entry].failed = a->stream_failed;
	}
	return &a->inputs[a->stream_entry];
}

bool ss_agg_input_snapshots(struct ss_agg *a, uint64_t snapshots)
{
	bool ok;
	struct ss_input_info *in = stream_info(a, &ok);

	if (!in)
		return ok;
	in->server = true;
	in->kinds |= 1u << SS_KIND_SCRAPE;
	in->snapshots += snapshots;
	return true;
}

bool ss_agg_stream_in_parts(struct ss_agg *a)
{
	const struct ss_input_info *in;
	size_t *slot;

	if (!a->stream_name || !a->by_name_cap)
		return false;
	if (a->stream_entry != SIZE_MAX)
		return a->inputs[a->stream_entry].from_parts;
	slot = name_slot(a, a->stream_name, strlen(a->stream_name));
	if (!*slot)
		return false;
	in = &a->inputs[*slot - 1];
	if (!in->from_parts || !(in->kinds & (1u << SS_KIND_LOG)))
		return false;
	a->stream_entry = *slot - 1;
	return true;
}

bool ss_agg_input_log(struct ss_agg *a, uint64_t log_lines, uint64_t bad_lines,
		      uint64_t refused_lines)
{
	bool ok;
	struct ss_input_info *in = stream_info(a, &ok);

	if (!in)
		return ok;
	in->log = true;
	in->kinds |= 1u << SS_KIND_LOG;
	in->log_lines += log_lines;
	in->bad_lines += bad_lines;
	in->refused_lines += refused_lines;
	return true;
}

void ss_agg_input_look(struct ss_agg *a, unsigned look)
{
	if (a->stream_entry != SIZE_MAX)
		a->inputs[a->stream_entry].look = (unsigned char)look;
}

void ss_agg_fail_input(struct ss_agg *a)
{
	a->stream_failed = true;
	if (a->stream_entry != SIZE_MAX)
		a->inputs[a->stream_entry].failed = true;
}

/* The entry a request is counted in; false when out of memory. */
static bool entry_of(struct ss_agg *a, const struct ss_outcome *o, size_t *out)
{
	*out = SIZE_MAX;
	if (o->input) {
		size_t *slot;

		a->read_enriched = true;
		a->stream_seen++;
		if (a->last_named != SIZE_MAX &&
		    name_is(&a->inputs[a->last_named], o->input, o->input_len)) {
			*out = a->last_named;
			return true;
		}
		slot = a->by_name_cap ? name_slot(a, o->input, o->input_len) : NULL;
		if (slot && *slot) {
			*out = *slot - 1;
		} else {
			*out = new_input(a, o->input, o->input_len);
			if (*out == SIZE_MAX)
				return false;
			a->inputs[*out].from_parts = true;
		}
		a->last_named = *out;
		return true;
	}
	if (!a->stream_name)
		return true;  /* counted in no input */
	a->stream_seen++;
	if (a->stream_entry == SIZE_MAX) {
		a->stream_entry = new_input(a, a->stream_name, strlen(a->stream_name));
		if (a->stream_entry == SIZE_MAX)
			return false;
		a->inputs[a->stream_entry].failed = a->stream_failed;
	}
	*out = a->stream_entry;
	return true;
}

static bool hist_add(struct ss_results *r, const int64_t *h, size_t n)
{
	size_t old = r->hist_cap;

	if (!SS_ALLOC_GROW(r->hist, n, r->hist_cap))
		return false;
	if (r->hist_cap > old)  /* grown: the new counts start at 0 */
		memset(r->hist + old, 0, (r->hist_cap - old) * sizeof(*r->hist));
	if (n > r->hist_len)
		r->hist_len = n;
	for (size_t i = 0; i < n; i++)
		r->hist[i] += h[i];
	return true;
}

/*
 * Add an ok outcome to a result set. The values are pushed first: a
 * failure leaves some vectors one value longer than others, but the run
 * stops on out-of-memory anyway.
 */
static bool results_add_ok(struct ss_results *r, const struct ss_outcome *o)
{
	for (int m = 0; m < SS_M_COUNT; m++) {
		if (!ss_metric_table[m].per_request || !o->values.has[m])
			continue;
		if (!SS_VEC_PUSH(&r->values[m], o->values.v[m]))
			return false;
		r->sums[m] += o->values.v[m];
	}
	if (o->hist_len && !hist_add(r, o->hist, o->hist_len))
		return false;
	if (r->keep_samples) {
		struct ss_sample x;

		x.has_al = o->values.has[SS_M_ACCEPTANCE_LENGTH];
		x.al = o->values.v[SS_M_ACCEPTANCE_LENGTH];
		x.has_dar = o->values.has[SS_M_DRAFT_ACCEPTANCE_RATE];
		x.dar = o->values.v[SS_M_DRAFT_ACCEPTANCE_RATE];
		x.has_steps = o->has_steps;
		x.steps = o->steps;
		x.accepted = o->accepted;
		x.drafted = o->drafted;
		if (!ss_samples_add(&r->samples, &x))
			return false;
	}
	if (r->keep_positions &&
	    !ss_positions_add(&r->positions, o->hist, o->hist_len, o->has_k, o->k))
		return false;
	if (r->keep_positions &&
	    !ss_drafted_add(&r->drafted, o->drafted_state, o->by_len, o->by_len_len))
		return false;
	if (r->keep_defs)
		ss_defs_add(&r->defs, o);
	if (r->keep_timing)
		ss_timekeep_note_k(&r->timing, o->has_k, o->k);
	r->ok++;
	r->sum_accepted += o->accepted;
	if (!o->no_drafted) {
		/* SPEC 13: the rate over the records that have both counts */
		r->ok_with_drafted++;
		r->sum_accepted_with_drafted += o->accepted;
		r->sum_drafted += o->drafted;
	}
	if (o->has_steps) {
		r->ok_with_steps++;
		r->sum_steps += o->steps;
		r->sum_accepted_with_steps += o->accepted;
	}
	return true;
}

/* SPEC 7.8 and 7.11: an ok outcome with steps of the main results. */
static bool main_add(struct ss_agg *a, const struct ss_outcome *o, size_t entry)
{
	struct ss_outlier_in x;
	bool all_accepted;
	bool has_al = o->values.has[SS_M_ACCEPTANCE_LENGTH];
	double al = has_al ? o->values.v[SS_M_ACCEPTANCE_LENGTH] : NAN;

	if (a->timeline.keep) {
		struct ss_time_point p = {o->time_ns, o->steps, o->accepted, o->drafted, al};

		/* timed whether or not the record has its own mean (SPEC 13, 7.8) */
		if (!ss_timeline_add(&a->timeline, o->timed, &p))
			return false;
	}
	if (!a->keep_counts)
		return true;
	/* every step accepted k: the histogram (which sums to the steps) all at k */
	all_accepted = o->hist_len && o->has_k && o->k >= 1 && (uint64_t)o->k < o->hist_len &&
		       o->steps > 0 && o->hist[o->k] == o->steps;
	if (!ss_outliers_may_keep(&a->outliers, al)) {
		ss_outliers_count(&a->outliers, o->steps, o->accepted, all_accepted);
		return true;
	}
	memset(&x, 0, sizeof(x));
	x.al = al;
	x.steps = o->steps;
	x.accepted = o->accepted;
	x.all_accepted = all_accepted;
	x.input = entry != SIZE_MAX ? a->inputs[entry].name : NULL;
	x.line = o->line;
	x.model = o->model;
	x.model_len = o->model_len;
	x.has_completion = o->has_completion;
	x.completion_tokens = o->completion_tokens;
	x.has_prompt = o->has_prompt;
	x.prompt_tokens = o->prompt_tokens;
	return ss_outliers_add(&a->outliers, &x);
}

/* The result set an outcome of `phase` feeds, or NULL. */
static struct ss_results *target(struct ss_agg *a, enum ss_phase phase)
{
	switch (a->mode) {
	case SS_PHASES_PROFILING:
		return phase == SS_PHASE_WARMUP ? &a->warmup : &a->main;
	case SS_PHASES_WARMUP:
		return phase == SS_PHASE_WARMUP ? &a->main : NULL;
	case SS_PHASES_ALL:
		return &a->main;
	}
	return NULL;
}

static bool count_engine(struct ss_agg *a, const char *name)
{
	struct ss_engine_count *e;

	for (size_t i = 0; i < a->nengines; i++) {
		if (strcmp(a->engines[i].name, name) == 0) {
			a->engines[i].count++;
			return true;
		}
	}
	if (!SS_ALLOC_GROW(a->engines, a->nengines + 1, a->engines_cap))
		return false;
	e = &a->engines[a->nengines];
	memset(e, 0, sizeof(*e));
	e->name = ss_strdup(name);
	if (!e->name)
		return false;
	a->nengines++;
	e->count = 1;
	return true;
}

bool ss_agg_add(struct ss_agg *a, const struct ss_outcome *o)
{
	struct ss_results *r = target(a, o->phase);
	size_t entry;

	if (!entry_of(a, o, &entry))
		return false;

	if (o->status == SS_ST_OK || o->status == SS_ST_ZERO_STEP) {
		if (!count_engine(a, ss_outcome_engine(o)))
			return false;
	}
	if (r == &a->main && (o->status == SS_ST_OK || o->status == SS_ST_ZERO_STEP)) {
		struct ss_engine_sums *es = &a->by_engine[ss_engine_from_name(ss_outcome_engine(o))];

		/* SPEC 10.3, 13: reconciliation sums `ok` and `zero_step` records */
		es->present = true;
		if (o->has_steps)
			es->steps += o->steps;
		es->accepted += o->accepted;
		es->drafted += o->drafted;
	}
	if (r && o->status == SS_ST_OK && !results_add_ok(r, o))
		return false;
	if (r == &a->main && o->status == SS_ST_OK && o->has_steps &&
	    (a->keep_counts || a->timeline.keep) && !main_add(a, o, entry))
		return false;
	if (r && o->status == SS_ST_ZERO_STEP)
		r->zero_step++;

	a->total++;
	if ((unsigned)o->status < SS_ST_COUNT)
		a->status[o->status]++;
	if (o->status == SS_ST_NO_STATS)
		a->nostats[ss_nostats_cause_of(o->reason)]++;
	if ((unsigned)o->phase < SS_PHASE_COUNT)
		a->phases[o->phase]++;
	if (entry != SIZE_MAX) {
		struct ss_input_info *in = &a->inputs[entry];

		in->requests++;
		if ((unsigned)o->kind < SS_KIND_COUNT)
			in->kinds |= 1u << o->kind;
	}
	return true;
}

/* The group of `key`, created (empty, keeping what main keeps) when new. */
static struct ss_group *group_of(struct ss_agg *a, const struct ss_kv *key)
{
	size_t id;
	bool is_new;

	if (!SS_ALLOC_GROW(a->group, a->groups.n + 1, a->group_cap))
		return NULL;
	if (!ss_group_table_id(&a->groups, key, &id, &is_new))
		return NULL;
	if (is_new) {
		struct ss_group *g = &a->group[id];

		memset(g, 0, sizeof(*g));
		results_init(&g->res);
		g->res.keep_samples = a->main.keep_samples;
		g->res.keep_positions = a->main.keep_positions;
		g->res.keep_timing = a->main.keep_timing;
		if (a->timing_draws)
			ss_timekeep_keep_draws(&g->res.timing);
	}
	return &a->group[id];
}

bool ss_agg_add_keyed(struct ss_agg *a, const struct ss_outcome *o, const struct ss_kv *key)
{
	struct ss_group *g;

	if (!ss_agg_add(a, o))
		return false;
	if (a->groups.nkeys == 0)
		return true;
	g = group_of(a, key);
	if (!g)
		return false;
	g->total++;
	if ((unsigned)o->status < SS_ST_COUNT)
		g->status[o->status]++;
	if (target(a, o->phase) != &a->main)
		return true;
	if (o->status == SS_ST_OK && !results_add_ok(&g->res, o))
		return false;
	if (o->status == SS_ST_ZERO_STEP)
		g->res.zero_step++;
	return true;
}

bool ss_agg_add_timing(struct ss_agg *a, const struct ss_outcome *o, const struct ss_timing *t,
		       const struct ss_kv *key)
{
	struct ss_group *g;

	if (!a->main.keep_timing || target(a, o->phase) != &a->main || !ss_timing_any(t))
		return true;
	if (o->status != SS_ST_OK && o->status != SS_ST_ZERO_STEP && o->status != SS_ST_NO_STATS)
		return true;
	if (!ss_timekeep_add(&a->main.timing, t))
		return false;
	if (a->groups.nkeys == 0 || !key)
		return true;
	/* the request was added with this key: its group exists */
	g = group_of(a, key);
	return g && ss_timekeep_add(&g->res.timing, t);
}

static void set_run(struct ss_results *r, enum ss_metric m, double v)
{
	r->has[m] = true;
	memset(&r->stats[m], 0, sizeof(r->stats[m]));
	r->stats[m].avg = v;
	r->stats[m].count = 1;
}

/*
 * The statistics of the per-request metrics are independent of each other
 * (each reads its own values, in input order), so the end of a large run
 * computes them on two threads, the caller and one helper, through one
 * atomic counter over the metrics, largest first. Each thread holds a
 * scratch as long as the longest metric: that is why there are not more.
 */
/* Below this many values in all, a thread costs more than it saves. */
#define STATS_PARALLEL_MIN ((size_t)1 << 16)

struct stats_job {
	const struct ss_vec_f64 *d;
	double sum;   /* of d, added up as the values came */
	struct ss_stats *out;
};

struct stats_work {
	const struct stats_job *jobs;
	size_t njobs, most;
	atomic_size_t next;   /* the next job to take */
	atomic_size_t done;   /* jobs computed */
};

/* Take jobs until none is left (none at all without memory for scratch). */
static void *stats_worker(void *arg)
{
	struct stats_work *w = arg;
	double *scratch = ss_reallocarray(NULL, w->most, sizeof(*scratch));

	if (!scratch)
		return NULL;
	for (;;) {
		size_t j = atomic_fetch_add(&w->next, 1);

		if (j >= w->njobs)
			break;
		ss_stats_compute_sum(w->jobs[j].d->v, w->jobs[j].d->len, w->jobs[j].sum, scratch,
				     w->jobs[j].out);
		atomic_fetch_add(&w->done, 1);
	}
	ss_free(scratch);
	return NULL;
}

static int cmp_job_len(const void *a, const void *b)
{
	size_t x = ((const struct stats_job *)a)->d->len, y = ((const struct stats_job *)b)->d->len;

	return (x < y) - (x > y);
}

static bool results_finish(struct ss_results *r, unsigned threads)
{
	struct stats_job jobs[SS_M_COUNT];
	struct stats_work w;
	size_t njobs = 0, most = 0, total = 0;
	pthread_t helper;
	bool helped = false;

	for (int m = 0; m < SS_M_COUNT; m++) {
		const struct ss_vec_f64 *d = &r->values[m];

		r->has[m] = false;
		memset(&r->stats[m], 0, sizeof(r->stats[m]));
		if (!ss_metric_table[m].per_request || d->len == 0)
			continue;
		jobs[njobs].d = d;
		jobs[njobs].sum = r->sums[m];
		jobs[njobs].out = &r->stats[m];
		njobs++;
		most = d->len > most ? d->len : most;
		total += d->len;
		r->has[m] = true;
	}
	qsort(jobs, njobs, sizeof(jobs[0]), cmp_job_len);
	w.jobs = jobs;
	w.njobs = njobs;
	w.most = most;
	atomic_init(&w.next, 0);
	atomic_init(&w.done, 0);
	if (threads > 1 && njobs > 1 && total >= STATS_PARALLEL_MIN)
		helped = pthread_create(&helper, NULL, stats_worker, &w) == 0;
	if (njobs)
		stats_worker(&w);
	if (helped)
		pthread_join(helper, NULL);
	/* A thread without scratch takes no job: the other one takes them all. */
	if (atomic_load(&w.done) != njobs)
		return false;
	if (r->sum_steps > 0)
		set_run(r, SS_M_TOKEN_WEIGHTED_AL,
			1.0 + ss_ratio((unsigned __int128)r->sum_accepted_with_steps,
				       (unsigned __int128)r->sum_steps));
	if (r->sum_drafted > 0)
		set_run(r, SS_M_OVERALL_DAR,
			ss_ratio((unsigned __int128)r->sum_accepted_with_drafted,
				 (unsigned __int128)r->sum_drafted) * 100.0);
	if (r->zero_step > 0)
		set_run(r, SS_M_ZERO_STEP_REQUESTS, (double)r->zero_step);
	/* SPEC 3: absent when no ok record has steps (llama.cpp without
	 * draft_rounds), as AIPerf leaves it out. */
	if (r->ok_with_steps > 0)
		set_run(r, SS_M_TOTAL_STEPS, (double)r->sum_steps);
	if (r->ok > 0) {
		set_run(r, SS_M_TOTAL_ACCEPTED, (double)r->sum_accepted);
		if (r->ok_with_drafted > 0)
			set_run(r, SS_M_TOTAL_DRAFT, (double)r->sum_drafted);
	}
	return true;
}

bool ss_results_any(const struct ss_results *r)
{
	for (int m = 0; m < SS_M_COUNT; m++)
		if (r->has[m])
			return true;
	return false;
}

static int cmp_engine(const void *x, const void *y)
{
	const struct ss_engine_count *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/*
 * Once requests were counted by their source.input, a stream that held
 * none is an enriched file without a line (an empty shard's partial): not
 * an input of the report (SPEC 8.1).
 */
static bool drop_empty_streams(struct ss_agg *a)
{
	size_t k = 0;

	if (!a->read_enriched)
		return true;
	for (size_t i = 0; i < a->ninputs; i++) {
		if (a->inputs[i].empty_stream && a->inputs[i].requests == 0) {
			ss_free(a->inputs[i].name);
			continue;
		}
		a->inputs[k++] = a->inputs[i];
	}
	if (k == a->ninputs)
		return true;
	a->ninputs = k;
	a->last_named = SIZE_MAX;
	a->stream_entry = SIZE_MAX;
	return reindex(a, a->by_name_cap ? a->by_name_cap : 64);
}

bool ss_agg_finish(struct ss_agg *a)
{
	if (!close_stream(a) || !drop_empty_streams(a))
		return false;
	if (a->nengines > 1)
		qsort(a->engines, a->nengines, sizeof(*a->engines), cmp_engine);
	ss_outliers_finish(&a->outliers);
	if (!results_finish(&a->main, a->threads) || !results_finish(&a->warmup, a->threads))
		return false;
	for (size_t g = 0; g < a->groups.n; g++)
		if (!results_finish(&a->group[g].res, a->threads))
			return false;
	if (a->groups.n) {
		size_t *order = ss_reallocarray(a->group_order, a->groups.n, sizeof(*order));

		if (!order)
			return false;
		a->group_order = order;
		if (!ss_group_table_sorted(&a->groups, order))
			return false;
	}
	return true;
}

const char *ss_input_kind_name(const struct ss_input_info *in)
{
	/* Requests that were never read as a kind (unparsable...) don't count. */
	unsigned k = in->kinds & ~(1u << SS_KIND_UNKNOWN);

	if (k == 0)
		return "unknown";
	if (k & (k - 1))
		return "mixed";
	return ss_kind_name((enum ss_kind)__builtin_ctz(k));
}
