/*
 * line_request.h - one JSONL line (padded) through a processor, as the run
 * hands it over: the request of the fuzz targets that read lines.
 */
#ifndef SS_LINE_REQUEST_H
#define SS_LINE_REQUEST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "engines/request.h"

static bool fuzz_process_line(struct ss_processor *p, const char *text, size_t len,
			      uint64_t line, struct ss_outcome *o)
{
	struct ss_request_text req;
	const char *parts[1] = {text};
	size_t lens[1] = {len};

	memset(&req, 0, sizeof(req));
	req.parts = parts;
	req.lens = lens;
	req.nparts = 1;
	req.line = line;
	req.input_name = "fuzz";
	return ss_process(p, &req, o);
}

#endif
