/*
 * log_tool.c - the logs stage's driver until it is part of specscan: reads
 * log files (or standard input) line by line as SPEC 12.1 says, with a
 * 64 KiB line limit, and prints what the readers found as one JSON object
 * (tests/cli/test_log_tool.py; the speed measured in bench/README.md).
 *
 *   log_tool [FILE...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logs/llama_log.h"
#include "logs/sglang_log.h"
#include "logs/vllm_log.h"

#define LINE_CAP 65536
#define READ_SIZE (1u << 20)
#define NAMED 5

struct run {
	unsigned long long lines, log_lines, bad_lines, refused, too_long, sg_skipped;
	struct ss_vllm_tally vllm;
	struct ss_vllm_line vline;
	struct ss_sglang_series sglang;
	struct ss_llama_blocks blocks;
	struct ss_llama_task task;
	unsigned long long requests, with_draft, malformed, with_steps, with_hist;
	unsigned long long accepted, generated;
	char named[NAMED][160];
	unsigned nnamed;
};

static void name_bad(struct run *r, const char *what, const char *why)
{
	r->bad_lines++;
	if (r->nnamed < NAMED)
		snprintf(r->named[r->nnamed++], sizeof(r->named[0]), "line %llu: %s: %s", r->lines,
			 what, why);
}

static void add_task(struct run *r)
{
	const struct ss_llama_task *t = &r->task;

	r->requests++;
	if (!t->has_draft)
		return;
	r->with_draft++;
	r->malformed += t->malformed;
	r->with_steps += t->steps_known;
	r->with_hist += t->hist_known;
	r->accepted += t->accepted;
	r->generated += t->generated;
}

static void one_line(struct run *r, char *s, size_t n)
{
	struct ss_log_anchor a;
	struct ss_sglang_line g;
	const char *why;
	bool done, found;

	r->lines++;
	n = ss_log_clean(s, n, s);
	found = ss_log_find_anchor(s, n, &a);
	if (found && a.fmt != SS_LOG_LLAMASLOT)
		r->log_lines++;
	if (found && a.fmt == SS_LOG_VLLM) {
		switch (ss_vllm_line_parse(s + a.tail, n - a.tail, &r->vline)) {
		case SS_LOG_OK:
			ss_vllm_tally_add(&r->vllm, &r->vline);
			break;
		case SS_LOG_REFUSED:
			r->refused++;
			break;
		default:
			name_bad(r, "vLLM", r->vline.why);
		}
	} else if (found && a.fmt == SS_LOG_SGLANG) {
		enum ss_log_status st = ss_sglang_line_parse(s + a.tail, n - a.tail, &g);
		if (st == SS_LOG_OK) {
			ss_sglang_series_add(&r->sglang, &g);
		} else if (st == SS_LOG_SKIPPED) {
			r->sg_skipped++;
			r->log_lines--; /* a server without speculation: not counted */
		} else {
			name_bad(r, "SGLang", g.why);
		}
	}
	/* llama.cpp's blocks see their own lines and the one after a block */
	if ((found && (a.fmt == SS_LOG_LLAMACPP || a.fmt == SS_LOG_LLAMASLOT)) ||
	    r->blocks.open) {
		if (ss_llama_blocks_feed(&r->blocks, s, n, &r->task, &done, &why) == SS_LOG_BAD)
			name_bad(r, "llama.cpp", why);
		if (done)
			add_task(r);
	}
}

static int read_stream(struct run *r, FILE *f)
{
	char *buf = malloc(READ_SIZE), *line = malloc(LINE_CAP);
	size_t have = 0, got;
	bool over = false;

	if (!buf || !line) {
		free(buf);
		free(line);
		return 1;
	}
	while ((got = fread(buf, 1, READ_SIZE, f)) > 0) {
		const char *p = buf, *end = buf + got;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t take = (size_t)((nl ? nl : end) - p);
			if (!over && have + take <= LINE_CAP) {
				memcpy(line + have, p, take);
				have += take;
			} else {
				over = true;
			}
			if (!nl)
				break;
			if (over) {
				r->lines++;
				r->too_long++;
				name_bad(r, "log", "a line longer than 64 KiB");
			} else {
				one_line(r, line, have);
			}
			have = 0;
			over = false;
			p = nl + 1;
		}
	}
	if (over) {
		r->lines++;
		r->too_long++;
		name_bad(r, "log", "a line longer than 64 KiB");
	} else if (have) {
		one_line(r, line, have);
	}
	free(buf);
	free(line);
	return ferror(f) ? 1 : 0;
}

static void print_json(const struct run *r)
{
	const struct ss_vllm_tally *v = &r->vllm;
	const struct ss_sglang_series *s = &r->sglang;

	printf("{\"lines\": %llu, \"log_lines\": %llu, \"bad_lines\": %llu, \"refused\": %llu, "
	       "\"too_long\": %llu,\n",
	       r->lines, r->log_lines, r->bad_lines, r->refused, r->too_long);
	printf(" \"vllm\": {\"lines\": %llu, \"accepted\": %llu, \"drafted\": %llu, "
	       "\"unpinned\": %llu, \"unknown_items\": %llu",
	       (unsigned long long)v->lines, (unsigned long long)v->accepted,
	       (unsigned long long)v->drafted, (unsigned long long)v->unpinned,
	       (unsigned long long)v->unknown_items);
	if (!v->unpinned && v->steps)
		printf(", \"steps\": %llu, \"k\": %zu", (unsigned long long)v->steps, v->k);
	printf("},\n \"sglang\": {\"lines\": %llu, \"skipped\": %llu", (unsigned long long)s->lines,
	       r->sg_skipped);
	if (s->lines)
		printf(", \"mean\": %.17g, \"weighted_mean\": %.17g, \"min\": %.17g, \"max\": %.17g, "
		       "\"last\": %.17g",
		       s->sum / (double)s->lines,
		       s->running_sum > 0 ? s->weighted_sum / s->running_sum : 0.0, s->min, s->max,
		       s->last);
	printf("},\n \"llamacpp\": {\"requests\": %llu, \"with_draft\": %llu, \"malformed\": %llu, "
	       "\"with_steps\": %llu, \"with_histogram\": %llu, \"accepted\": %llu, "
	       "\"generated\": %llu},\n \"named\": [",
	       r->requests, r->with_draft, r->malformed, r->with_steps, r->with_hist, r->accepted,
	       r->generated);
	for (unsigned i = 0; i < r->nnamed; i++) {
		putchar(i ? ',' : ' ');
		putchar('"');
		for (const unsigned char *c = (const unsigned char *)r->named[i]; *c; c++) {
			if (*c < 0x20 || *c >= 0x7f || *c == '"' || *c == '\\')
				printf("\\u%04x", *c);
			else
				putchar(*c);
		}
		putchar('"');
	}
	printf("]}\n");
}

int main(int argc, char **argv)
{
	struct run *r = calloc(1, sizeof(*r));
	int rc = 0;

	if (!r)
		return 2;
	ss_vllm_tally_init(&r->vllm);
	ss_sglang_series_init(&r->sglang);
	ss_llama_blocks_init(&r->blocks);
	if (argc < 2)
		rc |= read_stream(r, stdin);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			rc = 2;
			continue;
		}
		rc |= read_stream(r, f);
		fclose(f);
	}
	if (ss_llama_blocks_finish(&r->blocks, &r->task))
		add_task(r);
	print_json(r);
	free(r);
	return rc;
}
