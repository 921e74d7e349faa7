#include "util/msg.h"

#include <stdarg.h>
#include <string.h>

#include "util/alloc.h"
#include "util/termesc.h"

void ss_msg_init(struct ss_msg *m, FILE *out, int verbosity)
{
	memset(m, 0, sizeof(*m));
	m->out = out;
	m->verbosity = verbosity;
}

void ss_msg_set_display(struct ss_msg *m, void (*hide)(void *), void (*show)(void *),
			void *ctx)
{
	m->hide = hide;
	m->show = show;
	m->display = ctx;
}

static void display_hide(struct ss_msg *m)
{
	if (m->hide)
		m->hide(m->display);
}

static void display_show(struct ss_msg *m)
{
	if (m->show)
		m->show(m->display);
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
	display_hide(m);
	fputs("specscan: ", m->out);
	ss_term_put(m->out, text, text == small && (size_t)n >= sizeof(small)
				   ? sizeof(small) - 1 : (size_t)n);
	fputc('\n', m->out);
	fflush(m->out);
	display_show(m);
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
	display_hide(m);
	fputs("specscan: ", m->out);
	ss_term_put(m->out, place, strlen(place));
	fprintf(m->out, ":%llu: %s", (unsigned long long)line, kind_name);
	if (reason && *reason) {
		fputs(": ", m->out);
		ss_term_put(m->out, reason, strlen(reason));
	}
	fputc('\n', m->out);
	fflush(m->out);
	display_show(m);
}

void ss_msg_summary(struct ss_msg *m)
{
	unsigned k;

	if (m->verbosity < SS_NORMAL)
		return;
	for (k = 0; k < SS_MSG_KINDS; k++) {
		uint64_t more = m->total[k] - m->shown[k];

		if (m->total[k] <= m->shown[k])
			continue;
		display_hide(m);
		fprintf(m->out, "specscan: %llu more %s %s not shown (%llu in all)\n",
			(unsigned long long)more, m->kind_name[k],
			more == 1 ? "request" : "requests", (unsigned long long)m->total[k]);
		fflush(m->out);
		display_show(m);
	}
}
