/*
 * spool.h - archive members held back (SPEC 1.1: a records-only export
 * waits for its raw sibling), kept in ONE temporary file per archive,
 * back to back, never one file (and one descriptor) per member.
 *
 * The spool holds at most `limit` bytes at a time (--spool-limit): a
 * member that does not fit is not kept, and the caller reports it as an
 * input that could not be read. Bytes are counted while they are held;
 * space given back by members read (or dropped) is reused once nothing is
 * held, and punched out of the file before that where the file system
 * allows, so the disk used stays within the limit too.
 *
 * Ownership: the spool is reference-counted; every stream opened on it
 * holds a reference, so a held member can be read after its archive is
 * closed. The temporary file has no name (O_TMPFILE, or unlinked at once)
 * and is created in $TMPDIR (else /tmp) on first use.
 */
#ifndef SS_SPOOL_H
#define SS_SPOOL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/stream.h"

struct ss_spool;

enum ss_spool_res {
	SS_SPOOL_OK = 0,
	SS_SPOOL_FULL,      /* the member would pass the limit: not kept */
	SS_SPOOL_IOERR,     /* the temporary file failed: see `why` */
	SS_SPOOL_STOPPED,   /* the stop flag was set while copying */
	SS_SPOOL_NOMEM
};

/* limit: bytes held at most (0: no limit). NULL: out of memory. */
struct ss_spool *ss_spool_new(uint64_t limit);
/* Drop the caller's reference (NULL is fine). */
void ss_spool_free(struct ss_spool *sp);

/* What one held member is. */
struct ss_spool_entry {
	uint64_t off, len;
};

/*
 * Copy `from` to its end (or its failure: *fail then gets a copy of the
 * reason, the bytes before it kept) into the spool. On SS_SPOOL_FULL the
 * rest of `from` is still read (and dropped), so the caller's archive is
 * past the member; `stop` (may be NULL) is checked between reads.
 * why/why_size: the error text of SS_SPOOL_IOERR.
 */
enum ss_spool_res ss_spool_copy(struct ss_spool *sp, struct ss_stream *from,
				struct ss_spool_entry *e, char **fail,
				const volatile sig_atomic_t *stop, char *why, size_t why_size);

/*
 * A stream over a held member (the entry is given back when the stream is
 * freed). NULL: out of memory (the entry is then given back too).
 */
struct ss_stream *ss_spool_open(struct ss_spool *sp, const struct ss_spool_entry *e);
/* Give back a member that will not be read. */
void ss_spool_drop(struct ss_spool *sp, const struct ss_spool_entry *e);

/* Bytes held now, and the most held at once (for tests and messages). */
uint64_t ss_spool_held(const struct ss_spool *sp);
uint64_t ss_spool_peak(const struct ss_spool *sp);

/*
 * The default limit: half the free space of the temporary directory
 * (measured once, with statvfs), at most 64 x the record limit (16 GiB at
 * the default 256M). Never more than half the free space, even below the
 * record limit: a member that does not fit is refused with the limit
 * named, rather than filling the disk.
 */
uint64_t ss_spool_default_limit(uint64_t max_record);
/* The same from a measured free space (the computation alone, for tests);
 * at least 1 (0 would mean no limit). */
uint64_t ss_spool_limit_for(uint64_t free_bytes, uint64_t max_record);

#endif
