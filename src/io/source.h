/*
 * source.h - inside the io stage only: how a struct ss_stream is built.
 *
 * A stream is a chain: a byte source at the bottom (a file descriptor or
 * an archive member) and zero or more decoders above it (zstd, gzip, a
 * libarchive filter), each reading the one below through ss_stream_read().
 * Every stream can be peeked (ss_stream_peek): the bytes are kept and given
 * back by the next reads, which is how inputs.c detects a format by its
 * magic bytes without a second pass.
 *
 * Ownership: a decoder owns the stream it reads from (`inner`), so
 * ss_stream_free() on the top frees the whole chain. A member stream
 * borrows its archive, which outlives it.
 */
#ifndef SS_SOURCE_H
#define SS_SOURCE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/stream.h"

struct archive;

/*
 * Reads in place: a decoder that writes its output straight into the
 * caller's memory and reads it back later (zstd's history), instead of
 * copying it out of a window of its own. See ss_stream_read_inplace.
 */
struct ss_inplace_ops {
	/*
	 * A read of at least `room` bytes may start decoding in place; one of
	 * at least `step` bytes where the last in-place bytes end goes on.
	 */
	size_t room, step;
	/* As read, but the bytes may be decoded in place at buf. */
	enum ss_io (*read)(struct ss_stream *s, void *buf, size_t n, size_t *got);
	/*
	 * Stop reading back the caller's memory: decode ahead into the
	 * stream's own buffer as far as that takes. A failure on the way is
	 * reported by a later read, after the bytes before it.
	 */
	void (*release)(struct ss_stream *s);
};

struct ss_stream_ops {
	/*
	 * Same contract as ss_stream_read(); never called with n == 0. It may
	 * return SS_IO_ERROR with *got > 0: the bytes are delivered first.
	 */
	enum ss_io (*read)(struct ss_stream *s, void *buf, size_t n, size_t *got);
	/* Free the variant's state and the struct itself (not `inner`). */
	void (*destroy)(struct ss_stream *s);
	/* NULL: the stream has no in-place reads. */
	const struct ss_inplace_ops *inplace;
};

struct ss_stream {
	const struct ss_stream_ops *ops;
	struct ss_stream *inner;   /* owned; NULL for a byte source */
	const char *name;          /* borrowed from the iterator */
	/*
	 * Set by a signal handler (borrowed; NULL: never): every read checks
	 * it first and fails with "interrupted", so no loop of any layer
	 * (a decoder skipping empty frames, libarchive skipping a member)
	 * outlasts a SIGINT/SIGTERM. A decoder inherits its inner stream's.
	 */
	const volatile sig_atomic_t *stop;
	/* Bytes peeked and not yet read, then possibly a pending failure. */
	unsigned char *peek;
	size_t peek_off, peek_len, peek_cap;
	enum ss_io peek_state;     /* what the source said after the peeked bytes */
	bool failed;
	char err[256];
};

/* Set the stop flag of `s` (see struct ss_stream); streams built on it
 * later inherit it. */
void ss_stream_set_stop(struct ss_stream *s, const volatile sig_atomic_t *stop);
/* Set up the common part of a freshly allocated stream. */
void ss_stream_setup(struct ss_stream *s, const struct ss_stream_ops *ops,
		     struct ss_stream *inner);
/* Record why the stream failed (printf-like); returns SS_IO_ERROR. */
enum ss_io ss_stream_fail(struct ss_stream *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Make at least `want` bytes (fewer at the end or on a failure) available
 * at *p without consuming them. false: out of memory.
 */
bool ss_stream_peek(struct ss_stream *s, size_t want, const unsigned char **p,
		    size_t *got);
/*
 * In-place reads. ss_stream_inplace: whether `s` has them, and its room
 * and step (struct ss_inplace_ops); a stream without them gives false and
 * reads in place as ss_stream_read does.
 *
 * ss_stream_read_inplace is ss_stream_read, except that the bytes may be
 * decoded in place at buf and read back by later reads. In return the
 * caller keeps the bytes of the current run (the in-place reads since the
 * last one that did not begin where the one before it ended) unchanged and
 * in place (not written, moved or freed) until it calls ss_stream_release,
 * or until a later read that does not go on at the run's end has returned.
 * Nothing before the current run is read back once a read has returned.
 */
bool ss_stream_inplace(const struct ss_stream *s, size_t *room, size_t *step);
enum ss_io ss_stream_read_inplace(struct ss_stream *s, void *buf, size_t n, size_t *got);
void ss_stream_release(struct ss_stream *s);
/* Free a stream chain; NULL is fine. */
void ss_stream_free(struct ss_stream *s);

/* Byte sources. NULL: out of memory (or, for open, see errno). */
struct ss_stream *ss_source_fd_new(int fd, bool close_fd);
struct ss_stream *ss_source_member_new(struct archive *a);
/* The fd of `s` when it is an fd stream on a regular file, else -1. */
int ss_source_seekable_fd(const struct ss_stream *s);
/*
 * A stream over memory (borrowed, must outlive the stream) that hands out
 * at most `chunk` bytes per read (0: all), then fails with `fail` if it is
 * not NULL. For tests and for callers that already hold the bytes.
 */
struct ss_stream *ss_source_mem_new(const void *p, size_t n, size_t chunk,
				    const char *fail);

/*
 * The bytes of `inner` (owned, even when this fails), then a failure with
 * the text `why` (copied) in place of its end: a spooled archive member
 * that broke after the bytes that were saved.
 */
struct ss_stream *ss_source_fail_after_new(struct ss_stream *inner, const char *why);

/*
 * Decoders; each takes ownership of `inner`, even when it fails (NULL).
 * A zstd stream reads in place only in a build with libzstd's buffer-less
 * API (SS_HAVE_ZSTD_INPLACE), run with the libzstd it was built for.
 */
struct ss_stream *ss_source_zstd_new(struct ss_stream *inner);
/*
 * The same, accepting frames whose window is up to 2^window_log bytes
 * (10..31, as `zstd --long`; 0: libzstd's default limit, 2^27). A frame
 * that needs more fails with "needs a larger window; use
 * --zstd-window-log N", N the log it needs.
 */
#define SS_ZSTD_WINDOW_LOG_MAX 31
struct ss_stream *ss_source_zstd_new_window(struct ss_stream *inner, unsigned window_log);
/*
 * For tests: the bytes a zstd stream `s` handed out so far that it decoded
 * in place, and those it copied (out of its ring or the streaming API).
 * ss_source_zstd_set_streaming_only(true): zstd streams made from then on
 * decode every frame with libzstd's streaming API (the portable path), as
 * a build without SS_HAVE_ZSTD_INPLACE does; call it from one thread.
 */
void ss_source_zstd_counts(const struct ss_stream *s, uint64_t *in_place, uint64_t *copied);
void ss_source_zstd_set_streaming_only(bool on);
struct ss_stream *ss_source_gzip_new(struct ss_stream *inner);
/*
 * The size of the input buffer each decoder (zstd, gzip) and each archive
 * reader's callbacks take from the stream below: 1 MiB, so that big reads
 * keep system calls and decoder calls few. ss_source_set_buffer_size() is
 * for tests/fuzz only: a fuzz run opens several such streams on a few KiB,
 * and mapping and faulting in 1 MiB each (under ASan) costs most of the
 * run. Call it before any stream is made, from one thread; values below
 * 4 KiB are taken as 4 KiB.
 */
#define SS_SOURCE_BUFFER_SIZE ((size_t)1 << 20)
size_t ss_source_buffer_size(void);
void ss_source_set_buffer_size(size_t n);

/* Any filter libarchive reads (xz, bzip2, lz4, lzma, lzip, compress, ...). */
struct ss_stream *ss_source_filter_new(struct ss_stream *inner);

/*
 * A libarchive reader of archive formats (tar, zip, cpio, 7z, ...) over
 * `inner` (not owned: the caller keeps it alive until archive_read_free).
 * `cbuf` (cbuf_size bytes) is the callbacks' buffer, owned by the caller.
 * NULL: out of memory, or the archive could not be opened (see *why).
 */
struct ss_archive_src {
	struct ss_stream *inner;
	unsigned char *cbuf;
	size_t cbuf_size;
	/*
	 * >= 0: `inner` is a bare fd stream on a regular file (see
	 * ss_source_seekable_fd): libarchive may seek, which zip (its central
	 * directory) and 7z need.
	 */
	int seek_fd;
};
struct archive *ss_archive_open(struct ss_archive_src *src, bool raw_filter_only,
				char *why, size_t why_size);

#endif
