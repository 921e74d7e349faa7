/*
 * artifacts.h - the rules of an AIPerf artifact directory, in one place
 * for directories on disk and inside archives (SPEC 1.1):
 * profile_export_raw.jsonl is read if present, else profile_export.jsonl,
 * and beside it the server-metrics export (SPEC 10.4), nothing else;
 * AIPerf's side files are never captures.
 *
 * Ownership: a path it returns is allocated for the caller, who frees it
 * with ss_free(); names passed in are only read.
 */
#ifndef SS_ARTIFACTS_H
#define SS_ARTIFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define SS_ART_RAW "profile_export_raw.jsonl"
#define SS_ART_REC "profile_export.jsonl"
/* AIPerf's server-metrics exports (SPEC 10.4): the document before the lines. */
#define SS_ART_SRV_DOC "server_metrics_export.json"
#define SS_ART_SRV_LINES "server_metrics_export.jsonl"

/* Which export a file name is: the preferred raw one, the records one, none. */
enum ss_art_export { SS_ART_NONE = 0, SS_ART_EXPORT_RAW, SS_ART_EXPORT_REC };
enum ss_art_export ss_artifact_export(const char *base);

/*
 * The file the artifact directory `dir` selects (allocated: ss_free it),
 * or NULL when `dir` is not one; *nomem tells an allocation failure.
 */
char *ss_artifact_file(const char *dir, bool *nomem);

/*
 * The server-metrics export the artifact directory `dir` contributes
 * beside its request export (SPEC 10.4): server_metrics_export.json, else
 * server_metrics_export.jsonl, else none (NULL). Allocated; *nomem tells
 * an allocation failure.
 */
char *ss_artifact_server_file(const char *dir, bool *nomem);

/* Which server-metrics export a file name is (0: none, 1: the document, 2: the lines). */
int ss_artifact_server_export(const char *base);

/*
 * Whether a file that AIPerf writes next to its exports (inputs.json,
 * profile_export* other than the exports, logs/ *.log) and that is never
 * a capture: `dir` (dl bytes) is its directory, `base` its name.
 */
bool ss_artifact_companion(const char *dir, size_t dl, const char *base);

/*
 * For a directory that is not an artifact directory (SPEC 5, "When
 * nothing shows up"): append to `out` what it holds (the first few names
 * in byte order, directories with a '/', and how many more) and how to
 * pass them: -r for subdirectories, the files by name for captures, the
 * exports for a run directory that holds only AIPerf's aggregates. The
 * names are raw (the message escapes them). Nothing when it cannot be
 * read.
 */
void ss_artifact_describe(const char *dir, struct ss_buf *out);

#endif
