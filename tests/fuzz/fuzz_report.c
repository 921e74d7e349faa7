/*
 * fuzz_report.c - libFuzzer target: the writers of the reports (JSON,
 * CSV, the console table in UTF-8 and ASCII, Markdown, HTML) over
 * generated results whose names are the fuzzer's bytes: input names,
 * engines, a `meta.NAME` key name and group key values of every type,
 * with acceptance by position, intervals and --compare as the input asks.
 *
 * Each output's invariant (docs/BEHAVIOUR.md, Reliability):
 *  - JSON opens as valid JSON (ssj_open);
 *  - CSV is well-formed RFC 4180 with CRLF line ends (a name with a comma,
 *    quote, CR or LF is quoted, quotes doubled);
 *  - the table (both drawings) and Markdown: valid UTF-8, no raw control
 *    byte but LF, no code point termesc.h never shows raw, and every
 *    line that starts with a bar ends with one (a name cannot cut a row);
 *    Markdown has no `<` or `>` at all (its own text has none);
 *  - HTML: valid UTF-8, no raw control byte but LF and tab, and exactly
 *    as many `<` as the same page of the same results whose names have
 *    `<` replaced by `>` (so none comes from a name). Both are escaped to
 *    four bytes and shown as one character, so the layout (where a long
 *    label is cut and given a tooltip) is the same; `>` and `=` in the
 *    input's names are read as `-`, so the replaced names stay distinct
 *    and in the same order.
 *
 * Input: byte 0 options (bit 0 positions, 1 intervals, 2 --compare, 3 a
 * second key, 4 the table with colour); byte 1 the length of NAME, then
 * NAME; then requests, each: a flags byte (bits 0-1 the type of key 1:
 * null, bool, int, string; 2-3 key 2's; 4-6 the record: A, B, llama.cpp,
 * zero-step, error, unparsable...; 7 a new input, its name follows),
 * then each string key value and the engine as a length byte and bytes,
 * a bool or int key as one byte. At most 48 requests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyze.h"
#include "analysis/groupkey.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "metrics/values.h"
#include "model/outcome.h"
#include "model/record.h"
#include "report/html.h"
#include "report/report.h"
#include "util/buf.h"
#include "util/termesc.h"
#include "util/utf8.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define MAXREQ 48

struct req {
	char input[256];         /* "": the same input as before */
	struct ss_kv key[2];
	char kstr[2][256];
	int rec;                 /* template, see make_record */
	char engine[SS_ENGINE_NAME_MAX];
};

struct fin {
	const uint8_t *p;
	size_t n;
};

static int byte(struct fin *f)
{
	if (!f->n)
		return -1;
	f->n--;
	return *f->p++;
}

/* A length byte and that many bytes (cut at the end), NUL ending it; a
 * NUL inside is read as 0x01 where `no_nul` (a C string), `>` and `=` as
 * `-`. */
static size_t text(struct fin *f, char *out, size_t cap, bool no_nul)
{
	int len = byte(f);
	size_t n = 0;

	while (len > 0 && f->n && n + 1 < cap) {
		char c = (char)byte(f);

		if (c == '>' || c == '=')
			c = '-';
		if (c == '\0' && no_nul)
			c = '\1';
		out[n++] = c;
		len--;
	}
	out[n] = '\0';
	return n;
}

static void read_key(struct fin *f, struct req *r, int k, int type)
{
	struct ss_kv *v = &r->key[k];
	int b;

	memset(v, 0, sizeof(*v));
	v->type = (enum ss_kv_type)type;
	switch (v->type) {
	case SS_KV_NULL:
		break;
	case SS_KV_BOOL:
		v->b = byte(f) & 1;
		break;
	case SS_KV_INT:
		b = byte(f);
		v->i = (int64_t)(int8_t)(b < 0 ? 0 : b) * 1000003;
		break;
	case SS_KV_STR:
		v->len = text(f, r->kstr[k], sizeof(r->kstr[k]), false);
		v->s = r->kstr[k];
		break;
	case SS_KV_QUARTERS:
		b = byte(f);
		v->i = (b < 0 ? 0 : b) % 5;   /* 0, 0.25, ..., 1 */
		break;
	}
}

static void push_all(struct ss_vec_i64 *v, const int64_t *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		CHECK(SS_VEC_PUSH(v, x[i]));
}

/* Valid records (SPEC 6's A and B, a llama.cpp one, a zero-step one). */
static bool make_record(struct ss_record *r, int which)
{
	static const int64_t ha[] = {1, 1, 2, 3, 1}, hb[] = {1, 2, 0, 0, 0};
	static const int64_t psa[] = {2, 3, 1, 4, 2, 0, 3, 3};

	ss_record_init(r);
	switch (which) {
	case 0:
	case 1:
		strcpy(r->engine, "vllm");
		r->has_mean_acceptance_length = r->has_histogram = true;
		r->has_steps = r->has_spec_tokens = true;
		r->num_spec_tokens = 4;
		push_all(&r->histogram, which ? hb : ha, 5);
		r->num_spec_steps = which ? 3 : 8;
		r->num_accepted_draft_tokens = which ? 2 : 18;
		r->num_draft_tokens = which ? 12 : 32;
		r->mean_acceptance_length = which ? 1.0 + 2.0 / 3.0 : 3.25;
		r->draft_acceptance_rate = which ? 2.0 / 12.0 : 0.5625;
		if (!which) {
			r->has_per_step_accepted = true;
			push_all(&r->per_step_accepted, psa, 8);
		}
		return true;
	case 2:
		strcpy(r->engine, "llamacpp");
		r->num_accepted_draft_tokens = 3;
		r->num_draft_tokens = 6;
		r->draft_acceptance_rate = 0.5;
		return true;
	case 3:
		strcpy(r->engine, "vllm");
		r->has_steps = true;
		r->num_spec_steps = 0;
		return true;
	default:
		return false;
	}
}

static size_t decode(const uint8_t *data, size_t size, struct req *rq, int *opts, char *name)
{
	struct fin f = {data, size};
	size_t n = 0;
	int b;

	*opts = byte(&f);
	if (*opts < 0)
		return 0;
	text(&f, name, 200, true);
	for (char *c = name; *c; c++)
		if (*c == ',')
			*c = '-';   /* one key, not a list */
	while (n < MAXREQ && (b = byte(&f)) >= 0) {
		struct req *r = &rq[n++];

		memset(r, 0, sizeof(*r));
		if (b & 0x80 || n == 1)
			text(&f, r->input, sizeof(r->input), true);
		if (n == 1 && !r->input[0])
			strcpy(r->input, "-");
		read_key(&f, r, 0, b & 3);
		read_key(&f, r, 1, (b >> 2) & 3);
		r->rec = (b >> 4) & 7;
		text(&f, r->engine, sizeof(r->engine), true);
	}
	return n;
}

/* Whether any name holds a '<' (else the page with them replaced is the
 * same page, and is not rendered a second time). */
static bool any_lt(const struct req *rq, size_t n, const char *name)
{
	if (strchr(name, '<'))
		return true;
	for (size_t i = 0; i < n; i++) {
		const struct req *r = &rq[i];

		if (strchr(r->input, '<') || strchr(r->engine, '<'))
			return true;
		for (int k = 0; k < 2; k++)
			if (r->key[k].type == SS_KV_STR && memchr(r->kstr[k], '<', r->key[k].len))
				return true;
	}
	return false;
}

/* '<' in every name replaced by '>' (lt: as given). */
static const char *name_of(const char *s, char *buf, size_t len, bool lt)
{
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (size_t i = 0; !lt && i < len; i++)
		if (buf[i] == '<')
			buf[i] = '>';
	return buf;
}

static bool build(struct ss_agg *a, const struct req *rq, size_t n, size_t nkeys, bool lt)
{
	static char in[256], ks[2][256], eng[SS_ENGINE_NAME_MAX];

	ss_agg_init(a, SS_PHASES_PROFILING);
	ss_agg_keep(a, true, true, nkeys);
	for (size_t i = 0; i < n; i++) {
		const struct req *r = &rq[i];
		struct ss_record rec;
		struct ss_outcome o;
		struct ss_kv key[2];
		char why[SS_REASON_MAX];
		bool has;

		if (r->input[0] && !ss_agg_begin_input(a, name_of(r->input, in, strlen(r->input), lt)))
			return false;
		has = make_record(&rec, r->rec);
		if (has && r->engine[0])
			snprintf(rec.engine, sizeof(rec.engine), "%s",
				 name_of(r->engine, eng, strlen(r->engine), lt));
		CHECK(!has || ss_record_check(&rec, why, sizeof(why)));
		memset(&o, 0, sizeof(o));
		o.phase = SS_PHASE_PROFILING;
		o.kind = SS_KIND_RECORDS;
		o.line = i + 1;
		if (has) {
			o.status = ss_record_status(&rec);
			strcpy(o.engine, rec.engine);
			o.record = &rec;
			if (o.status == SS_ST_OK) {
				o.has_steps = rec.has_steps;
				o.steps = rec.num_spec_steps;
				o.accepted = rec.num_accepted_draft_tokens;
				o.drafted = rec.num_draft_tokens;
				o.has_k = rec.has_spec_tokens;
				o.k = rec.num_spec_tokens;
				ss_req_values_of(&rec, &o.values);
				o.hist = rec.histogram.len ? rec.histogram.v : NULL;
				o.hist_len = rec.histogram.len;
			} else {
				strcpy(o.reason, "num_spec_steps is 0");
			}
		} else {
			o.status = r->rec == 4 ? SS_ST_ERROR : SS_ST_UNPARSABLE;
			o.kind = SS_KIND_UNKNOWN;
			strcpy(o.reason, "fuzz");
		}
		for (size_t k = 0; k < 2; k++) {
			key[k] = r->key[k];
			if (key[k].type == SS_KV_STR)
				key[k].s = name_of(r->key[k].s, ks[k], r->key[k].len, lt);
		}
		if (!ss_agg_add_keyed(a, &o, key)) {
			ss_record_release(&rec);
			return false;
		}
		ss_record_release(&rec);
	}
	return ss_agg_finish(a);
}

/* Valid UTF-8, no raw control but LF (and tab where allowed), nothing
 * termesc.h never shows raw. */
static void clean_text(const struct ss_buf *b, bool tab)
{
	const unsigned char *p = (const unsigned char *)b->data;

	for (size_t i = 0; i < b->len;) {
		uint32_t cp;
		size_t k = ss_utf8_next(p + i, b->len - i, &cp);

		CHECK(cp != SS_UTF8_INVALID);
		CHECK(!(cp < 0x20 && cp != '\n' && !(tab && cp == '\t')) && cp != 0x7F);
		CHECK(!ss_cp_unsafe(cp));
		i += k;
	}
}

/* Every line that starts with `bar` ends with it. */
static void framed(const struct ss_buf *b, const char *bar)
{
	size_t blen = strlen(bar);

	for (const char *line = b->data; line && line < b->data + b->len;) {
		const char *end = memchr(line, '\n', (size_t)(b->data + b->len - line));
		size_t len = end ? (size_t)(end - line) : (size_t)(b->data + b->len - line);

		if (len >= blen && memcmp(line, bar, blen) == 0)
			CHECK(len >= 2 * blen && memcmp(line + len - blen, bar, blen) == 0);
		line = end ? end + 1 : NULL;
	}
}

/* RFC 4180 with CRLF: unquoted cells hold no quote, CR or LF; a quoted
 * cell ends at a lone quote followed by a comma or CRLF. */
static void csv_ok(const struct ss_buf *b)
{
	const char *p = b->data, *e = b->data + b->len;

	while (p < e) {
		if (*p == '"') {
			for (p++;; p++) {
				CHECK(p < e);
				if (*p == '"') {
					if (p + 1 < e && p[1] == '"') {
						p++;
						continue;
					}
					p++;
					break;
				}
			}
			CHECK(p < e && (*p == ',' || *p == '\r'));
		}
		while (p < e && *p != ',' && *p != '\r') {
			CHECK(*p != '"' && *p != '\n');
			p++;
		}
		CHECK(p < e);
		if (*p == '\r') {
			CHECK(p + 1 < e && p[1] == '\n');
			p++;
		}
		p++;
	}
}

static size_t count_lt(const struct ss_buf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->len; i++)
		n += b->data[i] == '<';
	return n;
}

static void check_writers(const struct ss_agg *a, const struct ss_analysis *an,
			  const struct ss_agg *a2, const struct ss_analysis *an2, bool color)
{
	static struct ssj_parser *p;
	struct ss_buf out = SS_BUF_INIT, out2 = SS_BUF_INIT;
	struct ss_html_opts ho = {"0.0-fuzz", NULL, NULL};

	if (!p)
		p = ssj_parser_new();
	CHECK(p);
	ss_report_json(&out, a, an, NULL, "0.0-fuzz");
	CHECK(!out.failed && ss_buf_grow(&out, SSJ_PADDING));
	CHECK(ssj_open(p, out.data, out.len) == SSJ_OK);
	ssj_close(p);
	ss_buf_reset(&out);
	ss_report_csv(&out, a, an, NULL);
	CHECK(!out.failed);
	csv_ok(&out);
	for (int utf8 = 0; utf8 < 2; utf8++) {
		ss_buf_reset(&out);
		ss_report_table(&out, a, an, NULL, utf8, color && utf8);
		CHECK(!out.failed);
		if (!(color && utf8))
			clean_text(&out, false);
		framed(&out, utf8 ? "\xE2\x94\x82" : "|");
		if (utf8)
			framed(&out, "\xE2\x94\x83");
	}
	ss_buf_reset(&out);
	ss_report_markdown(&out, a, an, NULL);
	CHECK(!out.failed);
	clean_text(&out, false);
	CHECK(!memchr(out.data ? out.data : "", '<', out.len));
	CHECK(!memchr(out.data ? out.data : "", '>', out.len));
	framed(&out, "|");
	ss_buf_reset(&out);
	ss_report_html(&out, a, an, &ho);
	CHECK(!out.failed);
	clean_text(&out, true);
	if (a2) {
		ss_report_html(&out2, a2, an2, &ho);
		CHECK(!out2.failed);
		CHECK(count_lt(&out) == count_lt(&out2));
	}
	ss_buf_release(&out);
	ss_buf_release(&out2);
}

/* The text of a key value for --compare. */
static void compare_text(const struct ss_kv *v, char *out, size_t cap)
{
	struct ss_buf b = SS_BUF_INIT;

	ss_kv_add_text(&b, v);
	snprintf(out, cap, "%.*s", (int)(b.failed ? 0 : b.len), b.data ? b.data : "");
	ss_buf_release(&b);
}

/* false: the key spec is not one --group-by takes (nothing to check). */
static bool analyse(struct ss_analysis *an, struct ss_analysis_opts *o, const struct ss_agg *a,
		    int opts, const char *spec, const char *compare)
{
	char err[512];

	ss_analysis_opts_init(o);
	o->positions = opts & 1;
	o->ci = (opts >> 1) & 1;
	o->level = 90;
	o->resamples = 8;
	o->seed = 7;
	o->threads = 1;
	o->compare = compare;
	memset(an, 0, sizeof(*an));
	if (ss_group_spec_parse(spec, &o->group_by, err, sizeof(err)) != SS_GP_OK)
		return false;
	switch (ss_analysis_run(an, a, o)) {
	case SS_AN_OK:
		return true;
	case SS_AN_NO_BASELINE:
		ss_analysis_release(an);
		memset(an, 0, sizeof(*an));
		o->compare = NULL;
		CHECK(ss_analysis_run(an, a, o) == SS_AN_OK);
		return true;
	default:
		return false;   /* out of memory */
	}
}

static void no_lt(char *s)
{
	for (; *s; s++)
		if (*s == '<')
			*s = '>';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct req rq[MAXREQ];
	char name[256], spec[2][300], cmp[2][300];
	struct ss_agg a, a2;
	struct ss_analysis an, an2;
	struct ss_analysis_opts o, o2;
	int opts;
	size_t n = decode(data, size, rq, &opts, name), nkeys;
	bool ok, twice;

	if (n == 0)
		return 0;
	nkeys = (opts >> 3) & 1 ? 2 : 1;
	snprintf(spec[0], sizeof(spec[0]), "meta.%s%s", name, nkeys == 2 ? ",model" : "");
	compare_text(&rq[0].key[0], cmp[0], sizeof(cmp[0]));
	memcpy(spec[1], spec[0], sizeof(spec[0]));
	memcpy(cmp[1], cmp[0], sizeof(cmp[0]));
	no_lt(spec[1]);
	no_lt(cmp[1]);
	twice = any_lt(rq, n, name);
	ok = build(&a, rq, n, nkeys, true);
	if (twice)
		ok = build(&a2, rq, n, nkeys, false) && ok;   /* both built, to be released */
	memset(&o, 0, sizeof(o));
	memset(&o2, 0, sizeof(o2));
	memset(&an, 0, sizeof(an));
	memset(&an2, 0, sizeof(an2));
	if (ok) {
		bool c = (opts >> 2) & 1 && nkeys == 1;
		bool r1 = analyse(&an, &o, &a, opts, spec[0], c ? cmp[0] : NULL);
		bool r2 = twice ? analyse(&an2, &o2, &a2, opts, spec[1], c ? cmp[1] : NULL) : r1;

		CHECK(r1 == r2);   /* '<' never decides whether a key name is taken */
		if (r1)
			check_writers(&a, &an, twice ? &a2 : NULL, &an2, (opts >> 4) & 1);
	}
	ss_analysis_release(&an);
	ss_analysis_release(&an2);
	ss_analysis_opts_release(&o);
	ss_analysis_opts_release(&o2);
	ss_agg_release(&a);
	if (twice)
		ss_agg_release(&a2);
	return 0;
}
