/*
 * aiperf_conf.c - SPEC 11.4's `concurrency`: the run configuration AIPerf
 * writes beside its exports (profile_export_aiperf.json, plain or with a
 * compression suffix of 10.8), read once per input: one JSON document of
 * at most --max-record-size bytes, decoded by its magic bytes like every
 * input, its input_config.loadgen.concurrency checked by
 * model/timing.c's ss_concurrency_of().
 */
#include "io/aiperf_conf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/artifacts.h"
#include "io/sniff.h"
#include "io/source.h"
#include "json/json.h"
#include "model/timing.h"
#include "util/alloc.h"
#include "util/text.h"

static const char *const suffixes[] = {"", ".zst", ".gz", ".xz", ".bz2", ".lz4"};

/* Whether `base` is a request export of an artifact directory (10.8 too). */
static bool export_name(const char *base)
{
	static const char *const names[] = {SS_ART_RAW, SS_ART_REC};

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(names[i]);

		if (strncmp(base, names[i], n) != 0)
			continue;
		for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++)
			if (strcmp(base + n, suffixes[k]) == 0)
				return true;
	}
	return false;
}

/* The configuration file of directory `dir` (allocated), or NULL. */
static char *conf_file(const char *dir, bool *nomem)
{
	char name[64];

	*nomem = false;
	for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++) {
		struct stat st;
		char *p;

		snprintf(name, sizeof(name), "%s%s", SS_ART_CONF, suffixes[k]);
		p = ss_path_join(dir, name);
		if (!p) {
			*nomem = true;
			return NULL;
		}
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			return p;
		ss_free(p);
	}
	return NULL;
}

/* The whole decoded file into b (padded), at most `max` bytes. */
static enum ss_conc read_all(const char *path, size_t max, struct ss_buf *b, char *why,
			     size_t whylen)
{
	struct ss_stream *s, *top = NULL;
	bool archive = false;
	enum ss_conc st = SS_CONC_OK;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, whylen, "cannot be read (%s)", strerror(errno));
		return SS_CONC_BAD;
	}
	s = ss_source_fd_new(fd, true);
	if (!s) {
		close(fd);
		return SS_CONC_NOMEM;
	}
	if (!ss_decode_layers(s, &top, &archive, 0))
		return SS_CONC_NOMEM;
	if (archive) {
		snprintf(why, whylen, "is an archive, not a JSON document");
		st = SS_CONC_BAD;
	}
	while (st == SS_CONC_OK) {
		size_t got = 0;
		enum ss_io io;

		if (!ss_buf_grow(b, 64 << 10)) {
			st = SS_CONC_NOMEM;
			break;
		}
		io = ss_stream_read(top, b->data + b->len, b->cap - b->len, &got);
		if (io == SS_IO_END)
			break;
		if (io == SS_IO_ERROR) {
			snprintf(why, whylen, "cannot be read (%s)", ss_stream_error(top));
			st = SS_CONC_BAD;
			break;
		}
		b->len += got;
		if (b->len > max) {
			snprintf(why, whylen,
				 "is larger than --max-record-size (%zu bytes): not read", max);
			st = SS_CONC_BAD;
		}
	}
	ss_stream_free(top);
	if (st == SS_CONC_OK && !ss_buf_grow(b, SSJ_PADDING))
		st = SS_CONC_NOMEM;
	return st;
}

/* input_config.loadgen.concurrency, three levels down. */
struct conc_scan {
	int depth;            /* 0: root, 1: input_config, 2: loadgen */
	bool found;
	bool valid;
	int64_t value;
	bool failed;
};

static int conc_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct conc_scan *k = ctx;
	static const char *const path[] = {"input_config", "loadgen", "concurrency"};

	if (!ss_key_is(key, n, path[k->depth]))
		return 0;
	if (k->depth == 2) {
		const char *t;
		size_t len;

		k->found = true;
		k->valid = ssj_value_type(v) == SSJ_NUMBER &&
			   ssj_value_number_text(v, &t, &len) == SSJ_OK &&
			   ss_concurrency_of(t, len, &k->value);
		return 0;
	}
	if (ssj_value_type(v) != SSJ_OBJECT)
		return 0;
	k->depth++;
	if (ssj_object_foreach(v, conc_field, k) != SSJ_OK)
		k->failed = true;
	k->depth--;
	return 0;
}

enum ss_conc ss_artifact_concurrency(const char *input, size_t max, int64_t *value, char *file,
				     size_t filelen, char *why, size_t whylen)
{
	const char *slash = strrchr(input, '/');
	const char *base = slash ? slash + 1 : input;
	struct ss_buf b = SS_BUF_INIT;
	struct conc_scan k;
	struct ssj_parser *p;
	enum ss_conc st;
	char *dir, *path;
	bool nomem;

	file[0] = why[0] = '\0';
	if (!export_name(base))
		return SS_CONC_NONE;   /* not read from an artifact directory */
	dir = slash ? ss_strndup(input, (size_t)(slash - input) + (slash == input)) : ss_strdup(".");
	if (!dir)
		return SS_CONC_NOMEM;
	path = conf_file(dir, &nomem);
	ss_free(dir);
	if (!path)
		return nomem ? SS_CONC_NOMEM : SS_CONC_NONE;
	snprintf(file, filelen, "%s", path);
	st = read_all(path, max, &b, why, whylen);
	ss_free(path);
	if (st != SS_CONC_OK) {
		ss_buf_release(&b);
		return st;
	}
	p = ssj_parser_new();
	if (!p) {
		ss_buf_release(&b);
		return SS_CONC_NOMEM;
	}
	memset(&k, 0, sizeof(k));
	if (ssj_open(p, b.data, b.len) != SSJ_OK) {
		snprintf(why, whylen, "is not a JSON document");
		st = SS_CONC_BAD;
	} else if (ssj_visit(p, conc_field, &k) != SSJ_OK || k.failed) {
		snprintf(why, whylen, "is not a JSON object");
		st = SS_CONC_BAD;
	} else if (!k.found) {
		st = SS_CONC_NONE;     /* no such key: null, as SPEC says */
	} else if (!k.valid) {
		snprintf(why, whylen, "input_config.loadgen.concurrency is not an integer >= 1");
		st = SS_CONC_BAD;
	} else {
		*value = k.value;
	}
	ssj_parser_free(p);
	ss_buf_release(&b);
	return st;
}
