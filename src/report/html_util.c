/*
 * html_util.c - the writers the sections of the HTML report share
 * (html_int.h).
 */
#include <stdint.h>

#include "report/chart_geom.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"

void ss_html_add_count(struct ss_buf *b, __int128 v)
{
	if (v >= 0 && v <= (__int128)UINT64_MAX)
		ss_buf_add_u64_grouped(b, (uint64_t)v);
	else
		ss_buf_add_i128(b, v);
}

void ss_html_add_pct(struct ss_buf *b, double part, double total)
{
	ss_chart_add_small(b, total > 0 ? part / total * 100.0 : 0.0, 1);
}

void ss_html_missing(struct ss_buf *b, const char *text)
{
	ss_buf_adds(b, "<p class=\"missing\">");
	ss_buf_add_htmls(b, text);
	ss_buf_adds(b, "</p>\n");
}


void ss_html_missing_end(struct ss_buf *b, struct ss_buf *why)
{
	if (why->failed)
		b->failed = true;
	else
		ss_html_missing(b, why->data);
	ss_buf_release(why);
	ss_buf_adds(b, "</section>\n");
}
