#include "io/looks.h"

#include <stdbool.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "2026-12-06", "12-06 08:21:00", "[2026-...", "08:21:00": a time first. */
static bool starts_with_time(const char *p, size_t n)
{
	size_t d = 0;

	if (n && (*p == '[' || *p == '(')) {
		p++;
		n--;
	}
	while (d < n && is_digit(p[d]))
		d++;
	return d >= 2 && d < n && (p[d] == '-' || p[d] == ':' || p[d] == '/');
}

/* A level word first, as Python's logging, uvicorn and the engines write them. */
static bool starts_with_level(const char *p, size_t n)
{
	static const char *const levels[] = {"INFO", "WARNING", "WARN", "ERROR", "DEBUG",
					     "CRITICAL", "TRACE", "[INFO", "[WARNING", "[ERROR",
					     "[DEBUG", "(APIServer", "(EngineCore"};

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		size_t l = strlen(levels[i]);

		if (n > l && memcmp(p, levels[i], l) == 0 &&
		    (p[l] == ' ' || p[l] == ':' || p[l] == ']' || p[l] == '\t' || p[l] == ' '))
			return true;
	}
	return false;
}

enum ss_look ss_look_of(const char *text, size_t len)
{
	size_t commas = 0;

	/* a UTF-8 byte-order mark, then blanks */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	while (len && (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')) {
		text++;
		len--;
	}
	if (!len)
		return SS_LOOK_TEXT;
	if ((*text == '{' || *text == '[') && !starts_with_time(text, len) &&
	    !starts_with_level(text, len)) {
		size_t e = len;

		while (e && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
			e--;
		/* a whole object on the line: JSON lines; an opening alone: a document */
		return e > 1 && (text[e - 1] == '}' || text[e - 1] == ']') ? SS_LOOK_JSON_LINES
									     : SS_LOOK_JSON_DOC;
	}
	if (starts_with_time(text, len) || starts_with_level(text, len))
		return SS_LOOK_LOG;
	for (size_t i = 0; i < len; i++)
		commas += text[i] == ',';
	return commas ? SS_LOOK_CSV : SS_LOOK_TEXT;
}

const char *ss_look_words(enum ss_look l)
{
	switch (l) {
	case SS_LOOK_JSON_DOC:
		return "it looks like a JSON document spread over lines (AIPerf's aggregate "
		       "profile_export_aiperf.json or inputs.json?): give the artifact directory "
		       "or its profile_export.jsonl";
	case SS_LOOK_JSON_LINES:
		return "its lines are JSON of no known kind (no response body, AIPerf record "
		       "or server shape: docs/BEHAVIOUR.md lists the kinds)";
	case SS_LOOK_CSV:
		return "it looks like a CSV file (AIPerf's profile_export_aiperf.csv?): specscan "
		       "reads per-request JSON lines (profile_export.jsonl, responses)";
	case SS_LOOK_LOG:
		return "it looks like a log file: --input-kind log reads vLLM, SGLang and "
		       "llama.cpp server logs";
	case SS_LOOK_OVERSIZE:
		return "its first line is longer than --max-record-size (raise the limit if "
		       "its lines are records)";
	case SS_LOOK_TEXT:
		break;
	}
	return "it is text of no known kind (specscan reads JSON lines of responses or "
	       "AIPerf records, SSE streams, Prometheus pages and server logs)";
}
