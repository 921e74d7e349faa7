/*
 * progress.h - the progress line of a run on stderr (or any stream): all
 * of the display in one place, redrawn at most four times a second, and
 * erased at the end so that nothing of it stays on the terminal.
 */
#ifndef SS_PROGRESS_H
#define SS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ss_progress {
	FILE *out;           /* NULL: no display (every call does nothing) */
	double start, last;  /* monotonic seconds: the run began, last redraw */
};

/* Start the clock; `out` NULL when there is to be no display. */
void ss_progress_init(struct ss_progress *p, FILE *out);
/* Bytes read and requests counted so far; drawn unless drawn < 0.25 s ago. */
void ss_progress_update(struct ss_progress *p, uint64_t bytes, uint64_t requests);
/* Erase the line. */
void ss_progress_end(struct ss_progress *p);

#endif
