/*
 * aiperf_conf.h - SPEC 11.4's `concurrency` of an input read from an AIPerf
 * artifact directory: input_config.loadgen.concurrency of the directory's
 * profile_export_aiperf.json (plain or with a compression suffix of 10.8).
 *
 * Ownership: nothing is kept; `file` and `why` are the caller's buffers.
 */
#ifndef SS_AIPERF_CONF_H
#define SS_AIPERF_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_ART_CONF "profile_export_aiperf.json"

enum ss_conc {
	SS_CONC_OK = 0,   /* *value set */
	SS_CONC_NONE,     /* null: not an export of an artifact directory, no
			     such file, or no such key */
	SS_CONC_BAD,      /* null, and worth a message: the file (in `file`)
			     cannot be read, is larger than `max`, is not JSON,
			     or its value is not an integer >= 1 (`why`) */
	SS_CONC_NOMEM
};

/*
 * The concurrency of input `input` (a path as given: an export file
 * profile_export_raw.jsonl or profile_export.jsonl, suffixes too, in its
 * artifact directory). The configuration file is read whole, at most
 * `max` bytes (--max-record-size) of its decoded text.
 */
enum ss_conc ss_artifact_concurrency(const char *input, size_t max, int64_t *value, char *file,
				     size_t filelen, char *why, size_t whylen);

#endif
