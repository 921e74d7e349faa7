/*
 * outfile.h - outputs written atomically: into a temporary file beside the
 * target, renamed over it only when complete, so an interrupted run leaves
 * no half-written report. `-` is standard output, written directly. A path
 * ending in `.zst` or `.gz` is written compressed (SPEC 8.3, io/compress.h).
 *
 * Ownership: a struct ss_outfile owns its path copies, its stream and its
 * compressor until it is placed or aborted; it must not move while its
 * temporary file exists (the signal handler's chain runs through it).
 */
#ifndef SS_OUTFILE_H
#define SS_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "io/compress.h"
#include "util/msg.h"

struct ss_outfile {
	char *path;        /* NULL: not in use */
	char *tmp;         /* the temporary file, until placed */
	FILE *fp;
	bool is_stdout;
	bool direct;       /* a device or FIFO, written in place (no temp file) */
	struct ss_compressor *z; /* NULL: written as it is */
	bool failed;       /* a write failed */
	int err;           /* errno of the failed write */
	/* Private: the chain of open temporary files the signal handler
	 * removes. The struct must not move while its temp file exists. */
	struct ss_outfile *volatile next_temp;
};

/*
 * Open `path` for writing. An existing device or FIFO is written in place,
 * without a temporary file. Refuses (with a message) to write over one of
 * `inputs` (the same file, whatever its name), and over an existing file
 * unless `force`. false on any failure.
 */
bool ss_outfile_open(struct ss_outfile *o, const char *path, bool force,
		     const char *const *inputs, size_t ninputs, struct ss_msg *msg);
bool ss_outfile_write(struct ss_outfile *o, const void *p, size_t n);
/*
 * Make the output complete without putting it in place: the compressed
 * stream ended, flushed, synced and closed (a file); flushed and closed
 * (a device); flushed (stdout, which has no temporary file and so is in
 * place from then on). false (with a message) on failure; a file's
 * temporary file is removed then.
 */
bool ss_outfile_finish(struct ss_outfile *o, struct ss_msg *msg);
/* Rename a finished file over its target (nothing to do for stdout or a
 * device). false (with a message, the temporary file removed) on failure. */
bool ss_outfile_place(struct ss_outfile *o, struct ss_msg *msg);
/* Remove the temporary file; safe on a closed or unused outfile. */
void ss_outfile_abort(struct ss_outfile *o);

/*
 * Remove every temporary file still open, however many; async-signal-safe,
 * for the SIGINT/SIGTERM handler (it walks a chain linked through the open
 * outfiles themselves, with signals blocked while the chain changes: no
 * allocation, no fixed number of slots).
 */
void ss_outfile_abort_all_from_signal(void);

#endif
