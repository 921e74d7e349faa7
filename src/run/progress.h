/*
 * progress.h - the progress line of a run on stderr (or any stream): all
 * of the display in one place, redrawn at most four times a second, and
 * erased at the end so that nothing of it stays on the terminal.
 *
 * When the size of the input is known (regular files, compressed or not:
 * the compressed bytes consumed against the sizes of all inputs), the line
 * is a bar with the percentage done, the bytes, the rate and the time
 * left, as `pv` draws it (SPEC 5):
 *
 *   specscan [====>        ]   25%  1.0/4.0 GB  61.2 MB/s  12,345 requests  ETA 0:30
 *
 * otherwise (a pipe) a plain counter:
 *
 *   specscan: 12.8 MB read, 1,028 requests, 61.2 MB/s
 *
 * The time left is rounded up (it reads 0:00 only when all is read) and
 * shown from the first redraw after a quarter of a second. A message
 * (util/msg.h) clears the line first and has it drawn again below itself:
 * ss_progress_attach() registers the display with the message context.
 *
 * The line never reaches the last column of the terminal (no wrap, so
 * `\r` redraws it in place); the bar keeps its width for the whole run
 * (what the widest text of the run leaves, at most 40).
 *
 * Ownership: the display borrows its stream and allocates nothing (it
 * keeps its last line in itself, to draw it again after a message);
 * ss_progress_format() appends to the caller's buffer.
 */
#ifndef SS_PROGRESS_H
#define SS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"
#include "util/msg.h"

struct ss_progress {
	FILE *out;           /* NULL: no display (every call does nothing) */
	double start, last;  /* monotonic seconds: the run began, last redraw */
	int columns;         /* the terminal's width (80 when unknown) */
	struct ss_msg *msg;  /* attached to (ss_progress_attach), or NULL */
	bool drawn;          /* `line` is on the terminal now */
	char line[512];      /* the last line drawn (without `\r`) */
};

/* What one line shows. */
struct ss_progress_view {
	uint64_t bytes;      /* decoded text read so far */
	uint64_t requests;
	uint64_t done;       /* input bytes consumed (compressed) ... */
	uint64_t total;      /* ... of this many; 0: not knowable */
	double elapsed;      /* seconds since the start */
};

/* Start the clock; `out` NULL when there is to be no display. */
void ss_progress_init(struct ss_progress *p, FILE *out);
/* Draw the state unless a line was drawn less than 0.25 s ago. */
void ss_progress_update(struct ss_progress *p, uint64_t bytes, uint64_t requests,
			uint64_t done, uint64_t total);
/* Erase the line (and stop drawing it again after messages). */
void ss_progress_end(struct ss_progress *p);
/* Have every message of `m` clear the line and draw it again below
 * itself (until ss_progress_end(); `m` must outlive the display's use). */
void ss_progress_attach(struct ss_progress *p, struct ss_msg *m);

/* The text of one line (no `\r`, no erase), at most columns - 1 bytes. */
void ss_progress_format(struct ss_buf *b, const struct ss_progress_view *v, int columns);

#endif
