/*
 * test_options.c - the option table is the single source of parsing,
 * usage errors and --help: every row is well-formed, every enumerated
 * value parses to its meaning (SPEC 5, written out here by hand), an
 * unknown value is refused with the row's list, and --help shows it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

static bool parse(struct ss_options *o, const char *a1, const char *a2, char **said)
{
	char *argv[] = {"specscan", (char *)a1, (char *)a2, NULL};
	size_t len = 0;
	FILE *err = open_memstream(said, &len);
	bool ok;

	assert_non_null(err);
	ok = ss_options_parse(o, a2 ? 3 : 2, argv, err);
	fclose(err);
	return ok;
}

static void test_rows(void **state)
{
	(void)state;
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++) {
		/* getopt_long returns the short letter when there is one. */
		if (d->short_name)
			assert_int_equal(d->id, d->short_name);
		else
			assert_true(d->id > 255);
		for (const struct ss_option_desc *e = d + 1; e->long_name; e++) {
			assert_int_not_equal(d->id, e->id);
			assert_string_not_equal(d->long_name, e->long_name);
		}
		if (d->values) {
			assert_non_null(d->arg);
			assert_non_null(d->noun);
			assert_non_null(d->values[0].name);
		}
	}
}

static const struct ss_option_desc *row(const char *name)
{
	for (const struct ss_option_desc *d = ss_option_table; d->long_name; d++)
		if (!strcmp(d->long_name, name))
			return d;
	fail_msg("no option --%s", name);
	return NULL;
}

/* --engine accepts exactly the built-in adapters' names. */
static void test_engines_match_adapters(void **state)
{
	const struct ss_option_desc *d = row("engine");
	int n = 0;

	(void)state;
	for (const struct ss_option_value *v = d->values; v->name; v++, n++)
		assert_string_equal(v->name, ss_engine_name((enum ss_engine)v->value));
	assert_int_equal(n, SS_ENGINE_COUNT - 1);
}

static void test_values_parse(void **state)
{
	static const struct {
		const char *opt, *arg;
		int want;
	} cases[] = {
		{"--format", "json", SS_FMT_JSON}, {"--format", "csv", SS_FMT_CSV},
		{"--format", "table", SS_FMT_TABLE}, {"--format", "jsonl", SS_FMT_JSONL},
		{"--format", "none", SS_FMT_NONE}, {"-f", "csv", SS_FMT_CSV},
		{"--phase", "profiling", SS_PHASES_PROFILING},
		{"--phase", "warmup", SS_PHASES_WARMUP}, {"--phase", "all", SS_PHASES_ALL},
		{"--engine", "vllm", SS_ENGINE_VLLM}, {"--engine", "tensorrt_llm", SS_ENGINE_TRTLLM},
		{"--engine", "llamacpp", SS_ENGINE_LLAMACPP}, {"--engine", "sglang", SS_ENGINE_SGLANG},
		{"--input-kind", "auto", SS_KIND_UNKNOWN}, {"--input-kind", "raw", SS_KIND_RAW},
		{"--input-kind", "records", SS_KIND_RECORDS}, {"--input-kind", "body", SS_KIND_BODY},
		{"--input-kind", "sse", SS_KIND_SSE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_options o;
		char *said = NULL;
		int got;

		assert_true(parse(&o, cases[i].opt, cases[i].arg, &said));
		assert_string_equal(said, "");
		free(said);
		got = cases[i].opt[2] == 'p' ? (int)o.phase
		      : cases[i].opt[2] == 'e' ? (int)o.engine
		      : cases[i].opt[2] == 'i' ? (int)o.input_kind : (int)o.format;
		assert_int_equal(got, cases[i].want);
	}
}

static void test_unknown_value(void **state)
{
	static const struct {
		const char *opt, *msg;
	} cases[] = {
		{"--format", "specscan: unknown format 'x' (json, csv, table, markdown, jsonl, none)\n"},
		{"--phase", "specscan: unknown phase 'x' (profiling, warmup, all)\n"},
		{"--engine", "specscan: unknown engine 'x' (vllm, tensorrt_llm, llamacpp, sglang, spec_bench, eagle)\n"},
		{"--input-kind", "specscan: unknown input kind 'x' (auto, raw, records, body, sse, enriched, scrape, log, harness)\n"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_options o;
		char *said = NULL, want[256];

		assert_false(parse(&o, cases[i].opt, "x", &said));
		snprintf(want, sizeof(want), "%sTry 'specscan --help' for more information.\n",
			 cases[i].msg);
		assert_string_equal(said, want);
		free(said);
	}
}

/* A missing argument is said as such (it used to be "unknown option"). */
static void test_missing_argument(void **state)
{
	static const struct {
		const char *arg, *opt;
	} cases[] = {
		{"--json", "--json"}, {"--format", "--format"}, {"-f", "-f"}, {"-j", "-j"},
		{"-rj", "-j"}, {"--max-record-size", "--max-record-size"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_options o;
		char *said = NULL, want[256];

		assert_false(parse(&o, cases[i].arg, NULL, &said));
		snprintf(want, sizeof(want), "specscan: option '%s' needs an argument\n"
			 "Try 'specscan --help' for more information.\n", cases[i].opt);
		assert_string_equal(said, want);
		free(said);
	}
}

static void test_help_lists_values(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	ss_options_help(out);
	fclose(out);
	/* wrapped at a space to 79 columns, the rest under the text column */
	assert_non_null(strstr(text,
		"\n  -f, --format FMT               stdout format (default: table on a terminal,\n"
		"                                 else json): json, csv, table, markdown, jsonl,\n"
		"                                 none\n"));
	assert_non_null(strstr(text,
		"\n      --phase PHASE              main results from profiling (default), warmup\n"
		"                                 or all\n"));
	assert_non_null(strstr(text,
		"\n      --engine NAME              accept payloads of this engine only: vllm,\n"
		"                                 tensorrt_llm, llamacpp, sglang, spec_bench,\n"
		"                                 eagle\n"));
	assert_non_null(strstr(text,
		"\n      --input-kind KIND          skip detection: auto, raw, records, body, sse,\n"
		"                                 enriched, scrape, log, harness\n"));
	/* the one-stdout rule (docs/GUIDE.md, "Outputs") */
	assert_non_null(strstr(text, "A FILE of - is standard output. At most one output goes there"));
	/* no line wider than 79 columns */
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);

		assert_true(n <= 79);
		l += n + (e != NULL);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_engines_match_adapters),
		cmocka_unit_test(test_values_parse),
		cmocka_unit_test(test_unknown_value),
		cmocka_unit_test(test_missing_argument),
		cmocka_unit_test(test_help_lists_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
