/*
 * server_json.h - SPEC 10.1's JSON server shapes, read into a struct
 * ss_server (server/server.h): AIPerf's server_metrics_export.jsonl lines
 * and its server_metrics_export.json document, TensorRT-LLM's iteration
 * statistics, SGLang's get_server_info, and the results of a Prometheus
 * server's /api/v1/query_range and /api/v1/query.
 *
 * Two halves, so that worker threads can tell a server line without
 * touching the (single-threaded) struct ss_server:
 *
 *   ss_server_json_shape()   pure: which shape a JSONL line is, if any;
 *                            safe from any thread (and
 *                            ss_server_json_shape_open(), the same read
 *                            from a caller's parser the line is open on);
 *   ss_server_json_line()    feeds one line of that shape (in input
 *                            order: snapshots are diffed in the order read);
 *   ss_server_json_document() feeds AIPerf's whole JSON document.
 *
 * A line of a server shape whose parts are bad (a counter that is not a
 * finite integral value >= 0, a label set that is not an object of
 * strings) is a bad sample or line: counted with ss_server_bad(), never a
 * stop. The caller owns every pointer it passes; nothing is kept. Every
 * text, as every text of the JSON seam (json/json.h), has SSJ_PADDING
 * readable bytes after its end. Each call parses the text once, in place
 * (an array root too: json.h's ssj_open_array()), with a parser of its
 * own, made and freed inside the call.
 *
 * What each shape gives (SPEC 10.1, 10.2, 10.5):
 *   AIPerf line      one snapshot of the endpoint (dir, endpoint_url) at
 *                    timestamp_ns; each family's series `labels`, `value`;
 *   iterations       one increment of the unnamed endpoint per iteration
 *                    whose specDecodingStats is an object (null: none);
 *   server info      one snapshot of the unnamed endpoint, each element of
 *                    internal_states a series labelled internal_state="I"
 *                    (and tp_rank when the element has one);
 *   Prometheus API   one sparse snapshot of the unnamed endpoint per
 *                    distinct sample time of the families' series, in
 *                    time order;
 *   the document     one increment per endpoint_url of its series.
 */
#ifndef SS_SERVER_JSON_H
#define SS_SERVER_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "server/server.h"

/* The JSON shapes of 10.1's table (the document has no line form). */
enum ss_server_shape {
	SS_SRVJ_NONE = 0,    /* not a server shape: the line is the caller's */
	SS_SRVJ_AIPERF_LINE, /* endpoint_url, timestamp_ns, metrics */
	SS_SRVJ_ITERATIONS,  /* TensorRT-LLM: iter and specDecodingStats (object or array of them) */
	SS_SRVJ_SERVER_INFO, /* SGLang: internal_states */
	SS_SRVJ_PROM_API     /* status "success", data.resultType matrix or vector */
};

/*
 * Which shape the JSON text[0..len) is; SS_SRVJ_NONE for anything else
 * (invalid JSON included, and when memory runs out). An array line is the
 * iterations shape when every element is an object with `iter` and one
 * at least has `specDecodingStats`, or when it is empty (a poll that
 * found no new iteration). A line that names none of the shapes' keys is
 * told without being parsed.
 */
enum ss_server_shape ss_server_json_shape(const char *text, size_t len);

struct ssj_parser;
/*
 * The same for a line text[0..len) that is the open document of the
 * caller's parser p (as ssj_open() left it): the shape decided from that
 * document, nothing parsed again. false when it cannot be told so (an
 * array line, which ssj_open() does not open, or nothing open on p): the
 * caller asks ss_server_json_shape() then. p is only visited.
 */
bool ss_server_json_shape_open(struct ssj_parser *p, const char *text, size_t len,
			       enum ss_server_shape *shape);

/*
 * Feed one line of a known shape. dir[0..dir_len) names the input's
 * directory (AIPerf's endpoint is the pair directory, endpoint_url: 10.5);
 * place and line name the line in messages. *snapshots (may be NULL) gets
 * the snapshots and increments it gave. false only when out of memory.
 */
bool ss_server_json_line(struct ss_server *s, enum ss_server_shape shape, const char *dir,
			 size_t dir_len, const char *place, uint64_t line, const char *text,
			 size_t len, uint64_t *snapshots);

/*
 * The same line fed to s and then to g (may be NULL; SPEC 10.7: the
 * pooled state and its directory's) from one parse, on the caller's
 * parser p (kept from line to line: nothing open on it after the call)
 * or, when p is NULL, on one made for the call. *snapshots: s's.
 */
bool ss_server_json_line_pair(struct ssj_parser *p, struct ss_server *s, struct ss_server *g,
			      enum ss_server_shape shape, const char *dir, size_t dir_len,
			      const char *place, uint64_t line, const char *text, size_t len,
			      uint64_t *snapshots);

/* Whether an input of this name is AIPerf's JSON document (10.1: the name ends so). */
bool ss_server_json_is_document_name(const char *name, size_t len);

/*
 * AIPerf's server_metrics_export.json, whole (the caller read at most
 * --max-record-size): one increment of each endpoint it names. Same
 * arguments and result as ss_server_json_line().
 */
bool ss_server_json_document(struct ss_server *s, const char *dir, size_t dir_len,
			     const char *place, const char *text, size_t len,
			     uint64_t *snapshots);

#endif
