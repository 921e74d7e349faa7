#include "util/msg.h"

#include <stdarg.h>
#include <string.h>

#include "util/alloc.h"
#include "util/utf8.h"

void ss_msg_init(struct ss_msg *m, FILE *out, int verbosity)
{
	memset(m, 0, sizeof(*m));
	m->out = out;
	m->verbosity = verbosity;
}

/*
 * Length of the valid UTF-8 sequence at p (n bytes left) that is safe on a
 * terminal; 0 when the byte at p must be escaped: an invalid byte (see
 * util/utf8.h), a C1 control (U+0080..U+009F: 0x9B is a CSI to many
 * terminals) or a bidirectional override (U+202A..U+202E,
 * U+2066..U+2069), which could make a name read as something else.
 */
static size_t safe_utf8(const unsigned char *p, size_t n)
{
	uint32_t cp;
	size_t len = ss_utf8_next(p, n, &cp);

	if (cp == SS_UTF8_INVALID || (cp >= 0x80 && cp <= 0x9F) ||
	    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
		return 0;
	return len;
}

void ss_msg_put_escaped(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		const unsigned char *run = p;
		size_t k;

		/* Printable ASCII and safe UTF-8 go out as they are. */
		while (p < end) {
			if (*p >= 0x20 && *p < 0x7F && *p != '\\')
				p++;
			else if (*p >= 0x80 && (k = safe_utf8(p, (size_t)(end - p))) > 0)
				p += k;
			else
				break;
		}
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), out);
		if (p == end)
			break;
		switch (*p) {
		case '\\': fputs("\\\\", out); break;
		case '\a': fputs("\\a", out); break;
		case '\b': fputs("\\b", out); break;
		case '\t': fputs("\\t", out); break;
		case '\n': fputs("\\n", out); break;
		case '\v': fputs("\\v", out); break;
		case '\f': fputs("\\f", out); break;
		case '\r': fputs("\\r", out); break;
		default: fprintf(out, "\\%03o", (unsigned)*p); break;
		}
		p++;
	}
}

/*
 * Every message is formatted whole, then written escaped (as git quotes
 * paths): names and reasons come from inputs (archive members, paths,
 * records), and a raw newline or escape sequence in one could forge a
 * line or drive the terminal.
 */
static void vsay(struct ss_msg *m, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		text = ss_malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, ap2);
		else
			text = small;   /* out of memory: the message cut short */
	}
	va_end(ap2);
	fputs("specscan: ", m->out);
	ss_msg_put_escaped(m->out, text, text == small && (size_t)n >= sizeof(small)
				   ? sizeof(small) - 1 : (size_t)n);
	fputc('\n', m->out);
	fflush(m->out);
	if (text != small)
		ss_free(text);
}

void ss_msg_error(struct ss_msg *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(m, fmt, ap);
	va_end(ap);
}

void ss_msg_verror(struct ss_msg *m, const char *fmt, va_list ap)
{
	vsay(m, fmt, ap);
}

/* Say it when the verbosity is at least `level`. */
#define SAY_AT(m, level, fmt)                                                     \
	do {                                                                      \
		va_list ap;                                                       \
		if ((m)->verbosity < (level))                                     \
			return;                                                   \
		va_start(ap, fmt);                                                \
		vsay((m), (fmt), ap);                                             \
		va_end(ap);                                                       \
	} while (0)

void ss_msg_warn(struct ss_msg *m, const char *fmt, ...)
{
	SAY_AT(m, SS_NORMAL, fmt);
}

void ss_msg_info(struct ss_msg *m, const char *fmt, ...)
{
	SAY_AT(m, SS_VERBOSE, fmt);
}

void ss_msg_request(struct ss_msg *m, unsigned kind, const char *kind_name,
		    const char *place, uint64_t line, const char *reason)
{
	if (kind >= SS_MSG_KINDS)
		kind = SS_MSG_KINDS - 1;
	m->kind_name[kind] = kind_name;
	m->total[kind]++;
	if (m->verbosity < SS_NORMAL)
		return;
	if (m->verbosity < SS_VERBOSE && m->shown[kind] >= SS_MSG_REQUEST_LIMIT)
		return;
	m->shown[kind]++;
	fputs("specscan: ", m->out);
	ss_msg_put_escaped(m->out, place, strlen(place));
	fprintf(m->out, ":%llu: %s", (unsigned long long)line, kind_name);
	if (reason && *reason) {
		fputs(": ", m->out);
		ss_msg_put_escaped(m->out, reason, strlen(reason));
	}
	fputc('\n', m->out);
}

void ss_msg_summary(struct ss_msg *m)
{
	unsigned k;

	if (m->verbosity < SS_NORMAL)
		return;
	for (k = 0; k < SS_MSG_KINDS; k++) {
		if (m->total[k] > m->shown[k])
			fprintf(m->out,
				"specscan: %llu more %s requests not shown (%llu in all)\n",
				(unsigned long long)(m->total[k] - m->shown[k]),
				m->kind_name[k], (unsigned long long)m->total[k]);
	}
	fflush(m->out);
}
