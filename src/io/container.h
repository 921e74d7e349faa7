/*
 * container.h - an archive read as a sequence of member inputs (tar, zip,
 * anything libarchive reads), never extracted; AIPerf artifact
 * directories inside it select their one export (io/artifacts.h).
 *
 * Ownership: the container takes over the archive's stream and frees it
 * with itself; each member stream and name it hands out is the caller's.
 * A member read straight from the archive can be read only until the next
 * ss_container_next (libarchive moves on); a spooled member's stream may
 * outlive the container.
 */
#ifndef SS_CONTAINER_H
#define SS_CONTAINER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "io/inputs.h"
#include "io/stream.h"
#include "util/msg.h"

struct ss_container;

/*
 * Take over `s` (a decoded archive named `name`). Held members go to one
 * temporary file (io/spool.h) holding at most `spool_limit` bytes (0: no
 * limit); a member that does not fit is a failed input. `stop` (may be
 * NULL) is the run's stop flag. NULL when it cannot be read: *r is
 * SS_NEXT_FAILED (the message was printed and *fail_name names the
 * archive) or SS_NEXT_FATAL (out of memory).
 */
struct ss_container *ss_container_open(struct ss_stream *s, const char *name,
				       struct ss_msg *msg, uint64_t spool_limit,
				       const volatile sig_atomic_t *stop, char **fail_name,
				       enum ss_next *r);

/*
 * The next member to read. SS_NEXT_OK: *out is the member's stream (not
 * yet decoded) and *name its name `ARCHIVE:MEMBER`, both owned by the
 * caller. SS_NEXT_FAILED: a member or the archive could not be read; the
 * message was printed and *fail_name (freed first) names it; ask again
 * for the next. SS_NEXT_END: no more members. SS_NEXT_FATAL: out of memory.
 */
enum ss_next ss_container_next(struct ss_container *c, struct ss_stream **out,
			       char **name, char **fail_name);

void ss_container_free(struct ss_container *c);

#endif
