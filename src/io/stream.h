/*
 * stream.h - a decoded byte stream: one input (a file, standard input or an
 * archive member) with its compression removed.
 *
 * Streams are made and owned by the input iterator (inputs.h); a caller
 * only reads them.
 */
#ifndef SS_STREAM_H
#define SS_STREAM_H

#include <stddef.h>

enum ss_io { SS_IO_OK = 0, SS_IO_END, SS_IO_ERROR };

struct ss_stream;

/*
 * Read up to `n` bytes into `buf`. SS_IO_OK with *got > 0; SS_IO_END at the
 * end of the stream (*got = 0); SS_IO_ERROR when the data cannot be read
 * (truncated or corrupt compressed data, an I/O error): ss_stream_error()
 * then says why, and the stream must not be read again.
 */
enum ss_io ss_stream_read(struct ss_stream *s, void *buf, size_t n, size_t *got);

/* The input's name: the path as given, `<stdin>`, or `ARCHIVE:MEMBER`. */
const char *ss_stream_name(const struct ss_stream *s);

/* Why the last read failed, e.g. "truncated zstd frame". */
const char *ss_stream_error(const struct ss_stream *s);

/*
 * How zstd frames are decoded in this build and with this libzstd, for
 * --version: "frames decoded in place", or "streaming API only (why)".
 * A static string.
 */
const char *ss_zstd_decoding(void);

#endif
