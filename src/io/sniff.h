/*
 * sniff.h - peel the compression layers off a stream, and tell whether
 * what is left is an archive (both by magic bytes), or Prometheus text
 * (by its first line).
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

/*
 * Whether a decoded stream that is not an archive is a server input
 * (SPEC 10.1): its first non-blank line (after a UTF-8 byte-order mark)
 * starts with `# HELP `, `# TYPE `, `# EOF`, `# time:` or is a sample
 * line `NAME[{LABELS}] VALUE ...`, and SSE detection (1.2) does not claim
 * it. Only the first SS_SNIFF_SCRAPE_PEEK bytes are looked at (peeked,
 * not consumed): a first line longer than that is judged by its start (a
 * metric name followed by `{` or a blank). false: out of memory.
 */
#define SS_SNIFF_SCRAPE_PEEK ((size_t)64 << 10)
bool ss_sniff_scrape(struct ss_stream *s, bool *scrape);

/*
 * Whether a decoded stream that is not an archive is a server log (SPEC
 * 12.1): its first SS_SNIFF_SCRAPE_PEEK bytes hold an anchor of a log
 * format (logs/logline.h: vLLM's, SGLang's, llama.cpp's, or llama.cpp's
 * slot prefix), and its first non-blank line (after a byte-order mark) is
 * neither JSON (`{`, `[`) nor an SSE field line (1.2). Asked before
 * ss_sniff_scrape(): a log's `INFO 06-06 ...` lines look like samples.
 * false: out of memory.
 */
bool ss_sniff_log(struct ss_stream *s, bool *log);

#endif
