#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/msg.h"
#include "util/termesc.h"

/* Ids of long-only options, above any character. */
enum {
	OPT_JSON = 256, OPT_CSV, OPT_RECORDS, OPT_TABLE, OPT_NO_TABLE, OPT_PHASE,
	OPT_ENGINE, OPT_INPUT_KIND, OPT_MAX_RECORD, OPT_PROGRESS, OPT_NO_PROGRESS,
	OPT_STRICT, OPT_FORCE, OPT_MEMORY_LIMIT, OPT_SPOOL_LIMIT, OPT_ZSTD_WINDOW_LOG,
	OPT_SHARD, OPT_LIST_INPUTS, OPT_HTML, OPT_NO_RECORDS, OPT_PROFILE,
	OPT_TABLE_CSV
};

static const struct ss_option_value formats[] = {
	{"json", SS_FMT_JSON, false}, {"csv", SS_FMT_CSV, false},
	{"table", SS_FMT_TABLE, false}, {"markdown", SS_FMT_MARKDOWN, false},
	{"jsonl", SS_FMT_JSONL, false},
	{"none", SS_FMT_NONE, false}, {NULL, 0, false},
};

static const struct ss_option_value phases[] = {
	{"profiling", SS_PHASES_PROFILING, true}, {"warmup", SS_PHASES_WARMUP, false},
	{"all", SS_PHASES_ALL, false}, {NULL, 0, false},
};

/* The built-in adapters, as ss_engine_name() spells them (test_options
 * checks that the two agree). */
static const struct ss_option_value engines[] = {
	{"vllm", SS_ENGINE_VLLM, false}, {"tensorrt_llm", SS_ENGINE_TRTLLM, false},
	{"llamacpp", SS_ENGINE_LLAMACPP, false}, {"sglang", SS_ENGINE_SGLANG, false},
	{"spec_bench", SS_ENGINE_SPEC_BENCH, false}, {"eagle", SS_ENGINE_EAGLE, false},
	{NULL, 0, false},
};

/* "auto" is the default, but --help has never called it so. */
static const struct ss_option_value input_kinds[] = {
	{"auto", SS_KIND_UNKNOWN, false}, {"raw", SS_KIND_RAW, false},
	{"records", SS_KIND_RECORDS, false}, {"body", SS_KIND_BODY, false},
	{"sse", SS_KIND_SSE, false}, {"enriched", SS_KIND_ENRICHED, false},
	{"scrape", SS_KIND_SCRAPE, false}, {"log", SS_KIND_LOG, false},
	{"harness", SS_KIND_HARNESS, false}, {NULL, 0, false},
};

const struct ss_option_desc ss_option_table[] = {
	{"format", 'f', 'f', "FMT", "stdout format (default: table on a terminal, else json): ", formats, "format", NULL},
	{"json", 0, OPT_JSON, "FILE", "also write the aggregate JSON to FILE (- = stdout)", NULL, NULL, NULL},
	{"csv", 0, OPT_CSV, "FILE", "also write the aggregate CSV to FILE", NULL, NULL, NULL},
	{"records", 0, OPT_RECORDS, "FILE", "also write the enriched per-request JSONL to FILE", NULL, NULL, NULL},
	{"table-csv", 0, OPT_TABLE_CSV, "FILE", "also write one CSV row per request (for pandas) to FILE", NULL, NULL, NULL},
	{"html", 0, OPT_HTML, "FILE", "also write the HTML report (charts, self-contained) to FILE", NULL, NULL, NULL},
	{"output-dir", 'o', 'o', "DIR", "write spec_decode.json, .csv, _records.jsonl and .html into DIR", NULL, NULL, NULL},
	{"no-records", 0, OPT_NO_RECORDS, NULL, "with -o, leave spec_decode_records.jsonl out", NULL, NULL, NULL},
	{"table", 0, OPT_TABLE, NULL, "print the Spec Decode section on stderr", NULL, NULL, NULL},
	{"no-table", 0, OPT_NO_TABLE, NULL, "do not print it (default: on when stderr is a terminal, stdout is not the table and not -q)", NULL, NULL, NULL},
	{"phase", 0, OPT_PHASE, "PHASE", "main results from ", phases, "phase", " or "},
	{"engine", 0, OPT_ENGINE, "NAME", "accept payloads of this engine only: ", engines, "engine", NULL},
	{"input-kind", 0, OPT_INPUT_KIND, "KIND", "skip detection: ", input_kinds, "input kind", NULL},
	{"recursive", 'r', 'r', NULL, "walk directories for AIPerf artifact directories", NULL, NULL, NULL},
	{"max-record-size", 0, OPT_MAX_RECORD, "SIZE", "skip longer records as oversize (default 256M; K, M, G; at least 64)", NULL, NULL, NULL},
	{"memory-limit", 0, OPT_MEMORY_LIMIT, "SIZE", "stay within SIZE of memory, lowering threads and the record limit (default: half of RAM)", NULL, NULL, NULL},
	{"spool-limit", 0, OPT_SPOOL_LIMIT, "SIZE", "hold at most SIZE of archive members on disk (default: half the free space of $TMPDIR, at most 64 x the record limit)", NULL, NULL, NULL},
	{"zstd-window-log", 0, OPT_ZSTD_WINDOW_LOG, "N", "accept zstd frames with windows up to 2^N bytes (10..31, as zstd --long; default 27)", NULL, NULL, NULL},
	{"threads", 'j', 'j', "N", "worker threads (default: usable CPUs - 1)", NULL, NULL, NULL},
	{"progress", 0, OPT_PROGRESS, NULL, "show progress on stderr", NULL, NULL, NULL},
	{"no-progress", 0, OPT_NO_PROGRESS, NULL, "do not (default: on when stderr is a terminal and not -q)", NULL, NULL, NULL},
	{"strict", 0, OPT_STRICT, NULL, "exit 1 when a request is malformed, unparsable or oversize", NULL, NULL, NULL},
	{"force", 0, OPT_FORCE, NULL, "replace existing output files", NULL, NULL, NULL},
	{"positions", 0, SS_OPT_POSITIONS, NULL, "acceptance by draft position and the shorter-draft table", NULL, NULL, NULL},
	{"draft-cost", 0, SS_OPT_DRAFT_COST, "C", "draft token cost per target pass: speedup, suggested k", NULL, NULL, NULL},
	{"ci", 0, SS_OPT_CI, "LEVEL", "bootstrap intervals at LEVEL % (e.g. 95)", NULL, NULL, NULL},
	{"bootstrap", 0, SS_OPT_BOOTSTRAP, "B", "resamples for --ci (default 1000, at most 1000000)", NULL, NULL, NULL},
	{"seed", 0, SS_OPT_SEED, "S", "seed of the resamples (default 1)", NULL, NULL, NULL},
	{"group-by", 0, SS_OPT_GROUP_BY, "KEYS", "results per group of input, dir, engine, k, phase, model, osl, isl, concurrency, reasoning, meta.NAME", NULL, NULL, NULL},
	{"compare", 0, SS_OPT_COMPARE, "VALUE", "differences against the group VALUE of the first --group-by key", NULL, NULL, NULL},
	{"expect", 0, SS_OPT_EXPECT, "EXPR", "exit 4 unless TAG>=VALUE holds (>, <=, < too; repeatable)", NULL, NULL, NULL},
	{"windows", 0, SS_OPT_WINDOWS, "DURATION", "acceptance per time window of N seconds (Ns, Nm, Nh)", NULL, NULL, NULL},
	{"outliers", 0, SS_OPT_OUTLIERS, "N", "the N requests of lowest and highest acceptance length (1 to 1000)", NULL, NULL, NULL},
	{"definitions", 0, SS_OPT_DEFINITIONS, NULL, "acceptance length by each tool's definition, side by side", NULL, NULL, NULL},
	{"speedup", 0, SS_OPT_SPEEDUP, NULL, "timing per request; with --compare, the speedup over the baseline and the draft cost it implies", NULL, NULL, NULL},
	{"acceptance-profile", 0, OPT_PROFILE, "FILE", "write the per-position acceptance as simulator inputs to FILE", NULL, NULL, NULL},
	{"shard", 0, OPT_SHARD, "I/N", "read only block I of N of the resolved inputs (0 <= I < N)", NULL, NULL, NULL},
	{"list-inputs", 0, OPT_LIST_INPUTS, NULL, "print the resolved inputs (of the shard), one a line, and exit", NULL, NULL, NULL},
	{"quiet", 'q', 'q', NULL, "fewer messages; no progress or table on stderr unless asked for", NULL, NULL, NULL},
	{"verbose", 'v', 'v', NULL, "more messages", NULL, NULL, NULL},
	{"help", 'h', 'h', NULL, "show this help and exit", NULL, NULL, NULL},
	{"version", 'V', 'V', NULL, "show the version and library versions and exit", NULL, NULL, NULL},
	{NULL, 0, 0, NULL, NULL, NULL, NULL, NULL},
};

#define NOPTIONS (sizeof(ss_option_table) / sizeof(ss_option_table[0]) - 1)

/* "a, b, c" (with_default: "a (default), b or c" as the row says) into out. */
static void list_values(char *out, size_t size, const struct ss_option_desc *d,
			bool with_default)
{
	size_t len = 0;

	out[0] = '\0';
	for (const struct ss_option_value *v = d->values; v->name && len < size; v++) {
		const char *sep = v == d->values ? ""
				  : with_default && d->last_sep && !v[1].name ? d->last_sep
									      : ", ";

		len += (size_t)snprintf(out + len, size - len, "%s%s%s", sep, v->name,
					with_default && v->is_default ? " (default)" : "");
	}
}

/* Help text wider than this is wrapped (a terminal of 80 columns). */
#define HELP_WIDTH 79
#define HELP_INDENT 33

/* `text` after the option column, wrapped at spaces to HELP_WIDTH. */
static void help_wrapped(FILE *out, const char *text)
{
	size_t room = HELP_WIDTH - HELP_INDENT, len = strlen(text);

	while (len > room) {
		size_t cut = room;

		while (cut > 0 && text[cut] != ' ')
			cut--;
		if (cut == 0)
			cut = room;   /* one word longer than the room: cut it */
		fprintf(out, "%.*s\n%*s", (int)cut, text, HELP_INDENT, "");
		text += cut;
		len -= cut;
		while (*text == ' ') {
			text++;
			len--;
		}
	}
	fprintf(out, "%s\n", text);
}

void ss_options_help(FILE *out)
{
	fputs("Usage: specscan [OPTION]... [INPUT]...\n"
	      "Report speculative-decoding acceptance from captured responses\n"
	      "(AIPerf raw or records exports, response bodies, SSE captures;\n"
	      "plain, compressed or archived), and the server's own counters from\n"
	      "saved Prometheus /metrics pages (kind scrape), server logs (kind log:\n"
	      "vLLM, SGLang, llama.cpp) and Spec-Bench or EAGLE answer files (kind\n"
	      "harness). No INPUT, or -, reads standard input.\n\n",
	      out);
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++) {
		char left[48], text[512];

		if (d->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name,
				 d->long_name, d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->long_name,
				 d->arg ? " " : "", d->arg ? d->arg : "");
		if (d->values) {
			char list[256];

			list_values(list, sizeof(list), d, true);
			snprintf(text, sizeof(text), "%s%s", d->help, list);
		} else {
			snprintf(text, sizeof(text), "%s", d->help);
		}
		/* a long option column: the text starts on the next line */
		if (strlen(left) > HELP_INDENT - 3)
			fprintf(out, "  %s\n%*s", left, HELP_INDENT, "");
		else
			fprintf(out, "  %-30s ", left);
		help_wrapped(out, text);
	}
	fputs("\nA FILE of - is standard output. At most one output goes there: -f's\n"
	      "report (unless -f none) and every FILE of - count, a second is a usage error.\n",
	      out);
	fputs("\n--expect TAG: a metric tag (spec_decode_acceptance_length, ...), positionN,\n"
	      "server_acceptance_length or server_draft_acceptance_rate.\n", out);
	fputs("\nExit status: 0 report written; 1 report written but an input could not\n"
	      "be read (or --strict found bad requests); 2 usage error; 3 nothing written;\n"
	      "4 report written but an --expect failed.\n",
	      out);
}

/* "256M" -> bytes; false when not a size. */
static bool parse_size(const char *s, size_t *out)
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

/* A decimal number of digits only (no sign, no space), at most SIZE_MAX. */
static bool parse_index(const char *s, size_t len, size_t *out)
{
	size_t v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (SIZE_MAX - (size_t)(s[i] - '0')) / 10)
			return false;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* "I/N" (decimal, 0 <= I < N) -> I and N; false when not such a pair. */
static bool parse_shard(const char *s, size_t *index, size_t *count)
{
	const char *slash = strchr(s, '/');

	return slash && parse_index(s, (size_t)(slash - s), index) &&
	       parse_index(slash + 1, strlen(slash + 1), count) && *count > 0 && *index < *count;
}

/* The argument comes from the command line: written escaped (util/msg.h). */
static bool usage(FILE *err, const char *fmt, const char *a)
{
	char text[512];

	snprintf(text, sizeof(text), fmt, a);
	fprintf(err, "specscan: ");
	ss_term_put(err, text, strlen(text));
	fprintf(err, "\nTry 'specscan --help' for more information.\n");
	return false;
}

static const struct ss_option_desc *find_row(int id)
{
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++)
		if (d->id == id)
			return d;
	return NULL;
}

/* An enumerated option's value; false after the usage error. */
static bool enum_value(const struct ss_option_desc *d, const char *arg, int *value,
		       FILE *err)
{
	char list[256];

	for (const struct ss_option_value *v = d->values; v->name; v++) {
		if (strcmp(v->name, arg) == 0) {
			*value = v->value;
			return true;
		}
	}
	list_values(list, sizeof(list), d, false);
	fprintf(err, "specscan: unknown %s '", d->noun);
	ss_term_put(err, arg, strlen(arg));
	fprintf(err, "' (%s)\n"
		"Try 'specscan --help' for more information.\n", list);
	return false;
}

bool ss_options_parse(struct ss_options *o, int argc, char **argv, FILE *err)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 2];
	size_t n = 0, s = 0;
	int c;

	memset(o, 0, sizeof(*o));
	ss_analysis_opts_init(&o->analysis);
	/* A leading ':' makes a missing argument ':', not an unknown option. */
	shortopts[s++] = ':';
	o->table = -1;
	o->progress = -1;
	o->max_record = (size_t)256 << 20;
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++, n++) {
		longopts[n].name = d->long_name;
		longopts[n].has_arg = d->arg ? required_argument : no_argument;
		longopts[n].flag = NULL;
		longopts[n].val = d->id;
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
		const struct ss_option_desc *d = find_row(c);
		int val = 0;

		if (d && d->values && !enum_value(d, optarg, &val, err))
			return false;
		switch (c) {
		case 'f':
			o->format = (enum ss_format)val;
			o->format_given = true;
			break;
		case OPT_JSON: o->json_path = optarg; break;
		case OPT_CSV: o->csv_path = optarg; break;
		case OPT_RECORDS: o->records_path = optarg; break;
		case OPT_HTML: o->html_path = optarg; break;
		/* SPEC 11.5: the profile is 7.1's rows, so it implies --positions */
		case OPT_TABLE_CSV: o->table_csv_path = optarg; break;
		case OPT_PROFILE: o->profile_path = optarg; o->analysis.positions = true; break;
		case 'o': o->output_dir = optarg; break;
		case OPT_TABLE: o->table = 1; break;
		case OPT_NO_TABLE: o->table = 0; break;
		case OPT_PHASE: o->phase = (enum ss_phase_mode)val; break;
		case OPT_ENGINE: o->engine = (enum ss_engine)val; break;
		case OPT_INPUT_KIND: o->input_kind = (enum ss_kind)val; break;
		case 'r': o->recursive = true; break;
		case OPT_MAX_RECORD:
			if (!parse_size(optarg, &o->max_record))
				return usage(err, "invalid size '%s' for --max-record-size", optarg);
			/* SPEC 1.2: below the 12 bytes of `data: [DONE]` and a
			 * stream's line ends nothing useful fits. */
			if (o->max_record < 64)
				return usage(err, "--max-record-size '%s' is below 64 bytes", optarg);
			break;
		case OPT_MEMORY_LIMIT:
		case OPT_SPOOL_LIMIT: {
			size_t v;

			if (!parse_size(optarg, &v))
				return usage(err, c == OPT_MEMORY_LIMIT ? "invalid size '%s' for --memory-limit"
							       : "invalid size '%s' for --spool-limit",
					     optarg);
			if (c == OPT_MEMORY_LIMIT)
				o->memory_limit = v;
			else
				o->spool_limit = v;
			break;
		}
		case OPT_ZSTD_WINDOW_LOG: {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || v < 10 || v > 31)
				return usage(err, "invalid --zstd-window-log '%s' (10 to 31)", optarg);
			o->zstd_window_log = (unsigned)v;
			break;
		}
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
		case OPT_NO_RECORDS: o->no_dir_records = true; break;
		case OPT_SHARD:
			if (!parse_shard(optarg, &o->shard_index, &o->shard_count))
				return usage(err, "invalid --shard '%s' (I/N with 0 <= I < N)", optarg);
			o->shard = true;
			break;
		case OPT_LIST_INPUTS: o->list_inputs = true; break;
		case 'q': o->verbosity = -1; break;
		case 'v': o->verbosity = 1; break;
		case 'h': o->help = true; break;
		case 'V': o->version = true; break;
		case SS_OPT_POSITIONS: case SS_OPT_DRAFT_COST: case SS_OPT_CI:
		case SS_OPT_BOOTSTRAP: case SS_OPT_SEED: case SS_OPT_GROUP_BY:
		case SS_OPT_COMPARE: case SS_OPT_EXPECT: case SS_OPT_WINDOWS:
		case SS_OPT_OUTLIERS: case SS_OPT_DEFINITIONS: case SS_OPT_SPEEDUP:
			if (!ss_options_analysis(&o->analysis, c, optarg, err))
				return false;
			break;
		case ':': {
			/* The option as typed: "-j" even when it came as "-rj". */
			const char *opt = argv[optind - 1];
			char letter[3] = {'-', (char)optopt, '\0'};

			if (strncmp(opt, "--", 2) != 0 && optopt > 0 && optopt < 256)
				opt = letter;
			return usage(err, "option '%s' needs an argument", opt);
		}
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
