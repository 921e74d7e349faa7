/*
 * msg.h - messages to the user, held in a context (never a global).
 *
 * Every message is one line `specscan: ...` on the context's stream
 * (stderr). Problems with single requests go through ss_msg_request(),
 * which prints the first SS_MSG_REQUEST_LIMIT of each kind and counts the
 * rest; ss_msg_summary() then prints one line per kind that was cut short.
 *
 * Ownership: the context borrows its stream; the kind names given to
 * ss_msg_request() must outlive it (it keeps the pointers for the
 * summary). Messages are formatted into memory of its own, freed before
 * each call returns. Every message is written through util/termesc.h:
 * names and reasons from inputs are shown escaped.
 *
 * A display drawn on the same terminal line (run/progress.h) registers
 * itself with ss_msg_set_display(): every message then clears the line
 * first (`hide`) and has the display drawn again below it (`show`), as pv
 * and zstd do, so no message is written into the display's line. The
 * context borrows the display's `ctx` until it is unregistered (NULL).
 */
#ifndef SS_MSG_H
#define SS_MSG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SS_MSG_REQUEST_LIMIT 5
#define SS_MSG_KINDS 16

enum ss_verbosity { SS_QUIET = -1, SS_NORMAL = 0, SS_VERBOSE = 1 };

struct ss_msg {
	FILE *out;
	int verbosity;
	uint64_t shown[SS_MSG_KINDS];
	uint64_t total[SS_MSG_KINDS];
	const char *kind_name[SS_MSG_KINDS];
	void (*hide)(void *ctx);   /* the display, NULL: none */
	void (*show)(void *ctx);
	void *display;
};

void ss_msg_init(struct ss_msg *m, FILE *out, int verbosity);
/* Register the display on the same line (hide and show NULL: none). */
void ss_msg_set_display(struct ss_msg *m, void (*hide)(void *), void (*show)(void *),
			void *ctx);
/* An error: always printed, even with -q. */
void ss_msg_error(struct ss_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* ss_msg_error() with a va_list. */
void ss_msg_verror(struct ss_msg *m, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* A warning: printed unless quiet. */
void ss_msg_warn(struct ss_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Detail: printed only with -v. */
void ss_msg_info(struct ss_msg *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A problem with one request, of kind `kind` (0..SS_MSG_KINDS-1, named
 * `kind_name`): `place` is `input[:member]:line`. Rate-limited per kind.
 */
void ss_msg_request(struct ss_msg *m, unsigned kind, const char *kind_name,
		    const char *place, uint64_t line, const char *reason);
/* One line per kind whose messages were cut short. */
void ss_msg_summary(struct ss_msg *m);

#endif
