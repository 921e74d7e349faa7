/*
 * test_escape.c - the escaping of every destination (report/escape.h):
 * the terminal's (util/termesc.h), Markdown's, HTML's, each on hand-made
 * texts with the escaped form written out by hand; then every writer of
 * the reports fed the same hostile names (input names, group key values,
 * a key name typed on the command line, an engine name), each output
 * checked for raw control bytes and markup and for the names, still
 * readable, in the form its destination's rule gives.
 */
#include "fixtures_records.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyze.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "report/escape.h"
#include "report/html.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/msg.h"
#include "util/utf8.h"

struct esc_case {
	const char *in;
	size_t n;
	const char *want;
};

#define CASE(in, want) {in, sizeof(in) - 1, want}

typedef void (*escape_fn)(struct ss_buf *b, const char *s, size_t n);

static void check_cases(escape_fn fn, const struct esc_case *c, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++) {
		struct ss_buf b = SS_BUF_INIT;

		fn(&b, c[i].in, c[i].n);
		assert_false(b.failed);
		if (strcmp(b.data ? b.data : "", c[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, b.data ? b.data : "",
				 c[i].want);
		ss_buf_release(&b);
	}
}

/* The rule of util/termesc.h, case by case. */
static void test_terminal(void **state)
{
	static const struct esc_case cases[] = {
		CASE("plain name.jsonl", "plain name.jsonl"),
		CASE("", ""),
		CASE("osc\033]0;title\007", "osc\\033]0;title\\a"),
		CASE("\033[31mred\033[0m\033[2J\033[H", "\\033[31mred\\033[0m\\033[2J\\033[H"),
		CASE("a\rb\nc\td\be\vf\fg", "a\\rb\\nc\\td\\be\\vf\\fg"),
		CASE("nul\0x", "nul\\000x"),
		CASE("\001\037\177", "\\001\\037\\177"),
		CASE("back\\slash", "back\\\\slash"),
		/* U+0080 and U+009F (C1, one per byte), U+00A0 (printable) */
		CASE("\xC2\x80\xC2\x9F\xC2\xA0", "\\302\\200\\302\\237\xC2\xA0"),
		/* U+202E RLO, U+2066 LRI, and U+2069 PDI; U+2029 is shown */
		CASE("\xE2\x80\xAEx\xE2\x81\xA6y\xE2\x81\xA9\xE2\x80\xA9",
		     "\\342\\200\\256x\\342\\201\\246y\\342\\201\\251\xE2\x80\xA9"),
		/* invalid UTF-8: a lone continuation, 0xFF, a cut sequence */
		CASE("\x80 \xFF \xE2\x82", "\\200 \\377 \\342\\202"),
		CASE("caf\xC3\xA9 \xCE\x94 \xF0\x9F\x98\x80", "caf\xC3\xA9 \xCE\x94 \xF0\x9F\x98\x80"),
		CASE("<img src=x onerror=alert(1)>|`*_", "<img src=x onerror=alert(1)>|`*_"),
	};

	(void)state;
	check_cases(ss_buf_add_term, cases, sizeof(cases) / sizeof(cases[0]));
}

/* The FILE form writes what the buffer form appends. */
static void test_terminal_file(void **state)
{
	static const char in[] = "a\033]0;t\007\xC2\x9B\\b\xFF";
	char out[128] = "";
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");

	(void)state;
	assert_non_null(f);
	ss_term_put(f, in, sizeof(in) - 1);
	fclose(f);
	assert_string_equal(out, "a\\033]0;t\\a\\302\\233\\\\b\\377");
}

/* The Markdown rule of report/escape.h. */
static void test_markdown(void **state)
{
	static const struct esc_case cases[] = {
		CASE("run-a.jsonl", "run-a.jsonl"),
		CASE("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
		CASE("<a href=\"javascript:x\">x</a>", "&lt;a href=\"javascript:x\"&gt;x&lt;/a&gt;"),
		CASE("<details>&amp;", "&lt;details&gt;&amp;amp;"),
		CASE("a|b`c`*d*_e_[f](g)~h~$i$", "a\\|b\\`c\\`\\*d\\*\\_e\\_\\[f\\](g)\\~h\\~\\$i\\$"),
		CASE("a\rb\nc", "a b c"),
		/* the terminal's escapes, their backslash shown */
		CASE("x\033[2J\007", "x\\\\033\\[2J\\\\a"),
		CASE("back\\slash", "back\\\\\\\\slash"),
		CASE("\xC2\x9B\xE2\x80\xAE\xFF", "\\\\302\\\\233\\\\342\\\\200\\\\256\\\\377"),
		CASE("caf\xC3\xA9 \xCE\x94", "caf\xC3\xA9 \xCE\x94"),
		CASE("tab\there", "tab\\\\there"),
	};

	(void)state;
	check_cases(ss_buf_add_md, cases, sizeof(cases) / sizeof(cases[0]));
}

/* The HTML rule of report/htmlesc.h: entities, U+FFFD for the rest. */
static void test_html(void **state)
{
#define FFFD "\xEF\xBF\xBD"
	static const struct esc_case cases[] = {
		CASE("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
		CASE("\"'&", "&quot;&#39;&amp;"),
		CASE("a\033b\007c\177d", "a" FFFD "b" FFFD "c" FFFD "d"),
		CASE("t\tn\n", "t\tn\n"),
		CASE("\xC2\x85\xC2\x9B|\xE2\x80\xAE|\xE2\x81\xA9", FFFD FFFD "|" FFFD "|" FFFD),
		CASE("\xFF\xC3\xA9", FFFD "\xC3\xA9"),
	};
#undef FFFD

	(void)state;
	check_cases(ss_buf_add_html, cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- every writer, the same hostile names ---- */

/*
 * The names, each with the form a terminal shows (termesc.h), Markdown
 * (escape.h) and HTML (htmlesc.h) write, worked out by hand from the
 * rules; a JSON string of it as Python's json.dumps writes it (invalid
 * UTF-8 as \ufffd).
 */
struct hostile {
	const char *name;
	const char *term, *md, *html, *json;
};

static const struct hostile names[] = {
	{"osc\033]0;title\007", "osc\\033]0;title\\a", "osc\\\\033\\]0;title\\\\a",
	 "osc\xEF\xBF\xBD]0;title\xEF\xBF\xBD", "osc\\u001b]0;title\\u0007"},
	{"csi\033[31mred\033[2J\033[H", "csi\\033[31mred\\033[2J\\033[H",
	 "csi\\\\033\\[31mred\\\\033\\[2J\\\\033\\[H",
	 "csi\xEF\xBF\xBD[31mred\xEF\xBF\xBD[2J\xEF\xBF\xBD[H", "csi\\u001b[31mred\\u001b[2J\\u001b[H"},
	{"cr\rlf\nrow", "cr\\rlf\\nrow", "cr lf row", "cr\xEF\xBF\xBDlf\nrow", "cr\\rlf\\nrow"},
	{"c1\xC2\x80\xC2\x85\xC2\x9B\xC2\x9F", "c1\\302\\200\\302\\205\\302\\233\\302\\237",
	 "c1\\\\302\\\\200\\\\302\\\\205\\\\302\\\\233\\\\302\\\\237",
	 "c1\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "c1\xC2\x80\xC2\x85\xC2\x9B\xC2\x9F"},
	{"rlo\xE2\x80\xAEgnp.exe", "rlo\\342\\200\\256gnp.exe", "rlo\\\\342\\\\200\\\\256gnp.exe",
	 "rlo\xEF\xBF\xBDgnp.exe", "rlo\xE2\x80\xAEgnp.exe"},
	{"bad\xFF\xFE", "bad\\377\\376", "bad\\\\377\\\\376", "bad\xEF\xBF\xBD\xEF\xBF\xBD",
	 "bad\\ufffd\\ufffd"},
	{"<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>",
	 "&lt;img src=x onerror=alert(1)&gt;", "&lt;img src=x onerror=alert(1)&gt;",
	 "<img src=x onerror=alert(1)>"},
	{"<a href=\"javascript:x\">y</a>", "<a href=\"javascript:x\">y</a>",
	 "&lt;a href=\"javascript:x\"&gt;y&lt;/a&gt;",
	 "&lt;a href=&quot;javascript:x&quot;&gt;y&lt;/a&gt;", "<a href=\\\"javascript:x\\\">y</a>"},
	{"<details>", "<details>", "&lt;details&gt;", "&lt;details&gt;", "<details>"},
	{"pipe|tick`", "pipe|tick`", "pipe\\|tick\\`", "pipe|tick`", "pipe|tick`"},
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* A key name typed on the command line: `meta.` and a hostile NAME. */
static const char meta_arg[] = "input,meta.k\033[2J|<b>";
static const char meta_term[] = "meta.k\\033[2J|<b>";
static const char meta_md[] = "meta.k\\\\033\\[2J\\|&lt;b&gt;";
static const char meta_html[] = "meta.k\xEF\xBF\xBD[2J|&lt;b&gt;";
/* An engine name (a records line keeps it whatever it is). */
static const char engine[] = "eng\033]2;x\007<i>";
static const char engine_html[] = "eng\xEF\xBF\xBD]2;x\xEF\xBF\xBD&lt;i&gt;";

/* Input i is names[i]; its group: (names[i], names[NNAMES - 1 - i]). */
static void hostile_agg(struct ss_agg *a)
{
	ss_agg_init(a, SS_PHASES_PROFILING);
	ss_agg_keep(a, true, true, 2);
	for (size_t i = 0; i < NNAMES; i++) {
		struct ss_record r;
		struct ss_outcome o;
		struct ss_kv key[2] = {
			{SS_KV_STR, false, 0, names[i].name, strlen(names[i].name)},
			{SS_KV_STR, false, 0, names[NNAMES - 1 - i].name,
			 strlen(names[NNAMES - 1 - i].name)},
		};

		assert_true(ss_agg_begin_input(a, names[i].name));
		if (i % 2)
			fx_record_a(&r);
		else
			fx_record_b(&r);
		strcpy(r.engine, engine);
		fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
		assert_true(ss_agg_add_keyed(a, &o, key));
		ss_record_release(&r);
	}
	assert_true(ss_agg_finish(a));
}

static void hostile_analysis(struct ss_analysis *an, struct ss_analysis_opts *o,
			     const struct ss_agg *a, const char *compare)
{
	char err[256];

	ss_analysis_opts_init(o);
	o->positions = o->ci = true;
	o->level = 95;
	o->resamples = 20;
	o->seed = 1;
	o->threads = 1;
	o->compare = compare;
	assert_int_equal(ss_group_spec_parse(meta_arg, &o->group_by, err, sizeof(err)), SS_GP_OK);
	memset(an, 0, sizeof(*an));
	assert_int_equal(ss_analysis_run(an, a, o), SS_AN_OK);
}

static bool contains(const struct ss_buf *b, const char *s)
{
	return b->data && strstr(b->data, s) != NULL;
}

/*
 * No raw control byte (but LF, and tab where `tab` allows it), valid
 * UTF-8 only, and none of the code points no output shows raw.
 */
static void no_raw_control(const struct ss_buf *b, bool tab, const char *what)
{
	const unsigned char *p = (const unsigned char *)b->data;

	for (size_t i = 0; i < b->len;) {
		uint32_t cp;
		size_t k = ss_utf8_next(p + i, b->len - i, &cp);

		if (cp == SS_UTF8_INVALID)
			fail_msg("%s: invalid UTF-8 at byte %zu", what, i);
		if ((cp < 0x20 && cp != '\n' && !(tab && cp == '\t')) || cp == 0x7F ||
		    ss_cp_unsafe(cp))
			fail_msg("%s: raw U+%04X at byte %zu", what, (unsigned)cp, i);
		i += k;
	}
}

/* How many lines of b that start with `bar` hold it exactly `want` times
 * (each holds it `other` or `want` times, or fewer than `want` when other
 * is SIZE_MAX: any other count is a row split or cut short by a name). */
static size_t rows_with(const struct ss_buf *b, const char *bar, size_t want, size_t other,
			bool md)
{
	size_t rows = 0, blen = strlen(bar);

	for (const char *line = b->data; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line), bars = 0;

		if (len < blen || memcmp(line, bar, blen) != 0)
			len = 0;   /* not a table row */
		for (size_t i = 0; i + blen <= len; i++) {
			if (md && line[i] == '\\')
				i++;    /* an escaped character */
			else if (memcmp(line + i, bar, blen) == 0)
				bars++;
		}
		if (bars == want)
			rows++;
		else if (bars && bars != other && !(other == SIZE_MAX && bars < want))
			fail_msg("a row with %zu bars: %.*s", bars, (int)len, line);
		line = end ? end + 1 : NULL;
	}
	return rows;
}

/* How many lines of b start and end with `bar`; every line that starts
 * with it ends with it (a row split by a name would not). */
static size_t framed_lines(const struct ss_buf *b, const char *bar)
{
	size_t rows = 0, blen = strlen(bar);

	for (const char *line = b->data; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len >= blen && memcmp(line, bar, blen) == 0) {
			if (len < 2 * blen || memcmp(line + len - blen, bar, blen) != 0)
				fail_msg("a row cut short: %.*s", (int)len, line);
			rows++;
		}
		line = end ? end + 1 : NULL;
	}
	return rows;
}

/*
 * The console section with the group table: every name as termesc.h
 * writes it, each row of the tables whole. UTF-8: the group table's
 * rows have 11 light bars (2 keys, 7 figures and AL's interval, as the
 * analysis has --ci), the Spec Decode table's 9
 * (its head and the group table's are drawn with heavy bars). ASCII: the
 * two heads, the Spec Decode table's 7 lines (6 rows, one label on two
 * lines) and one line per group start and end with `|` (a name with a
 * `|` in it cannot add a line).
 */
static void check_table(const struct ss_agg *a, const struct ss_analysis *an, bool utf8)
{
	struct ss_buf out = SS_BUF_INIT;

	ss_report_table(&out, a, an, NULL, utf8, false);
	assert_false(out.failed);
	no_raw_control(&out, false, "table");
	for (size_t i = 0; i < NNAMES; i++)
		if (!contains(&out, names[i].term))
			fail_msg("table: no \"%s\"", names[i].term);
	assert_true(contains(&out, meta_term));
	if (utf8) {
		assert_int_equal(rows_with(&out, "│", 11, 9, false), NNAMES);
		assert_int_equal(framed_lines(&out, "│"), 7 + NNAMES);
	} else {
		assert_int_equal(framed_lines(&out, "|"), 2 + 7 + NNAMES);
	}
	ss_buf_release(&out);
}

static void check_markdown(const struct ss_agg *a, const struct ss_analysis *an)
{
	struct ss_buf out = SS_BUF_INIT;

	ss_report_markdown(&out, a, an, NULL);
	assert_false(out.failed);
	no_raw_control(&out, false, "markdown");
	/* no markup from a name: the writer's own text has no < > either */
	assert_null(memchr(out.data, '<', out.len));
	assert_null(memchr(out.data, '>', out.len));
	for (size_t i = 0; i < NNAMES; i++)
		if (!contains(&out, names[i].md))
			fail_msg("markdown: no \"%s\"", names[i].md);
	assert_true(contains(&out, meta_md));
	/* the group table: head, rule and one row per group, 10 cells each
	 * (with AL's interval); the other tables have fewer */
	assert_int_equal(rows_with(&out, "|", 11, SIZE_MAX, true), NNAMES + 2);
	ss_buf_release(&out);
}

static void check_html(const struct ss_agg *a, const struct ss_analysis *an)
{
	struct ss_buf out = SS_BUF_INIT;
	struct ss_html_opts o = {"0.0-test", NULL, NULL};
	static const char *const raw[] = {"<img", "<a href", "<details>", "<b>", "<i>"};

	ss_report_html(&out, a, an, &o);
	assert_false(out.failed);
	no_raw_control(&out, true, "html");
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		if (contains(&out, raw[i]))
			fail_msg("html: raw \"%s\"", raw[i]);
	for (size_t i = 0; i < NNAMES; i++)
		if (!contains(&out, names[i].html))
			fail_msg("html: no \"%s\"", names[i].html);
	assert_true(contains(&out, meta_html));
	assert_true(contains(&out, engine_html));
	ss_buf_release(&out);
}

/* Valid JSON, each name as a JSON string of it. */
static void check_json(const struct ss_agg *a, const struct ss_analysis *an)
{
	struct ss_buf out = SS_BUF_INIT;
	struct ssj_parser *p = ssj_parser_new();

	assert_non_null(p);
	ss_report_json(&out, a, an, NULL, "0.0-test");
	assert_false(out.failed);
	assert_int_equal(ssj_open(p, out.data, out.len), SSJ_OK);
	for (size_t i = 0; i < NNAMES; i++) {
		char want[256];

		snprintf(want, sizeof(want), "\"%s\"", names[i].json);
		if (!contains(&out, want))
			fail_msg("json: no %s", want);
	}
	ssj_parser_free(p);
	ss_buf_release(&out);
}

static void test_every_writer(void **state)
{
	struct ss_agg a;
	struct ss_analysis an;
	struct ss_analysis_opts o;

	(void)state;
	hostile_agg(&a);
	hostile_analysis(&an, &o, &a, NULL);
	check_table(&a, &an, true);
	check_table(&a, &an, false);
	check_markdown(&a, &an);
	check_html(&a, &an);
	check_json(&a, &an);
	ss_analysis_release(&an);
	ss_analysis_opts_release(&o);
	ss_agg_release(&a);
}

/* A message names an input and a reason: both escaped. */
static void test_messages(void **state)
{
	char out[1024] = "";
	FILE *f = fmemopen(out, sizeof(out) - 1, "w");
	struct ss_msg m;

	(void)state;
	assert_non_null(f);
	ss_msg_init(&m, f, SS_NORMAL);
	for (size_t i = 0; i < 3; i++)
		ss_msg_request(&m, 0, "unparsable", names[i].name, 7, names[5].name);
	ss_msg_error(&m, "cannot open '%s'", names[3].name);
	fclose(f);
	assert_string_equal(out,
			    "specscan: osc\\033]0;title\\a:7: unparsable: bad\\377\\376\n"
			    "specscan: csi\\033[31mred\\033[2J\\033[H:7: unparsable: bad\\377\\376\n"
			    "specscan: cr\\rlf\\nrow:7: unparsable: bad\\377\\376\n"
			    "specscan: cannot open 'c1\\302\\200\\302\\205\\302\\233\\302\\237'\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terminal),
		cmocka_unit_test(test_terminal_file),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_every_writer),
		cmocka_unit_test(test_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
