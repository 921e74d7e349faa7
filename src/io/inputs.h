/*
 * inputs.h - from the paths on the command line to a sequence of decoded
 * streams (SPEC 1.1): files, standard input (`-` or no path), compressed
 * files (detected by magic bytes), archive members, artifact directories,
 * and with `recursive` whole trees of them.
 *
 * Ownership: the caller owns the iterator; the iterator owns every stream
 * and name it hands out, each valid until the next ss_inputs_next, and
 * borrows the paths and options given to it.
 */
#ifndef SS_INPUTS_H
#define SS_INPUTS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/stream.h"
#include "util/fileid.h"
#include "util/msg.h"

/*
 * SS_NEXT_REFUSED: an input is one of the outputs (same device and inode):
 * the message was printed; the run must stop and write nothing.
 */
enum ss_next { SS_NEXT_OK = 0, SS_NEXT_END, SS_NEXT_FAILED, SS_NEXT_FATAL,
	       SS_NEXT_REFUSED };

struct ss_inputs_opts {
	bool recursive;
	/* The run's stop flag (NULL: none): every stream, walk and spool
	 * copy checks it. */
	const volatile sig_atomic_t *stop;
	unsigned zstd_window_log;          /* 0: libzstd's default */
	uint64_t spool_limit;              /* 0: no limit */
	/* The outputs' files (NULL: none): an input that is one of them,
	 * however it was reached (walk, artifact directory, stdin, a link),
	 * is refused before anything is written. */
	const struct ss_fileids *outputs;
	/*
	 * resolve: expand every path when the iterator is created (directories
	 * walked, each archive or failed path one unit), so the units can be
	 * listed. shard_count > 0: keep only block shard_index of shard_count
	 * of them (SPEC 8.2); implies resolve.
	 */
	bool resolve;
	size_t shard_index, shard_count;
	/*
	 * SPEC 10.5: under a shard, server files are left out before the
	 * units are split (a note names each): 1 those whose content is
	 * Prometheus text (io/sniff.h) and AIPerf's
	 * server_metrics_export.jsonl, 2 every file (--input-kind scrape),
	 * 0 none (a forced request kind); whatever it is, a file named as
	 * AIPerf's server_metrics_export.json. Archives stay units; standard
	 * input too (their server inputs are left out when read).
	 */
	int shard_server;
	/* A progress display is drawn: a tree of -r is walked once more up
	 * front, for the sizes of its exports (SPEC 5's percentage). */
	bool progress;
};

struct ss_inputs;

/* `paths` (n of them; n = 0 means standard input) must outlive the iterator. */
struct ss_inputs *ss_inputs_new(const char *const *paths, size_t n,
				const struct ss_inputs_opts *opts, struct ss_msg *msg);
void ss_inputs_free(struct ss_inputs *it);

/*
 * The units of a resolved iterator (opts.resolve or a shard), in order:
 * paths as given or as a walk found them, `-` for standard input. 0 for an
 * iterator that was not resolved. Names are valid as long as the iterator,
 * and only before the first ss_inputs_next().
 */
size_t ss_inputs_unit_count(const struct ss_inputs *it);
const char *ss_inputs_unit_name(const struct ss_inputs *it, size_t i);

/*
 * The next input, in order. SS_NEXT_OK: *out is a stream owned by the
 * iterator, valid until the next call. SS_NEXT_FAILED: an input could not
 * be opened or read; the message was printed through `msg` and *name tells
 * which (valid until the next call); the caller goes on with the next
 * input. SS_NEXT_END: no more inputs. SS_NEXT_FATAL: out of memory.
 */
enum ss_next ss_inputs_next(struct ss_inputs *it, struct ss_stream **out,
			    const char **name);

/*
 * How far the reading is, for a progress display (call it from the thread
 * that calls ss_inputs_next). *done: bytes of the input files consumed so
 * far: for a compressed file or an archive the compressed bytes, read off
 * the file's position, so the decoders' work is measured against the
 * sizes on disk. *total: the sizes of the files the paths name, taken
 * when the iterator was made. Returns false when the total is not
 * knowable: standard input or a path that is a pipe, a FIFO or a device,
 * or a tree walked with -r (*total is then 0 and *done counts what has
 * been read of regular files).
 */
bool ss_inputs_progress(const struct ss_inputs *it, uint64_t *done, uint64_t *total);

#endif
