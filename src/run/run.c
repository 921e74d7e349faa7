#include "run/run.h"

#include <stdio.h>
#include <string.h>

#include "run/reqkeys.h"
#include "engines/logreq.h"
#include "io/batch.h"
#include "io/framer.h"
#include "io/aiperf_conf.h"
#include "io/inputs.h"
#include "json/json.h"
#include "metrics/drafted.h"
#include "metrics/values.h"
#include "report/flat.h"
#include "report/report.h"
#include "run/pool.h"
#include "run/progress.h"
#include "io/looks.h"
#include "server/feed.h"
#include "util/alloc.h"
#include "util/grow.h"

/* Bytes of text per batch: large enough to amortise hand-offs, small
 * enough to stay in cache and keep memory bounded. (1 MiB, against 2 MiB
 * before: a records run 2-3% faster; bench/README.md, round 4.) */
#define BATCH_TARGET ((size_t)1 << 20)
/*
 * Batches kept waiting per worker before the reading thread parses one
 * itself: with one, a worker that finished its job while the reader was
 * busy with its own waited (about 5% of a records run); with two it finds
 * the next one queued. The ring holds them: two per worker, one in each
 * worker's hands, one the reader parses or fills, one it collects.
 */
#define QUEUE_AHEAD 2
/*
 * A batch this large holds a line far over the target: it is the only one
 * in flight (no batch is read until it is collected), so however many
 * threads run, one huge line is parsed at a time and memory stays within
 * README's bound (64 MiB + 64 MiB x threads + 16 x record limit).
 */
#define BIG_BATCH (BATCH_TARGET + ((size_t)1 << 20))

/* How much nicer than the reader the workers are (see pool.c). */
#define WORKER_NICE 5

/* One job of the pool: a batch of requests and what became of them. */
struct slot {
	struct ss_batch batch;
	char *name;                /* the input these requests come from */
	bool first_of_input;
	bool has_conc;             /* SPEC 11.4: the input's concurrency */
	int64_t conc;
	bool input_failed;         /* the input broke after these requests */
	char *fail_reason;
	struct ss_outcome *outs;
	size_t nouts, outs_cap;
	struct ss_outcome_arena views;   /* what the outcomes keep of their lines */
	struct ss_buf jsonl;
	struct ss_buf flat;        /* --table-csv rows */
	struct ss_keybuf keys;     /* --group-by values, one tuple per outcome */
	bool nomem;
	bool big;                  /* batch.len > BIG_BATCH */
	enum ss_server_feed_kind kind;   /* a server input's bytes (no units), or requests */
	struct ss_server_feed_line *srv;  /* server lines among the units, in order */
	size_t nsrv, srv_cap;
	bool last_of_input;        /* a server input's last bytes (or its failure) */
	/* where the reading was once this batch was read, shown by the
	 * progress display when the batch is collected: so the bar and the
	 * request count it shows agree (the reader is batches ahead) */
	uint64_t at_bytes, at_done, at_total;
};

struct worker {
	struct ss_processor *proc;
	struct ss_vec_i64 drafted;   /* an outcome's SPEC 7.9 part, until kept */
	const char **parts;
	size_t *lens;
	size_t parts_cap, lens_cap;
};

/* What the workers share: read-only while they run. */
struct run_ctx {
	const struct ss_run_cfg *cfg;
	struct slot *slots;
};

static void slot_release(struct slot *s)
{
	ss_batch_release(&s->batch);
	ss_free(s->name);
	ss_free(s->fail_reason);
	ss_free(s->outs);
	ss_free(s->srv);
	ss_outcome_arena_release(&s->views);
	ss_buf_release(&s->jsonl);
	ss_buf_release(&s->flat);
	ss_keybuf_release(&s->keys);
}

static void slot_clear(struct slot *s)
{
	ss_batch_reset(&s->batch);
	ss_free(s->name);
	ss_free(s->fail_reason);
	s->name = s->fail_reason = NULL;
	s->first_of_input = s->input_failed = s->nomem = false;
	s->kind = SS_SERVER_FEED_REQUESTS;
	s->last_of_input = false;
	s->nouts = s->nsrv = 0;
	ss_outcome_arena_reset(&s->views);
	ss_buf_reset(&s->jsonl);
	ss_buf_reset(&s->flat);
	ss_keybuf_reset(&s->keys);
}

static void worker_free(void *ctx, void *arg)
{
	struct worker *w = arg;

	(void)ctx;
	if (!w)
		return;
	ss_processor_free(w->proc);
	SS_VEC_RELEASE(&w->drafted);
	ss_free(w->parts);
	ss_free(w->lens);
	ss_free(w);
}

static void *worker_new(void *ctx)
{
	const struct ss_run_cfg *cfg = ((struct run_ctx *)ctx)->cfg;
	struct ss_process_opts po;
	const char *names[SS_GROUP_MAX_KEYS];
	struct worker *w = ss_calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	po.force_kind = cfg->force_kind;
	po.only_engine = cfg->only_engine;
	po.full_parse = cfg->full_parse;
	po.want_time = cfg->want_time;
	po.want_timing = cfg->want_timing;
	/* SPEC 4.4: a raw request's enriched line carries its timing, and
	 * so does its flat table row */
	po.raw_timing = cfg->want_jsonl || cfg->flat;
	/* SPEC 11.4: a records line's reasoning tokens, for the record the
	 * enriched line and the flat row write and the `reasoning` key */
	po.want_reasoning = cfg->want_jsonl || cfg->flat;
	for (size_t k = 0; cfg->group_by && k < cfg->group_by->n; k++)
		po.want_reasoning |= cfg->group_by->keys[k].kind == SS_GK_REASONING;
	/* SPEC 7.3: the meta.NAME keys, read in the walk over each line */
	po.meta_names = names;
	po.meta_n = ss_keybuf_meta_names(cfg->group_by, names);
	w->proc = ss_processor_new(&po);
	if (!w->proc) {
		worker_free(ctx, w);
		return NULL;
	}
	return w;
}

/* 0: no server inputs; detected by content; every input is one (forced). */
static enum ss_server_feed_mode feed_mode(const struct ss_run_cfg *cfg)
{
	if (!cfg->server)
		return SS_SERVER_FEED_OFF;
	return cfg->force_kind == SS_KIND_SCRAPE    ? SS_SERVER_FEED_FORCED
	       : cfg->force_kind == SS_KIND_LOG     ? SS_SERVER_FEED_LOGS
	       : cfg->force_kind == SS_KIND_UNKNOWN ? SS_SERVER_FEED_DETECT
						    : SS_SERVER_FEED_OFF;
}

/*
 * Whether the unit just processed into o is the server's (a line of a
 * JSON server shape: server/feed.h); then it is kept in s->srv, not as a
 * request. false: out of memory.
 */
static bool server_line(struct slot *s, const struct ss_unit *u, const struct ss_outcome *o,
			enum ss_server_feed_mode mode, struct ssj_parser *doc, bool *taken)
{
	const struct ss_batch *b = &s->batch;
	enum ss_server_shape shape;
	size_t off;

	*taken = false;
	if (u->nparts != 1 || u->sse || u->oversize)
		return true;
	off = b->part_off[u->first_part];
	shape = ss_server_feed_line_shape(mode, o->status, doc, b->buf + off,
					  b->part_len[u->first_part]);
	if (shape == SS_SRVJ_NONE)
		return true;
	if (!SS_ALLOC_GROW(s->srv, s->nsrv + 1, s->srv_cap))
		return false;
	s->srv[s->nsrv++] = (struct ss_server_feed_line){shape, off, b->part_len[u->first_part], u->line};
	*taken = true;
	return true;
}

/* Process every request of a slot's batch. */
static void process_slot(struct worker *w, struct slot *s, const struct ss_run_cfg *cfg)
{
	struct ss_batch *b = &s->batch;
	enum ss_server_feed_mode mode = feed_mode(cfg);

	/* room for the batch's outcomes at once: grown one at a time, the
	 * first batches of a slot copied them over and over (realloc) */
	if (!SS_ALLOC_GROW(s->outs, s->nouts + b->nunits, s->outs_cap))
		goto nomem;
	for (size_t i = 0; i < b->nunits; i++) {
		const struct ss_unit *u = &b->units[i];
		struct ss_request_text req;
		struct ss_outcome *o;
		bool taken;

		if (!SS_ALLOC_GROW(w->parts, u->nparts, w->parts_cap) ||
		    !SS_ALLOC_GROW(w->lens, u->nparts, w->lens_cap))
			goto nomem;
		for (size_t k = 0; k < u->nparts; k++) {
			w->parts[k] = b->buf + b->part_off[u->first_part + k];
			w->lens[k] = b->part_len[u->first_part + k];
		}
		req.parts = w->parts;
		req.lens = w->lens;
		req.nparts = u->nparts;
		req.sse = u->sse;
		req.oversize = u->oversize;
		req.line = u->line;
		req.input_name = s->name;

		if (!SS_ALLOC_GROW(s->outs, s->nouts + 1, s->outs_cap))
			goto nomem;
		o = &s->outs[s->nouts];
		if (!ss_process(w->proc, &req, o) || !server_line(s, u, o, mode, ss_processor_document(w->proc), &taken))
			goto nomem;
		if (taken)
			continue;   /* the outcome's place is the next request's */
		ss_outcome_values(o);
		if (!o->input) {   /* an enriched line keeps its source.concurrency */
			o->has_concurrency = s->has_conc;
			o->concurrency = s->conc;
		}
		if (cfg->want_jsonl) {
			/* the line is still open on the processor's parser */
			ss_report_jsonl(&s->jsonl, ss_processor_document(w->proc), s->name, o);
			if (s->jsonl.failed)
				goto nomem;
		}
		if (cfg->group_by && cfg->group_by->n &&
		    !ss_keybuf_add(&s->keys, cfg->group_by, s->name, o))
			goto nomem;
		if (cfg->flat) {
			struct ss_kv key[SS_GROUP_MAX_KEYS];
			bool keyed = cfg->group_by && cfg->group_by->n;

			if (keyed)
				ss_keybuf_tuple(&s->keys, cfg->group_by->n, s->nouts, key);
			ss_flat_row(cfg->flat, &s->flat, s->name, o, keyed ? key : NULL);
			if (s->flat.failed)
				goto nomem;
		}
		if (cfg->drafted && o->status == SS_ST_OK && o->record) {
			w->drafted.len = 0;
			if (!ss_drafted_summarize(o->record, &w->drafted, &o->drafted_state,
						  &o->by_len_len))
				goto nomem;
			if (o->drafted_state == SS_DR_POOLED)
				o->by_len = w->drafted.v;
		}
		if (!cfg->keep_models || o->status != SS_ST_OK)
			o->model = NULL;
		/* The borrowed views die with the processor's next request. */
		if (!ss_outcome_arena_keep(&s->views, o))
			goto nomem;
		s->nouts++;
	}
	return;
nomem:
	s->nomem = true;
}

/*
 * After a request longer than this, a worker gives back what its parsers
 * and buffers grew to (simdjson keeps about 5.7 bytes per byte of the
 * largest document), so a thread holds that much only while it parses.
 */
#define TRIM_AFTER ((size_t)1 << 20)

static void work(void *ctx, void *w, size_t slot)
{
	struct run_ctx *rc = ctx;
	struct slot *s = &rc->slots[slot];
	struct worker *wk = w;
	size_t longest = 0;

	if (!wk) {
		s->nomem = true;
		return;
	}
	process_slot(wk, s, rc->cfg);
	for (size_t i = 0; i < s->batch.nparts; i++)
		if (s->batch.part_len[i] > longest)
			longest = s->batch.part_len[i];
	if (longest > TRIM_AFTER)
		ss_processor_trim(wk->proc);
}

/* ---- the reader: inputs -> framed batches ---- */

struct reader {
	struct ss_inputs *it;
	struct ss_framer *framer;
	struct ss_stream *stream;   /* current input, NULL between inputs */
	struct ss_server_feed *feed;
	enum ss_server_feed_kind kind;    /* what the current input is */
	char *name;
	bool has_conc;              /* the current input's concurrency (11.4) */
	int64_t conc;
	size_t max_record;
	bool done;
	bool fatal;
	unsigned opened, failed;
	uint64_t bytes;
};

static bool is_problem(enum ss_status s)
{
	return s == SS_ST_MALFORMED || s == SS_ST_UNPARSABLE || s == SS_ST_OVERSIZE ||
	       s == SS_ST_UNRECOGNIZED || s == SS_ST_AMBIGUOUS || s == SS_ST_MULTI_CHOICE;
}

/* A server input's next bytes into the slot's batch (no units). */
static bool fill_server(struct reader *r, struct slot *s, struct ss_msg *msg)
{
	uint64_t got = 0;
	bool failed;

	s->kind = r->kind;
	if (!ss_server_feed_read(r->feed, r->kind, r->stream, &s->batch, BATCH_TARGET, &got,
				 &s->last_of_input, &failed, &s->fail_reason, msg)) {
		r->fatal = r->done = true;
		return false;
	}
	r->bytes += got;
	if (failed) {
		s->input_failed = true;
		r->failed++;
	}
	if (s->last_of_input)
		r->stream = NULL;
	return true;
}

/*
 * SPEC 11.4: the concurrency of the input just opened, from its artifact
 * directory's configuration; a file that is there but cannot give it is
 * named (escaped by the message). false: out of memory.
 */
static bool input_concurrency(struct reader *r, struct ss_msg *msg)
{
	char file[512], why[160];

	r->has_conc = false;
	switch (ss_artifact_concurrency(r->name, r->max_record, &r->conc, file, sizeof(file), why,
					sizeof(why))) {
	case SS_CONC_OK:
		r->has_conc = true;
		break;
	case SS_CONC_NONE:
		break;
	case SS_CONC_BAD:
		ss_msg_warn(msg, "%s: %s; concurrency is null for %s", file, why, r->name);
		break;
	case SS_CONC_NOMEM:
		ss_msg_error(msg, "out of memory");
		return false;
	}
	return true;
}

/* Fill one slot; false when there is nothing more to read. */
static bool fill_slot(struct reader *r, struct slot *s, struct ss_msg *msg)
{
	enum ss_fill f;

	slot_clear(s);
	while (!r->stream) {
		const char *name = NULL;
		enum ss_next n = ss_inputs_next(r->it, &r->stream, &name);

		if (n == SS_NEXT_END) {
			r->done = true;
			return false;
		}
		if (n == SS_NEXT_FATAL) {
			ss_msg_error(msg, "out of memory");
			r->fatal = r->done = true;
			return false;
		}
		if (n == SS_NEXT_REFUSED) {   /* said why; nothing may be written */
			r->fatal = r->done = true;
			return false;
		}
		if (n == SS_NEXT_FAILED) {
			r->failed++;
			r->stream = NULL;
			continue;
		}
		ss_free(r->name);
		r->name = ss_strdup(ss_stream_name(r->stream));
		if (!r->name) {
			r->fatal = r->done = true;
			return false;
		}
		r->opened++;
		if (!ss_server_feed_input(r->feed, r->name, r->stream, msg, &r->kind)) {
			r->fatal = r->done = true;
			return false;
		}
		if (r->kind == SS_SERVER_FEED_LEFT_OUT) {
			r->opened--;
			r->stream = NULL;
			continue;
		}
		if (r->kind == SS_SERVER_FEED_REQUESTS) {
			ss_framer_start(r->framer, r->stream);
			if (!input_concurrency(r, msg)) {
				r->fatal = r->done = true;
				return false;
			}
		}
		s->first_of_input = true;
	}
	s->has_conc = r->has_conc;
	s->conc = r->conc;
	s->name = ss_strdup(r->name);
	if (!s->name) {
		r->fatal = r->done = true;
		return false;
	}
	if (r->kind != SS_SERVER_FEED_REQUESTS)
		return fill_server(r, s, msg);
	f = ss_framer_fill(r->framer, &s->batch, BATCH_TARGET);
	r->bytes += s->batch.len;
	switch (f) {
	case SS_FILL_MORE:
		break;
	case SS_FILL_END:
		r->stream = NULL;
		break;
	case SS_FILL_ERROR:
		s->input_failed = true;
		s->fail_reason = ss_strdup(ss_stream_error(r->stream));
		r->failed++;
		r->stream = NULL;
		break;
	case SS_FILL_NOMEM:
		ss_msg_error(msg, "out of memory");
		r->fatal = r->done = true;
		return false;
	}
	return true;
}

/* ---- the collector: slots, in order, into the aggregate ---- */

/* What the collector keeps for the llama.cpp requests of log inputs (SPEC 12.4). */
struct log_reqs {
	const struct ss_run_cfg *cfg;
	struct ss_agg *agg;
	struct ss_msg *msg;
	const char *name;              /* the log input being fed */
	struct ss_processor *proc;     /* made at the first task block */
	struct ss_buf jsonl;
	struct ss_keybuf keys;
	bool sink_failed;
	bool in_parts;                 /* its requests came in partial results (SPEC 12.6) */
};

/* One finished task block: a request like any other, in input order. */
static bool log_task(void *ctx, const struct ss_llama_task *t)
{
	struct log_reqs *lr = ctx;
	const struct ss_run_cfg *cfg = lr->cfg;
	struct ss_outcome o;

	if (lr->in_parts)
		return true;   /* the merge run: the shard's partial brought it */
	if (!lr->proc) {
		struct ss_process_opts po = {.force_kind = SS_KIND_LOG};
		const char *names[SS_GROUP_MAX_KEYS];

		po.meta_names = names;
		po.meta_n = ss_keybuf_meta_names(cfg->group_by, names);
		lr->proc = ss_processor_new(&po);
		if (!lr->proc)
			return false;
	}
	/* SPEC 13: its `total time` line, else its last */
	if (!ss_process_llama_task(lr->proc, t, t->total_line ? t->total_line : t->last_line, &o))
		return false;
	ss_outcome_values(&o);
	if (cfg->want_jsonl) {
		ss_buf_reset(&lr->jsonl);
		ss_report_jsonl(&lr->jsonl, ss_processor_document(lr->proc), lr->name, &o);
		if (lr->jsonl.failed)
			return false;
		if (!cfg->sink(cfg->sink_ctx, lr->jsonl.data, lr->jsonl.len))
			lr->sink_failed = true;
	}
	if (cfg->group_by && cfg->group_by->n) {
		struct ss_kv key[SS_GROUP_MAX_KEYS];

		ss_keybuf_reset(&lr->keys);
		if (!ss_keybuf_add(&lr->keys, cfg->group_by, lr->name, &o))
			return false;
		ss_keybuf_tuple(&lr->keys, cfg->group_by->n, 0, key);
		if (!ss_agg_add_keyed(lr->agg, &o, key))
			return false;
	} else if (!ss_agg_add(lr->agg, &o)) {
		return false;
	}
	if (o.status != SS_ST_OK && (is_problem(o.status) || lr->msg->verbosity > 0))
		ss_msg_request(lr->msg, (unsigned)o.status, ss_status_name(o.status), lr->name,
			       o.line, o.reason);
	return true;
}

/* A log input's batch: its lines read, its task blocks added as requests. */
static bool collect_log(struct slot *s, struct ss_agg *agg, struct ss_server_feed *feed,
			struct log_reqs *lr, bool *sink_failed)
{
	struct ss_server_log_sink sink = {log_task, lr};
	struct ss_server_log_counts lc;
	bool counted;

	lr->name = s->name;
	if (s->first_of_input)
		lr->in_parts = ss_agg_stream_in_parts(agg);
	if (!ss_server_feed_log(feed, s->name, s->first_of_input, s->last_of_input, s->batch.buf,
				s->batch.len, &sink, &counted, &lc))
		return false;
	if (lr->sink_failed)
		*sink_failed = true;
	return !counted || ss_agg_input_log(agg, lc.log_lines, lc.bad_lines, lc.refused_lines);
}

static bool collect_slot(const struct ss_run_cfg *cfg, struct slot *s, struct ss_agg *agg,
			 struct ss_msg *msg, bool *sink_failed, struct ss_server_feed *feed,
			 struct log_reqs *lr)
{
	bool counted;
	uint64_t n;

	if (s->nomem)
		return false;
	if (s->first_of_input && !ss_agg_begin_input(agg, s->name))
		return false;
	if (s->kind == SS_SERVER_FEED_LOG) {
		if (!collect_log(s, agg, feed, lr, sink_failed))
			return false;
	} else if (!ss_server_feed_batch(feed, s->name, s->first_of_input, s->kind, s->last_of_input,
				  s->input_failed, s->batch.buf, s->batch.len, s->srv, s->nsrv, msg,
				  &counted, &n) ||
	    (counted && !ss_agg_input_snapshots(agg, n)))
		return false;
	for (size_t i = 0; i < s->nouts; i++) {
		struct ss_outcome *o = &s->outs[i];

		ss_outcome_arena_restore(&s->views, o);
		if (cfg->group_by && cfg->group_by->n) {
			struct ss_kv key[SS_GROUP_MAX_KEYS];

			ss_keybuf_tuple(&s->keys, cfg->group_by->n, i, key);
			if (!ss_agg_add_keyed(agg, o, key) ||
			    (cfg->want_timing && !ss_agg_add_timing(agg, o, &o->timing, key)))
				return false;
		} else if (!ss_agg_add(agg, o) ||
			   (cfg->want_timing && !ss_agg_add_timing(agg, o, &o->timing, NULL))) {
			return false;
		}
		if (o->status != SS_ST_OK) {
			if (is_problem(o->status) || msg->verbosity > 0)
				ss_msg_request(msg, (unsigned)o->status,
					       ss_status_name(o->status),
					       o->input ? o->input : s->name, o->line,
					       o->reason);
		}
	}
	/* SPEC 5: what the input looks like, for an input of no request (cli/hints.c) */
	if (s->first_of_input && s->batch.nunits && s->batch.units[0].oversize) {
		ss_agg_input_look(agg, SS_LOOK_OVERSIZE);
	} else if (s->first_of_input && s->batch.nunits && s->batch.units[0].nparts) {
		size_t p = s->batch.units[0].first_part;

		ss_agg_input_look(agg, ss_look_of(s->batch.buf + s->batch.part_off[p],
						  s->batch.part_len[p]));
	}
	if (cfg->want_jsonl && s->jsonl.len &&
	    !cfg->sink(cfg->sink_ctx, s->jsonl.data, s->jsonl.len))
		*sink_failed = true;
	if (cfg->flat && s->flat.len &&
	    !cfg->flat_sink(cfg->sink_ctx, s->flat.data, s->flat.len))
		*sink_failed = true;
	if (s->input_failed) {
		ss_agg_fail_input(agg);
		/* A read cut by SIGINT/SIGTERM is the interruption, said once. */
		if (!(cfg->stop && *cfg->stop))
			ss_msg_error(msg, "%s: %s", s->name,
				     s->fail_reason ? s->fail_reason : "read error");
	}
	return true;
}

enum ss_run_status ss_run(const struct ss_run_cfg *cfg, struct ss_agg *agg,
			  struct ss_msg *msg)
{
	struct ss_inputs_opts iopts = {.recursive = cfg->recursive,
				       .stop = cfg->stop,
				       .zstd_window_log = cfg->zstd_window_log,
				       .spool_limit = cfg->spool_limit,
				       .outputs = cfg->outputs,
				       .shard_index = cfg->shard_index,
				       .shard_count = cfg->shard_count,
				       .shard_server = (int)feed_mode(cfg),
				       .progress = cfg->progress};
	struct reader r;
	struct run_ctx rc;
	struct ss_pool_ops ops;
	struct ss_pool *pool = NULL;
	struct ss_progress prog;
	struct ss_server_feed feed;
	struct log_reqs lr = {.cfg = cfg, .agg = agg, .msg = msg};
	size_t nthreads = cfg->threads > 1 ? (size_t)cfg->threads : 1;
	size_t nslots = nthreads * (QUEUE_AHEAD + 1) + 2;
	bool fatal = false, sink_failed = false, interrupted = false;
	size_t big_inflight = 0;
	enum ss_framing framing = cfg->force_kind == SS_KIND_SSE ? SS_FRAMING_SSE
				  : cfg->force_kind == SS_KIND_UNKNOWN ? SS_FRAMING_AUTO
								       : SS_FRAMING_JSONL;

	ss_buf_init(&lr.jsonl);
	ss_keybuf_init(&lr.keys);
	ss_progress_init(&prog, cfg->progress ? stderr : NULL);
	ss_progress_attach(&prog, msg);
	memset(&r, 0, sizeof(r));
	ss_server_feed_init(&feed, cfg->server, feed_mode(cfg), cfg->shard_count > 0,
			    cfg->max_record);
	ss_server_feed_by_dir(&feed, cfg->server_bydir);
	r.feed = &feed;
	r.max_record = cfg->max_record;
	rc.cfg = cfg;
	rc.slots = ss_calloc(nslots, sizeof(*rc.slots));
	memset(&ops, 0, sizeof(ops));
	ops.ctx = &rc;
	ops.worker_new = worker_new;
	ops.work = work;
	ops.worker_free = worker_free;
	ops.worker_nice = WORKER_NICE;
	ops.caller_works = true;
	ops.queue_ahead = QUEUE_AHEAD;
	pool = rc.slots ? ss_pool_new(nslots, nthreads, &ops) : NULL;
	r.it = ss_inputs_new(cfg->paths, cfg->npaths, &iopts, msg);
	r.framer = ss_framer_new(cfg->max_record, framing);
	if (r.framer)
		ss_framer_set_stop(r.framer, cfg->stop);
	if (!rc.slots || !pool || !r.it || !r.framer) {
		ss_msg_error(msg, "out of memory");
		fatal = true;
		goto out;
	}
	for (size_t i = 0; i < nslots; i++) {
		ss_batch_init(&rc.slots[i].batch);
		ss_outcome_arena_init(&rc.slots[i].views);
	}
	if (ss_pool_start(pool) == 0) {
		ss_msg_error(msg, "cannot start worker threads");
		fatal = true;
		goto out;
	}
	for (;;) {
		if (cfg->stop && *cfg->stop) {
			interrupted = true;
			break;
		}
		if (sink_failed)
			break;  /* the records cannot be written: nothing will be */
		/* Keep every slot busy while there is input (one big batch alone). */
		while (!r.done && !fatal && ss_pool_can_submit(pool) && big_inflight == 0) {
			struct slot *fs = &rc.slots[ss_pool_slot_to_fill(pool)];

			if (!fill_slot(&r, fs, msg))
				break;
			fs->big = fs->batch.len > BIG_BATCH;
			big_inflight += fs->big;
			if (prog.out) {
				fs->at_bytes = r.bytes;
				ss_inputs_progress(r.it, &fs->at_done, &fs->at_total);
			}
			ss_pool_submit(pool);
			if (cfg->stop && *cfg->stop)
				break;
		}
		if (ss_pool_pending(pool) == 0)
			break;
		{
			struct slot *s = &rc.slots[ss_pool_wait_oldest(pool)];

			if (!fatal && !collect_slot(cfg, s, agg, msg, &sink_failed, &feed, &lr)) {
				ss_msg_error(msg, "out of memory");
				fatal = true;
			}
			ss_progress_update(&prog, s->at_bytes, agg->total, s->at_done, s->at_total);
			if (s->big) {
				/* Give the huge line's memory back now, not when
				 * the ring comes round to this slot again. */
				ss_batch_reset(&s->batch);
				ss_buf_release(&s->jsonl);
				ss_buf_release(&s->flat);
				big_inflight--;
				s->big = false;
			}
			ss_pool_release_oldest(pool);
		}
	}
out:
	ss_server_feed_release(&feed);   /* a reader stopped in the middle */
	ss_processor_free(lr.proc);
	ss_buf_release(&lr.jsonl);
	ss_keybuf_release(&lr.keys);
	ss_pool_free(pool);   /* drops queued work when stopping early */
	ss_progress_end(&prog);
	if (rc.slots)
		for (size_t i = 0; i < nslots; i++)
			slot_release(&rc.slots[i]);
	ss_free(rc.slots);
	ss_framer_free(r.framer);
	ss_inputs_free(r.it);
	ss_free(r.name);
	if (fatal || r.fatal)
		return SS_RUN_FATAL;
	if (interrupted)
		return SS_RUN_INTERRUPTED;
	if (sink_failed)
		return SS_RUN_SINK_FAILED;
	if (r.opened == 0 && r.failed > 0)
		return SS_RUN_NOTHING_READ;
	return r.failed ? SS_RUN_INPUT_FAILED : SS_RUN_OK;
}
