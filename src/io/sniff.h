/*
 * sniff.h - peel the compression layers off a stream, and tell whether
 * what is left is an archive (both by magic bytes).
 *
 * Ownership: the stream given is taken over; the decoded stream handed
 * back (the top of the chain, which owns the rest) is the caller's.
 */
#ifndef SS_SNIFF_H
#define SS_SNIFF_H

#include <stdbool.h>

#include "io/stream.h"

/*
 * Peel compression layers off `s` (taking ownership). *out: the decoded
 * stream; *archive: whether it holds an archive. false: out of memory
 * (the chain is freed).
 */
bool ss_decode_layers(struct ss_stream *s, struct ss_stream **out, bool *archive,
		      unsigned zstd_window_log);

#endif
