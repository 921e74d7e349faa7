/*
 * json_paths.h - private to the shim and its tests: which of its two ways
 * of reading a document a parser takes.
 *
 * The shim picks a path per text (json.h): the whole-text path (simdjson's
 * stage-1 index checked by the shim's own grammar pass) for texts up to
 * SSJ_WHOLE_MAX bytes when the build has it, else On-Demand. Both must
 * accept and refuse the same texts and show the same values; the tests
 * and the differential fuzzer force one path or the other per parser to
 * compare them. Nothing outside src/json and tests/ includes this file;
 * it hands out nothing to own.
 */
#ifndef SS_JSON_PATHS_H
#define SS_JSON_PATHS_H

#include <stdbool.h>
#include <stdint.h>

#include "json/json.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The longest text the whole-text path takes: its offsets are 32 bits
 * (simdjson's own limit). It costs less than On-Demand's complete walk at
 * every length (a raw line of 300 KiB is read in 28% fewer instructions),
 * and about the same memory: the index is what On-Demand keeps too, and
 * the table of container ends is touched only where containers open.
 */
#define SSJ_WHOLE_MAX ((size_t)UINT32_MAX)

enum ssj_path {
	SSJ_PATH_AUTO = 0, /* the shim chooses (what every caller gets) */
	SSJ_PATH_ONDEMAND, /* On-Demand for every text */
	SSJ_PATH_WHOLE     /* the whole-text path only: a longer text is
			    * SSJ_ECAPACITY, and every text SSJ_EINTERNAL in
			    * a build without the path */
};

/* Whether this build has the whole-text path (configure: SSJ_HAVE_WHOLE). */
bool ssj_whole_built(void);
/* The path `p` takes from its next ssj_open() on. */
void ssj_parser_set_path(struct ssj_parser *p, enum ssj_path path);
/*
 * The path of the parsers made from now on by ssj_parser_new() (those a
 * processor makes inside, too): for tests that compare whole programs'
 * results through both paths. Not thread-safe against parsers being made.
 */
void ssj_set_default_path(enum ssj_path path);
/* The path that opened p's open document (SSJ_PATH_AUTO: none open). */
enum ssj_path ssj_parser_path_used(struct ssj_parser *p);

#ifdef __cplusplus
}
#endif

#endif
