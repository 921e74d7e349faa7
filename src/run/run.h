/*
 * run.h - the run: inputs are read, decompressed and framed by the
 * calling thread while `threads` worker threads (at least one) process the
 * batches; results are collected in input order by the calling thread, so
 * every output is byte-identical for any thread count.
 *
 * A server input (SPEC 10.1) is not framed: its bytes go, in batches of
 * the same size, through the same ring (so that everything reaches the
 * collector in input order), and the collector feeds them to the
 * exposition reader (server/expo.h) into cfg->server. AIPerf's
 * server_metrics_export.json goes the same way, whole, to
 * server/server_json.h; a JSONL line of a JSON server shape is told by the
 * worker (a line no request kind claims) and fed by the collector, in
 * input order, instead of being counted as a request.
 *
 * Ownership: ss_run() borrows the configuration (paths, group keys, the
 * output file list, the server state) and the message context for the call, and adds every
 * request to the caller's aggregate, which then owns what it keeps. The
 * enriched lines given to `sink` are borrowed for that call only (the
 * batch that holds them is reused).
 */
#ifndef SS_RUN_H
#define SS_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/groupkey.h"
#include "engines/request.h"
#include "metrics/aggregate.h"
#include "server/bydir.h"
#include "server/server.h"
#include "util/fileid.h"
#include "util/msg.h"

enum ss_run_status {
	SS_RUN_OK = 0,
	SS_RUN_INPUT_FAILED,   /* some input could not be read (wholly or partly) */
	SS_RUN_NOTHING_READ,   /* no input could be read at all */
	SS_RUN_FATAL,          /* out of memory */
	SS_RUN_INTERRUPTED,
	SS_RUN_SINK_FAILED     /* the records sink refused data */
};

struct ss_flat;

struct ss_run_cfg {
	const char *const *paths;
	size_t npaths;
	bool recursive;
	size_t shard_index, shard_count; /* shard_count 0: all inputs */
	enum ss_kind force_kind;
	enum ss_engine only_engine;
	size_t max_record;
	int threads;                   /* >= 1 */
	bool want_jsonl;               /* call `sink` with enriched lines */
	bool (*sink)(void *ctx, const char *data, size_t len);
	void *sink_ctx;
	/* --table-csv: the flat table's rows (report/flat.h), each batch's
	 * to flat_sink (with sink_ctx), in input order; NULL: none */
	const struct ss_flat *flat;
	bool (*flat_sink)(void *ctx, const char *data, size_t len);
	bool progress;
	volatile sig_atomic_t *stop;   /* set by a signal handler */
	unsigned zstd_window_log;      /* 0: libzstd's default */
	uint64_t spool_limit;          /* 0: none */
	const struct ss_fileids *outputs; /* inputs that are outputs are refused */
	bool full_parse;               /* testing: no substring filter */
	const struct ss_group_spec *group_by; /* SPEC 7.3; NULL or no key: none */
	bool want_time;                /* SPEC 7.8: outcomes carry their time */
	bool want_timing;              /* SPEC 11.1: outcomes carry their timing */
	bool keep_models;              /* SPEC 7.11: ok outcomes reach the aggregate with their model */
	bool drafted;                  /* what SPEC 7.9 pools (with --positions) */
	/*
	 * SPEC 10: where server inputs (Prometheus text, detected by content
	 * or forced by force_kind SS_KIND_SCRAPE; the JSON shapes' lines;
	 * AIPerf's document by its name) go, in input order, from the
	 * collecting side; NULL: none is detected. A forced request kind
	 * turns the detection off (not the document's name rule). Under a
	 * shard they are left out (a note).
	 */
	struct ss_server *server;
	/* --group-by dir alone (SPEC 10.7): the server's states per directory; NULL: none */
	struct ss_server_bydir *server_bydir;
};

/* Requests whose status --strict counts are tallied in the aggregate. */
enum ss_run_status ss_run(const struct ss_run_cfg *cfg, struct ss_agg *agg,
			  struct ss_msg *msg);

#endif
