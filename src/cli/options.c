#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

/* Values of long-only options, above any character. */
enum {
	OPT_JSON = 256, OPT_CSV, OPT_RECORDS, OPT_TABLE, OPT_NO_TABLE, OPT_PHASE,
	OPT_ENGINE, OPT_INPUT_KIND, OPT_MAX_RECORD, OPT_PROGRESS, OPT_NO_PROGRESS,
	OPT_STRICT, OPT_FORCE
};

const struct ss_option_desc ss_option_table[] = {
	{"format", 'f', "FMT", "stdout format: json (default), csv, table, markdown, jsonl, none"},
	{"json", 0, "FILE", "also write the aggregate JSON to FILE (- = stdout)"},
	{"csv", 0, "FILE", "also write the aggregate CSV to FILE"},
	{"records", 0, "FILE", "also write the enriched per-request JSONL to FILE"},
	{"output-dir", 'o', "DIR", "write spec_decode.json, .csv and _records.jsonl into DIR"},
	{"table", 0, NULL, "print the Spec Decode section on stderr"},
	{"no-table", 0, NULL, "do not print it (default: on when stderr is a terminal)"},
	{"phase", 0, "PHASE", "main results from profiling (default), warmup or all"},
	{"engine", 0, "NAME", "accept payloads of this engine only: vllm, tensorrt_llm, llamacpp, sglang"},
	{"input-kind", 0, "KIND", "skip detection: auto, raw, records, body, sse"},
	{"recursive", 'r', NULL, "walk directories for AIPerf artifact directories"},
	{"max-record-size", 0, "SIZE", "skip longer records as oversize (default 256M; K, M, G)"},
	{"threads", 'j', "N", "worker threads (default: online CPUs)"},
	{"progress", 0, NULL, "show progress on stderr"},
	{"no-progress", 0, NULL, "do not (default: on when stderr is a terminal)"},
	{"strict", 0, NULL, "exit 1 when a request is malformed, unparsable or oversize"},
	{"force", 0, NULL, "replace existing output files"},
	{"positions", 0, NULL, "acceptance by draft position and the shorter-draft table"},
	{"draft-cost", 0, "C", "draft token cost per target pass: speedup, suggested k"},
	{"ci", 0, "LEVEL", "bootstrap intervals at LEVEL % (e.g. 95)"},
	{"bootstrap", 0, "B", "resamples for --ci (default 1000, at most 1000000)"},
	{"seed", 0, "S", "seed of the resamples (default 1)"},
	{"group-by", 0, "KEYS", "results per group of input, engine, k, phase, model, osl, meta.NAME"},
	{"compare", 0, "VALUE", "differences against the group VALUE (one --group-by key)"},
	{"expect", 0, "EXPR", "exit 4 unless TAG>=VALUE holds (>, <=, < too; repeatable)"},
	{"quiet", 'q', NULL, "fewer messages"},
	{"verbose", 'v', NULL, "more messages"},
	{"help", 'h', NULL, "show this help and exit"},
	{"version", 'V', NULL, "show the version and library versions and exit"},
	{NULL, 0, NULL, NULL},
};

static int long_value(const struct ss_option_desc *d)
{
	static const struct {
		const char *name;
		int val;
	} ids[] = {
		{"json", OPT_JSON}, {"csv", OPT_CSV}, {"records", OPT_RECORDS},
		{"table", OPT_TABLE}, {"no-table", OPT_NO_TABLE}, {"phase", OPT_PHASE},
		{"engine", OPT_ENGINE}, {"input-kind", OPT_INPUT_KIND},
		{"max-record-size", OPT_MAX_RECORD}, {"progress", OPT_PROGRESS},
		{"no-progress", OPT_NO_PROGRESS}, {"strict", OPT_STRICT}, {"force", OPT_FORCE},
		{"positions", SS_OPT_POSITIONS}, {"draft-cost", SS_OPT_DRAFT_COST},
		{"ci", SS_OPT_CI}, {"bootstrap", SS_OPT_BOOTSTRAP}, {"seed", SS_OPT_SEED},
		{"group-by", SS_OPT_GROUP_BY}, {"compare", SS_OPT_COMPARE},
		{"expect", SS_OPT_EXPECT},
	};

	if (d->short_name)
		return d->short_name;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (strcmp(ids[i].name, d->long_name) == 0)
			return ids[i].val;
	return '?';
}

void ss_options_help(FILE *out)
{
	fputs("Usage: specscan [OPTION]... [INPUT]...\n"
	      "Report speculative-decoding acceptance from captured responses\n"
	      "(AIPerf raw or records exports, response bodies, SSE captures;\n"
	      "plain, compressed or archived). No INPUT, or -, reads standard input.\n\n",
	      out);
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++) {
		char left[48];

		if (d->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name,
				 d->long_name, d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->long_name,
				 d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(out, "  %-30s %s\n", left, d->help);
	}
	fputs("\nExit status: 0 report written; 1 report written but an input could not\n"
	      "be read (or --strict found bad requests); 2 usage error; 3 nothing written;\n"
	      "4 report written but an --expect failed.\n",
	      out);
}

bool ss_parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: return false;
	}
	if (*end == 'i' && end[-1] != '\0' && shift)
		end++;
	if (*end == 'B' && shift)
		end++;
	if (*end || v == 0 || v > (SIZE_MAX >> shift))
		return false;
	*out = (size_t)v << shift;
	return true;
}

static bool usage(FILE *err, const char *fmt, const char *a)
{
	fprintf(err, "specscan: ");
	fprintf(err, fmt, a);
	fprintf(err, "\nTry 'specscan --help' for more information.\n");
	return false;
}

bool ss_options_parse(struct ss_options *o, int argc, char **argv, FILE *err)
{
	struct option longopts[sizeof(ss_option_table) / sizeof(ss_option_table[0])];
	char shortopts[64];
	size_t n = 0, s = 0;
	int c;

	memset(o, 0, sizeof(*o));
	ss_analysis_opts_init(&o->analysis);
	o->table = -1;
	o->progress = -1;
	o->max_record = (size_t)256 << 20;
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++, n++) {
		longopts[n].name = d->long_name;
		longopts[n].has_arg = d->arg ? required_argument : no_argument;
		longopts[n].flag = NULL;
		longopts[n].val = long_value(d);
		if (d->short_name) {
			shortopts[s++] = d->short_name;
			if (d->arg)
				shortopts[s++] = ':';
		}
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	shortopts[s] = '\0';

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "json")) o->format = SS_FMT_JSON;
			else if (!strcmp(optarg, "csv")) o->format = SS_FMT_CSV;
			else if (!strcmp(optarg, "table")) o->format = SS_FMT_TABLE;
			else if (!strcmp(optarg, "markdown")) o->format = SS_FMT_MARKDOWN;
			else if (!strcmp(optarg, "jsonl")) o->format = SS_FMT_JSONL;
			else if (!strcmp(optarg, "none")) o->format = SS_FMT_NONE;
			else return usage(err, "unknown format '%s' (json, csv, table, markdown, jsonl, none)", optarg);
			break;
		case OPT_JSON: o->json_path = optarg; break;
		case OPT_CSV: o->csv_path = optarg; break;
		case OPT_RECORDS: o->records_path = optarg; break;
		case 'o': o->output_dir = optarg; break;
		case OPT_TABLE: o->table = 1; break;
		case OPT_NO_TABLE: o->table = 0; break;
		case OPT_PHASE:
			if (!strcmp(optarg, "profiling")) o->phase = SS_PHASES_PROFILING;
			else if (!strcmp(optarg, "warmup")) o->phase = SS_PHASES_WARMUP;
			else if (!strcmp(optarg, "all")) o->phase = SS_PHASES_ALL;
			else return usage(err, "unknown phase '%s' (profiling, warmup, all)", optarg);
			break;
		case OPT_ENGINE:
			o->engine = ss_engine_from_name(optarg);
			if (o->engine == SS_ENGINE_NONE)
				return usage(err, "unknown engine '%s' (vllm, tensorrt_llm, llamacpp, sglang)", optarg);
			break;
		case OPT_INPUT_KIND:
			if (!strcmp(optarg, "auto")) o->input_kind = SS_KIND_UNKNOWN;
			else if (!strcmp(optarg, "raw")) o->input_kind = SS_KIND_RAW;
			else if (!strcmp(optarg, "records")) o->input_kind = SS_KIND_RECORDS;
			else if (!strcmp(optarg, "body")) o->input_kind = SS_KIND_BODY;
			else if (!strcmp(optarg, "sse")) o->input_kind = SS_KIND_SSE;
			else return usage(err, "unknown input kind '%s' (auto, raw, records, body, sse)", optarg);
			break;
		case 'r': o->recursive = true; break;
		case OPT_MAX_RECORD:
			if (!ss_parse_size(optarg, &o->max_record))
				return usage(err, "invalid size '%s' for --max-record-size", optarg);
			break;
		case 'j': {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 1 || v > 256)
				return usage(err, "invalid thread count '%s' (1 to 256)", optarg);
			o->threads = (int)v;
			break;
		}
		case OPT_PROGRESS: o->progress = 1; break;
		case OPT_NO_PROGRESS: o->progress = 0; break;
		case OPT_STRICT: o->strict = true; break;
		case OPT_FORCE: o->force = true; break;
		case 'q': o->verbosity = -1; break;
		case 'v': o->verbosity = 1; break;
		case 'h': o->help = true; break;
		case 'V': o->version = true; break;
		case SS_OPT_POSITIONS: case SS_OPT_DRAFT_COST: case SS_OPT_CI:
		case SS_OPT_BOOTSTRAP: case SS_OPT_SEED: case SS_OPT_GROUP_BY:
		case SS_OPT_COMPARE: case SS_OPT_EXPECT:
			if (!ss_options_analysis(&o->analysis, c, optarg, err))
				return false;
			break;
		case ':':
			return usage(err, "option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage(err, "unknown option '%s'", argv[optind - 1]);
		}
	}
	o->inputs = (const char *const *)(argv + optind);
	o->ninputs = (size_t)(argc - optind);
	return ss_options_analysis_check(&o->analysis, err);
}

void ss_options_release(struct ss_options *o)
{
	ss_analysis_opts_release(&o->analysis);
}
