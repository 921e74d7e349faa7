/*
 * server_json_shapes.h - private to the JSON shapes of the server stage:
 * the middle layer of server_json*.c (see server_json_util.c for the
 * order). Each shape reads the document open on f->p into f->s; each is
 * called by server_json.c only, and calls only the base layer
 * (server_json_int.h), never server_json.c.
 */
#ifndef SS_SERVER_JSON_SHAPES_H
#define SS_SERVER_JSON_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#include "server/server_json_int.h"

/* AIPerf's server_metrics_export.jsonl line (server_json_aiperf.c). */
void sj_aiperf_line(struct sj_feed *f, const char *dir, size_t dir_len);
/* AIPerf's server_metrics_export.json document (server_json_aiperf.c). */
void sj_aiperf_document(struct sj_feed *f, const char *dir, size_t dir_len);
/* TensorRT-LLM's iteration statistics, an object or an array root (server_json_engines.c). */
void sj_iterations(struct sj_feed *f, bool array);
/* SGLang's get_server_info (server_json_engines.c). */
void sj_server_info(struct sj_feed *f);
/* A Prometheus server's /api/v1/query_range or /api/v1/query result (server_json_prom.c). */
void sj_prom_api(struct sj_feed *f);

#endif
