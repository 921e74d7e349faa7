/*
 * sniff.c - what a stream holds, by its first bytes: compression layers
 * (zstd and gzip decoded directly, the others through libarchive's
 * filters) and archive formats. Content decides, never a file name.
 */
#include "io/sniff.h"

#include "logs/logline.h"

#include <stdbool.h>
#include <string.h>

#include "io/source.h"

#define MAX_LAYERS 4
/* Enough for every magic we test, ISO 9660's at 32769 included. */
#define ARCHIVE_PEEK 32774

enum layer { L_NONE, L_ZSTD, L_GZIP, L_FILTER };

static bool has(const unsigned char *p, size_t n, size_t off, const char *m, size_t mlen)
{
	return n >= off + mlen && memcmp(p + off, m, mlen) == 0;
}

static enum layer sniff_layer(const unsigned char *p, size_t n)
{
	if (has(p, n, 0, "\x28\xb5\x2f\xfd", 4))
		return L_ZSTD;
	if (n >= 4 && (p[0] & 0xf0) == 0x50 && has(p, n, 1, "\x2a\x4d\x18", 3))
		return L_ZSTD;   /* skippable frame */
	if (has(p, n, 0, "\x1f\x8b", 2))
		return L_GZIP;
	if (has(p, n, 0, "\xfd" "7zXZ\0", 6) ||              /* xz */
	    (has(p, n, 0, "BZh", 3) && n > 3 && p[3] >= '1' && p[3] <= '9') ||
	    has(p, n, 0, "\x04\x22\x4d\x18", 4) ||             /* lz4 */
	    has(p, n, 0, "\x02\x21\x4c\x18", 4) ||             /* lz4 legacy */
	    has(p, n, 0, "\x5d\0\0", 3) ||                     /* lzma alone */
	    has(p, n, 0, "LZIP", 4) ||
	    has(p, n, 0, "\x1f\x9d", 2) ||                     /* compress */
	    has(p, n, 0, "\x89LZO\0\r\n\x1a\n", 9) ||
	    has(p, n, 0, "LRZI", 4) ||
	    has(p, n, 0, "GRZipII", 7))
		return L_FILTER;
	return L_NONE;
}

/* A tar header block: its checksum adds up (covers v7 tar, no magic). */
static bool tar_header(const unsigned char *p, size_t n)
{
	unsigned long want = 0, sum = 0;
	size_t i = 148;

	if (n < 512 || p[0] == 0)
		return false;
	if (has(p, n, 257, "ustar", 5))
		return true;
	while (i < 156 && p[i] == ' ')
		i++;
	if (i == 156 || p[i] < '0' || p[i] > '7')
		return false;
	for (; i < 156 && p[i] >= '0' && p[i] <= '7'; i++)
		want = want * 8 + (unsigned long)(p[i] - '0');
	for (i = 0; i < 512; i++)
		sum += (i >= 148 && i < 156) ? ' ' : p[i];
	return sum == want;
}

static bool sniff_archive(const unsigned char *p, size_t n)
{
	return tar_header(p, n) ||
	       has(p, n, 0, "PK\3\4", 4) || has(p, n, 0, "PK\5\6", 4) ||
	       has(p, n, 0, "PK\7\x08", 4) ||
	       has(p, n, 0, "7z\xbc\xaf\x27\x1c", 6) ||
	       has(p, n, 0, "070707", 6) || has(p, n, 0, "070701", 6) ||
	       has(p, n, 0, "070702", 6) ||
	       has(p, n, 0, "\xc7\x71", 2) || has(p, n, 0, "\x71\xc7", 2) ||
	       has(p, n, 0, "!<arch>\n", 8) ||
	       has(p, n, 0, "Rar!\x1a\x07", 6) ||
	       has(p, n, 0, "xar!", 4) ||
	       has(p, n, 0, "MSCF", 4) ||
	       /* lha: "-lh5-" after two header bytes (never a JSON text's start) */
	       (n > 6 && p[0] != '{' && has(p, n, 2, "-l", 2) &&
		(p[4] == 'h' || p[4] == 'z') && p[6] == '-') ||
	       has(p, n, 0, "#mtree", 6) ||
	       has(p, n, 0, "WARC/", 5) ||
	       has(p, n, 32769, "CD001", 5);
}

bool ss_decode_layers(struct ss_stream *s, struct ss_stream **out, bool *archive,
		      unsigned zstd_window_log)
{
	const unsigned char *p;
	size_t n;
	int depth;

	*out = NULL;
	*archive = false;
	for (depth = 0; depth < MAX_LAYERS; depth++) {
		enum layer l;

		if (!ss_stream_peek(s, 16, &p, &n)) {
			ss_stream_free(s);
			return false;
		}
		l = sniff_layer(p, n);
		if (l == L_NONE)
			break;
		if (l == L_ZSTD)
			s = ss_source_zstd_new_window(s, zstd_window_log);
		else if (l == L_GZIP)
			s = ss_source_gzip_new(s);
		else
			s = ss_source_filter_new(s);
		if (!s)
			return false;
	}
	if (!ss_stream_peek(s, ARCHIVE_PEEK, &p, &n)) {
		ss_stream_free(s);
		return false;
	}
	*archive = sniff_archive(p, n);
	*out = s;
	return true;
}

/* ---- Prometheus text (SPEC 10.1) ---- */

static bool name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static bool name_char(unsigned char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

static bool blank_char(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A sample line p[0..n): NAME, optional {LABELS} (quoted values skipped
 * over, escapes included), blanks, then a value token. `whole`: the line
 * ends at n; else it was cut by the peek and its start decides.
 */
static bool sample_line(const unsigned char *p, size_t n, bool whole)
{
	size_t i = 0;

	if (n == 0 || !name_start(p[0]))
		return false;
	while (i < n && name_char(p[i]))
		i++;
	if (!whole && i < n && (p[i] == '{' || blank_char(p[i])))
		return true;
	if (i < n && p[i] == '{') {
		bool quoted = false;

		for (i++; i < n; i++) {
			if (quoted && p[i] == '\\')
				i++;
			else if (p[i] == '"')
				quoted = !quoted;
			else if (!quoted && p[i] == '}')
				break;
		}
		if (i >= n)
			return !whole;
		i++;
	}
	if (i >= n || !blank_char(p[i]))
		return false;
	while (i < n && blank_char(p[i]))
		i++;
	if (i >= n)
		return !whole;
	/* a float text: digits, a sign, a point, an exponent, NaN, Inf */
	return strchr("0123456789+-.NI", p[i]) != NULL;
}

static bool prefix(const unsigned char *p, size_t n, const char *m)
{
	size_t k = strlen(m);

	return n >= k && memcmp(p, m, k) == 0;
}

/*
 * The decision on p[0..n): 1 a server input, 0 not, -1 not known yet (only
 * blank lines, or a first line without its end, and a longer peek may
 * tell). `eof`: nothing follows p[n - 1]; `grow`: a longer peek is allowed.
 */
static int decide_scrape(const unsigned char *p, size_t n, bool eof, bool grow)
{
	size_t i = 0;

	if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (i < n) {
		const unsigned char *line = p + i, *nl = memchr(line, '\n', n - i);
		size_t len = nl ? (size_t)(nl - line) : n - i, k = 0;
		bool whole = nl != NULL || eof;

		while (k < len && (blank_char(line[k]) || line[k] == '\r'))
			k++;
		if (k == len) {          /* a blank line, or blanks so far */
			if (!nl)
				return eof || !grow ? 0 : -1;
			i += len + 1;
			continue;
		}
		if (!whole && grow)
			return -1;       /* wait for the line's end */
		if (len && line[len - 1] == '\r')
			len--;
		/* SSE's starts first: data:, event:, id:, : (1.2) */
		if (prefix(line, len, "data:") || prefix(line, len, "event:") ||
		    prefix(line, len, "id:") || prefix(line, len, ":"))
			return 0;
		if (prefix(line, len, "# HELP ") || prefix(line, len, "# TYPE ") ||
		    prefix(line, len, "# EOF") || prefix(line, len, "# time:") ||
		    prefix(line, len, "# endpoint:"))
			return 1;
		/* a line longer than the largest peek is judged by its start */
		return sample_line(line, len, whole);
	}
	return eof || !grow ? 0 : -1;
}

/* Peeks grow from 4 KiB to SS_SNIFF_SCRAPE_PEEK while the first line is not known. */
bool ss_sniff_scrape(struct ss_stream *s, bool *scrape)
{
	size_t want = 4096;

	*scrape = false;
	for (;;) {
		const unsigned char *p;
		size_t n;
		int d;

		if (!ss_stream_peek(s, want, &p, &n))
			return false;
		d = decide_scrape(p, n, n < want, want < SS_SNIFF_SCRAPE_PEEK);
		if (d >= 0) {
			*scrape = d == 1;
			return true;
		}
		want *= 4;
		if (want > SS_SNIFF_SCRAPE_PEEK)
			want = SS_SNIFF_SCRAPE_PEEK;
	}
}

/* Whether the first non-blank line claims the input for JSON or SSE. */
static bool claimed(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i == n)
		return false;
	if (p[i] == '{' || p[i] == ':')
		return true;
	if (p[i] == '[') {
		/* a JSON array of objects (TensorRT-LLM's iterations), not
		 * SGLang's `[2026-07-21 15:00:13 TP0] ` prefix */
		for (i++; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
			;
		return i < n && (p[i] == '{' || p[i] == ']');
	}
	return (n - i >= 5 && memcmp(p + i, "data:", 5) == 0) ||
	       (n - i >= 6 && memcmp(p + i, "event:", 6) == 0) ||
	       (n - i >= 3 && memcmp(p + i, "id:", 3) == 0);
}

bool ss_sniff_log(struct ss_stream *s, bool *log)
{
	const unsigned char *p;
	size_t n;
	struct ss_log_anchor a;

	*log = false;
	if (!ss_stream_peek(s, SS_SNIFF_SCRAPE_PEEK, &p, &n))
		return false;
	if (n == 0 || claimed(p, n))
		return true;
	*log = ss_log_find_anchor((const char *)p, n, &a);
	return true;
}
