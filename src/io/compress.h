/*
 * compress.h - output compression by file name (SPEC 8.3): a path ending
 * in `.zst` is written zstd-compressed (libzstd's streaming API), `.gz`
 * gzip-compressed (zlib); anything else is written as it is.
 *
 * A struct ss_compressor turns the bytes written to it into compressed
 * bytes handed to a FILE it borrows; ss_compressor_finish() ends the
 * stream (the last frame or the gzip trailer) and must be called before
 * the FILE is closed. Any failure (a write error, out of memory) is sticky:
 * every later call returns false and errno_saved tells why.
 *
 * Ownership: the caller owns the compressor (ss_compressor_free) and the
 * FILE, which the compressor only borrows.
 */
#ifndef SS_COMPRESS_H
#define SS_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ss_codec { SS_CODEC_NONE = 0, SS_CODEC_ZSTD, SS_CODEC_GZIP };

/* The codec a path's name asks for. */
enum ss_codec ss_codec_for_path(const char *path);

struct ss_compressor;

/* NULL when out of memory (or for SS_CODEC_NONE). `out` is borrowed. */
struct ss_compressor *ss_compressor_new(enum ss_codec codec, FILE *out);
void ss_compressor_free(struct ss_compressor *c);
bool ss_compressor_write(struct ss_compressor *c, const void *p, size_t n);
bool ss_compressor_finish(struct ss_compressor *c);
/* errno of the failed write, or 0 (out of memory, a codec error). */
int ss_compressor_error(const struct ss_compressor *c);

#endif
