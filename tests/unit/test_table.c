/*
 * Unit tests of the table model (report/tabular.h): one small table
 * rendered by each of the four renderers, the expected texts worked out
 * by hand from the rules of tabular.h (widths, centring, escaping, which
 * columns each format shows, how each kind of cell reads), and the one
 * CSV quoting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/tabular.h"
#include "util/buf.h"

/* Name (from an input), a count, a number with an HTML head of its own,
 * and a rank only the CSV shows, under a head of its own. */
static const struct ss_tab_col cols[] = {
	{"Name", SS_COL_NAME, true, 0, NULL, NULL, false},
	{"Count", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"Value", SS_COL_FIX2, false, 0, NULL, "Val<br>ue", false},
	{"#", SS_COL_INT, false, SS_TAB_CSV, "Rank", NULL, false},
};

/* Two rows: ("a,b", 1234, 1.5, 1) and ("<x>", 5, missing, 2). */
static void fill(struct ss_tab *t)
{
	struct ss_buf *b;

	ss_tab_init(t, cols, 4);
	ss_tab_text(t, "a,b");
	ss_tab_int(t, 1234);
	ss_tab_num(t, 1.5);
	ss_tab_int(t, 1);
	b = ss_tab_begin(t);   /* a text composed in pieces */
	ss_buf_adds(b, "<x");
	ss_buf_addc(b, '>');
	ss_tab_end(t);
	ss_tab_int(t, 5);
	ss_tab_na(t);
	ss_tab_int(t, 2);
}

static void expect(struct ss_buf *b, const char *want)
{
	assert_false(b->failed);
	assert_int_equal(b->len, strlen(want));
	assert_memory_equal(b->data, want, b->len);
}

static void test_box_ascii(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill(&t);
	assert_int_equal(ss_tab_rows(&t), 2);
	ss_tab_box(&out, &t, "T", false, false);
	/* widths 4, 5, 5: 4 bars + 6 + 7 + 7 = 24 columns, (24 - 1) / 2 = 11 spaces */
	expect(&out, "           T\n"
		     "+------+-------+-------+\n"
		     "| Name | Count | Value |\n"
		     "+------+-------+-------+\n"
		     "| a,b  | 1,234 |  1.50 |\n"
		     "| <x>  |     5 |   N/A |\n"
		     "+------+-------+-------+\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

static void test_markdown(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill(&t);
	ss_tab_md(&out, &t);
	expect(&out, "| Name | Count | Value |\n"
		     "| :--- | ---: | ---: |\n"
		     "| a,b | 1,234 | 1.50 |\n"
		     "| &lt;x&gt; | 5 | N/A |\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

static void test_csv(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill(&t);
	ss_tab_csv(&out, &t, true);
	expect(&out, "Name,Count,Value,Rank\r\n"
		     "\"a,b\",1234,1.50,1\r\n"
		     "<x>,5,,2\r\n");
	/* a second section: an empty line first; rows only: none */
	ss_tab_csv(&out, &t, true);
	ss_tab_csv(&out, &t, false);
	expect(&out, "Name,Count,Value,Rank\r\n\"a,b\",1234,1.50,1\r\n<x>,5,,2\r\n"
		     "\r\nName,Count,Value,Rank\r\n\"a,b\",1234,1.50,1\r\n<x>,5,,2\r\n"
		     "\"a,b\",1234,1.50,1\r\n<x>,5,,2\r\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

static void test_html(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill(&t);
	ss_tab_html(&out, &t, "Cap");
	expect(&out, "<table>\n<caption>Cap</caption>\n"
		     "<thead><tr><th class=\"l\">Name</th><th>Count</th><th>Val<br>ue</th>"
		     "</tr></thead>\n<tbody>\n"
		     "<tr><td class=\"name\">a,b</td><td>1,234</td><td>1.50</td></tr>\n"
		     "<tr><td class=\"name\">&lt;x&gt;</td><td>5</td><td>N/A</td></tr>\n"
		     "</tbody>\n</table>\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* UTF-8 rules, bold heads, a width counted in characters; a left TEXT
 * column, a CODE column, a plain HTML number, a negative count. */
static const struct ss_tab_col cols2[] = {
	{"K", SS_COL_TEXT, true, 0, NULL, NULL, false},
	{"V", SS_COL_FIX2, false, 0, NULL, NULL, true},
	{"C", SS_COL_CODE, true, SS_TAB_HTML, NULL, NULL, false},
	{"N", SS_COL_COUNT, false, SS_TAB_CSV | SS_TAB_HTML, NULL, NULL, false},
};

static void test_box_utf8(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, cols2, 4);
	ss_tab_text(&t, "\xce\x94");   /* Δ: one column */
	ss_tab_num(&t, 1234.5);
	ss_tab_text(&t, "x");
	ss_tab_int(&t, -3);
	/* widths 1 and 8: 3 bars + 3 + 10 = 16, (16 - 2) / 2 = 7 spaces */
	ss_tab_box(&out, &t, "Tt", true, true);
	expect(&out, "       Tt\n"
		     "┏━━━┳━━━━━━━━━━┓\n"
		     "┃ \033[1mK\033[0m ┃        \033[1mV\033[0m ┃\n"
		     "┡━━━╇━━━━━━━━━━┩\n"
		     "│ Δ │ 1,234.50 │\n"
		     "└───┴──────────┘\n");
	ss_buf_reset(&out);
	ss_tab_html(&out, &t, NULL);
	expect(&out, "<table>\n<thead><tr><th class=\"l\">K</th><th>V</th><th>C</th><th>N</th>"
		     "</tr></thead>\n<tbody>\n"
		     "<tr><td class=\"l\">\xce\x94</td><td>1234.50</td><td><code>x</code></td>"
		     "<td>-3</td></tr>\n</tbody>\n</table>\n");
	ss_buf_reset(&out);
	ss_tab_csv(&out, &t, true);
	expect(&out, "K,V,N\r\n\xce\x94,1234.50,-3\r\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* No row: nothing in the box and Markdown, the head alone in CSV. */
static void test_empty(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, cols2, 4);
	ss_tab_box(&out, &t, "T", true, false);
	ss_tab_md(&out, &t);
	assert_int_equal(out.len, 0);
	ss_tab_csv(&out, &t, true);
	expect(&out, "K,V,N\r\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* A markup cell (trusted on the page, its text elsewhere), an empty cell
 * (a <td> without its column's class) and a row's class. */
static const struct ss_tab_col cols3[] = {
	{"S", SS_COL_TEXT, true, 0, NULL, NULL, false},
	{"N", SS_COL_NAME, true, 0, NULL, NULL, false},
};

static void test_markup_rows(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, cols3, 2);
	ss_tab_markup(&t, "a <code>b</code>", "a b");
	ss_tab_text(&t, "=x");
	ss_tab_row_class(&t, "total");
	ss_tab_empty(&t);
	ss_tab_text(&t, "y");
	ss_tab_html(&out, &t, NULL);
	expect(&out, "<table>\n<thead><tr><th class=\"l\">S</th><th class=\"l\">N</th></tr>"
		     "</thead>\n<tbody>\n"
		     "<tr><td class=\"l\">a <code>b</code></td><td class=\"name\">=x</td></tr>\n"
		     "<tr class=\"total\"><td></td><td class=\"name\">y</td></tr>\n"
		     "</tbody>\n</table>\n");
	ss_buf_reset(&out);
	ss_tab_md(&out, &t);
	expect(&out, "| S | N |\n| :--- | :--- |\n| a b | =x |\n|  | y |\n");
	ss_buf_reset(&out);
	ss_tab_csv(&out, &t, true);   /* the name that reads as a formula gets its ' */
	expect(&out, "S,N\r\na b,'=x\r\n,y\r\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* The one CSV quoting: a separator, a quote or a line end quotes the
 * field (quotes doubled); a name starting as a formula gets a ' inside the
 * quotes; a text that is no name never does. */
static void test_csv_field(void **state)
{
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_csv_field(&out, "say \"hi\", ok", 12, false);
	ss_buf_addc(&out, '|');
	ss_tab_csv_field(&out, "+1,2", 4, true);
	ss_buf_addc(&out, '|');
	ss_tab_csv_field(&out, "-3", 2, true);
	ss_buf_addc(&out, '|');
	ss_tab_csv_field(&out, "-3", 2, false);
	ss_buf_addc(&out, '|');
	ss_tab_csv_field(&out, "a\nb", 3, false);
	expect(&out, "\"say \"\"hi\"\", ok\"|\"'+1,2\"|'-3|-3|\"a\nb\"");
	ss_buf_release(&out);
}

/*
 * Fitting the box to the console (tabular.h). A long name, a count with
 * priority 2, a number with priority 1 and an integer that always stays:
 * natural widths 16, 5, 4 and 1, the box 1 + 19 + 8 + 7 + 4 = 39 wide.
 */
static const struct ss_tab_col fit_cols[] = {
	{"Name", SS_COL_NAME, true, 0, NULL, NULL, false},
	{"A", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"B", SS_COL_FIX2, false, 0, NULL, NULL, false},
	{"C", SS_COL_INT, false, 0, NULL, NULL, false},
};
static const unsigned char fit_prio[] = {0, 2, 1, 0};

static void fill_fit(struct ss_tab *t)
{
	ss_tab_init(t, fit_cols, 4);
	t->priority = fit_prio;
	ss_tab_text(t, "alpha-beta-gamma");
	ss_tab_int(t, 1234);
	ss_tab_num(t, 1.5);
	ss_tab_int(t, 7);
	ss_tab_text(t, "b");
	ss_tab_int(t, 5);
	ss_tab_na(t);
	ss_tab_int(t, 8);
}

/* Wide enough: unchanged, whatever the priorities. */
static void test_fit_wide(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill_fit(&t);
	ss_tab_set_width(39);
	ss_tab_box(&out, &t, "T", false, false);
	ss_tab_set_width(0);
	expect(&out, "                   T\n"
		     "+------------------+-------+------+---+\n"
		     "| Name             |     A |    B | C |\n"
		     "+------------------+-------+------+---+\n"
		     "| alpha-beta-gamma | 1,234 | 1.50 | 7 |\n"
		     "| b                |     5 |  N/A | 8 |\n"
		     "+------------------+-------+------+---+\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/*
 * 30 columns: on one line A and B must go (31, then 24); stacked, the
 * name's line above the row leaves 1 + 8 + 7 + 4 = 20 with nothing left
 * out, and the box grows to hold `Name: alpha-beta-gamma` (22 > 16
 * inside): C by 6, 26 wide, the title after (26 - 1) / 2 = 12 spaces.
 */
static void test_fit_stack(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill_fit(&t);
	ss_tab_set_width(30);
	ss_tab_box(&out, &t, "T", false, false);
	ss_tab_set_width(0);
	expect(&out, "            T\n"
		     "+-------+------+---------+\n"
		     "|     A |    B |       C |\n"
		     "+-------+------+---------+\n"
		     "| Name: alpha-beta-gamma |\n"
		     "| 1,234 | 1.50 |       7 |\n"
		     "| Name: b                |\n"
		     "|     5 |  N/A |       8 |\n"
		     "+-------+------+---------+\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* 20 columns: stacked, 20 wide exactly; the name's line (16 inside) is
 * cut in the middle: 13 characters kept, 7 before `...`, 6 after. */
static void test_fit_cut(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	fill_fit(&t);
	ss_tab_set_width(20);
	ss_tab_box(&out, &t, "T", false, false);
	ss_tab_set_width(0);
	expect(&out, "         T\n"
		     "+-------+------+---+\n"
		     "|     A |    B | C |\n"
		     "+-------+------+---+\n"
		     "| Name: a...-gamma |\n"
		     "| 1,234 | 1.50 | 7 |\n"
		     "| Name: b          |\n"
		     "|     5 |  N/A | 8 |\n"
		     "+-------+------+---+\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/*
 * A short name: at 24 columns, B's priority is lower than A's... A (2)
 * goes first: 1 + 8 + 7 + 4 with Name 5 wide = 20 fits on one line, and
 * stacking would save only that one column. The note names A, wrapped
 * at 24 columns after two spaces.
 */
static void test_fit_drop(void **state)
{
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, fit_cols, 4);
	t.priority = fit_prio;
	ss_tab_text(&t, "alpha");
	ss_tab_int(&t, 1234);
	ss_tab_num(&t, 1.5);
	ss_tab_int(&t, 7);
	ss_tab_set_width(24);
	ss_tab_box(&out, &t, "T", false, false);
	ss_tab_set_width(0);
	expect(&out, "         T\n"
		     "+-------+------+---+\n"
		     "| Name  |    B | C |\n"
		     "+-------+------+---+\n"
		     "| alpha | 1.50 | 7 |\n"
		     "+-------+------+---+\n"
		     "  Not shown, to fit 24\n"
		     "  columns: A (a wider\n"
		     "  terminal, COLUMNS=N or\n"
		     "  -f markdown shows it)\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* A fixed table (SPEC 4.3's) keeps its layout at any width. */
static void test_fit_fixed(void **state)
{
	struct ss_tab t;
	struct ss_buf a = SS_BUF_INIT, b = SS_BUF_INIT;

	(void)state;
	fill_fit(&t);
	ss_tab_box(&a, &t, "T", true, false);
	t.fixed = true;
	ss_tab_set_width(10);
	ss_tab_box(&b, &t, "T", true, false);
	ss_tab_set_width(0);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.data, b.data, a.len);
	ss_buf_release(&a);
	ss_buf_release(&b);
	ss_tab_release(&t);
}

/* CSV: REAL cells unrounded; a NAME column's numbers are not guarded. */
static void test_csv_real(void **state)
{
	static const struct ss_tab_col rc[] = {
		{"n", SS_COL_NAME, true, 0, NULL, NULL, false},
		{"r", SS_COL_REAL, false, 0, NULL, NULL, false},
	};
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, rc, 2);
	ss_tab_int(&t, -3);
	ss_tab_num(&t, 31.0 / 11.0);
	ss_tab_text(&t, "-3");
	ss_tab_num(&t, 8.0);
	ss_tab_csv(&out, &t, false);
	expect(&out, "-3,2.8181818181818183\r\n'-3,8.0\r\n");
	ss_buf_reset(&out);
	ss_tab_md(&out, &t);
	expect(&out, "| n | r |\n| :--- | ---: |\n| -3 | 2.82 |\n| -3 | 8.00 |\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* PCT: a share in percent, whole on the console and in Markdown, two
 * decimals in CSV and HTML; TIMES: a ratio with an x where people read it;
 * a missing value of either N/A for people, empty in CSV and on the page. */
static void test_ratio(void **state)
{
	static const struct ss_tab_col rc[] = {
		{"p", SS_COL_PCT, false, 0, NULL, NULL, false},
		{"x", SS_COL_TIMES, false, 0, NULL, NULL, false},
	};
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, rc, 2);
	ss_tab_num(&t, 0.8125);   /* 81.25%, exact in binary */
	ss_tab_num(&t, 1234.5);
	ss_tab_na(&t);
	ss_tab_na(&t);
	ss_tab_md(&out, &t);
	expect(&out, "| p | x |\n| ---: | ---: |\n| 81% | 1,234.50x |\n| N/A | N/A |\n");
	ss_buf_reset(&out);
	ss_tab_csv(&out, &t, false);
	expect(&out, "81.25,1234.50\r\n,\r\n");
	ss_buf_reset(&out);
	ss_tab_html(&out, &t, NULL);
	expect(&out, "<table>\n<thead><tr><th>p</th><th>x</th></tr></thead>\n<tbody>\n"
		     "<tr><td>81.25</td><td>1,234.50</td></tr>\n<tr><td></td><td></td></tr>\n"
		     "</tbody>\n</table>\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

/* ROWHEAD: a labelled figure's label is a row head on the page, and a
 * table of such rows has no head row; elsewhere the label is text. */
static void test_rowhead(void **state)
{
	static const struct ss_tab_col rc[] = {
		{"Figure", SS_COL_ROWHEAD, true, 0, NULL, NULL, false},
		{"Value", SS_COL_COUNT, false, 0, NULL, NULL, true},
	};
	struct ss_tab t;
	struct ss_buf out = SS_BUF_INIT;

	(void)state;
	ss_tab_init(&t, rc, 2);
	ss_tab_text(&t, "Steps <all>");
	ss_tab_int(&t, 12345);
	ss_tab_text(&t, "Window (s)");
	ss_tab_num(&t, 1234.5);  /* html_plain: no separator on the page */
	ss_tab_html_rows(&out, &t, "Counts");
	expect(&out, "<table>\n<caption>Counts</caption>\n<tbody>\n"
		     "<tr><th scope=\"row\">Steps &lt;all&gt;</th><td>12,345</td></tr>\n"
		     "<tr><th scope=\"row\">Window (s)</th><td>1234.50</td></tr>\n"
		     "</tbody>\n</table>\n");
	ss_buf_reset(&out);
	ss_tab_md(&out, &t);
	expect(&out, "| Figure | Value |\n| :--- | ---: |\n| Steps &lt;all&gt; | 12,345 |\n"
		     "| Window (s) | 1,234.50 |\n");
	ss_buf_release(&out);
	ss_tab_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box_ascii),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_box_utf8),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_markup_rows),
		cmocka_unit_test(test_csv_field),
		cmocka_unit_test(test_fit_wide),
		cmocka_unit_test(test_fit_stack),
		cmocka_unit_test(test_fit_cut),
		cmocka_unit_test(test_fit_drop),
		cmocka_unit_test(test_fit_fixed),
		cmocka_unit_test(test_csv_real),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_rowhead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
