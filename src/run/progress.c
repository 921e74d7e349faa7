#include "run/progress.h"

#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Redraw at most this often (seconds): the display must cost nothing. */
#define REDRAW_INTERVAL 0.25
/* The bar's width bounds (characters between the brackets). */
#define BAR_MAX 40
#define BAR_MIN 8
/* The time left is shown once this much of the run (seconds) gave a rate. */
#define ETA_AFTER 0.25

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ss_progress_init(struct ss_progress *p, FILE *out)
{
	struct winsize ws;

	p->out = out;
	p->start = now();
	p->last = 0.0;
	p->columns = 80;
	p->msg = NULL;
	p->drawn = false;
	p->line[0] = '\0';
	if (out && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		p->columns = ws.ws_col;
}

/* The decimal unit for a size: 1, 1e3 (kB), 1e6 (MB), 1e9 (GB), 1e12 (TB). */
static const char *size_unit(uint64_t n, double *div)
{
	if (n >= 1000000000000ull)
		return *div = 1e12, "TB";
	if (n >= 1000000000ull)
		return *div = 1e9, "GB";
	if (n >= 1000000ull)
		return *div = 1e6, "MB";
	if (n >= 1000ull)
		return *div = 1e3, "kB";
	return *div = 1, "B";
}

/* h:mm:ss or m:ss, rounded up: 0:00 only when nothing is left. */
static void add_duration(struct ss_buf *b, double s)
{
	uint64_t t = s > 0 ? (uint64_t)s + ((double)(uint64_t)s < s) : 0;

	if (t >= 3600)
		ss_buf_addf(b, "%llu:%02llu:%02llu", (unsigned long long)(t / 3600),
			    (unsigned long long)(t / 60 % 60), (unsigned long long)(t % 60));
	else
		ss_buf_addf(b, "%llu:%02llu", (unsigned long long)(t / 60),
			    (unsigned long long)(t % 60));
}

/* A number of a unit in at most 4 characters: 1.25, 12.5, 125 (bytes,
 * div 1, as integers). */
static void add_short(struct ss_buf *b, double v, double div)
{
	ss_buf_addf(b, div == 1 || v >= 99.95 ? "%.0f" : v < 9.995 ? "%.2f" : "%.1f", v);
}

/* A rate in bytes a second, as "61.2 MB/s" (decimal units, as the sizes). */
static void add_rate(struct ss_buf *b, double r)
{
	double div;
	const char *unit = size_unit(r >= 1.8e19 ? UINT64_MAX : (uint64_t)r, &div);

	add_short(b, r / div, div);
	ss_buf_addf(b, " %s/s", unit);
}

static void add_grouped(struct ss_buf *b, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			ss_buf_addc(b, ',');
		ss_buf_addc(b, tmp[i]);
	}
}

/* "  25%  1.00/4.00 GB  61.2 MB/s  ETA 0:30": what follows the bar. */
static void add_fields(struct ss_buf *b, const struct ss_progress_view *v)
{
	uint64_t pct;
	double div;
	const char *unit = size_unit(v->total, &div);

	/* never 100% before the end: the percentage is rounded down */
	pct = v->done >= v->total ? 100 : (uint64_t)((double)v->done * 100.0 / (double)v->total);
	if (pct > 99 && v->done < v->total)
		pct = 99;
	ss_buf_addf(b, "  %3llu%%  ", (unsigned long long)pct);
	add_short(b, (double)v->done / div, div);
	ss_buf_addc(b, '/');
	add_short(b, (double)v->total / div, div);
	ss_buf_addf(b, " %s  ", unit);
	add_rate(b, v->elapsed > 0 ? (double)v->done / v->elapsed : 0.0);
	ss_buf_adds(b, "  ETA ");
	if (v->elapsed >= ETA_AFTER && v->done > 0 && v->done < v->total)
		add_duration(b, v->elapsed * (double)(v->total - v->done) / (double)v->done);
	else if (v->done >= v->total)
		add_duration(b, 0);
	else
		ss_buf_adds(b, "--:--");
}

void ss_progress_format(struct ss_buf *b, const struct ss_progress_view *v, int columns)
{
	struct ss_buf rest = SS_BUF_INIT;
	size_t start = b->len, room, width;

	if (columns < 2)
		columns = 2;
	room = (size_t)columns - 1;
	if (!v->total) {
		ss_buf_addf(b, "specscan: %.1f MB read, ", (double)v->bytes / 1e6);
		add_grouped(b, v->requests);
		ss_buf_adds(b, v->requests == 1 ? " request, " : " requests, ");
		add_rate(b, v->elapsed > 0 ? (double)v->bytes / v->elapsed : 0.0);
	} else {
		add_fields(&rest, v);
		/* the requests last: a narrow terminal loses them first */
		ss_buf_adds(&rest, "  ");
		add_grouped(&rest, v->requests);
		ss_buf_adds(&rest, v->requests == 1 ? " request" : " requests");
		ss_buf_adds(b, "specscan");
		/* The bar's width must not change while the counts grow: it is
		 * what is left next to the widest text a run is likely to show
		 * ("  100%  99.9/99.9 MB  99.9 MB/s  ETA 59:59  999,999
		 * requests": 60 characters; the bar's own 11 around it). */
		width = room > 60 + 11 ? room - 60 - 11 : 0;
		if (width > BAR_MAX)
			width = BAR_MAX;
		if (width >= BAR_MIN) {
			uint64_t pct = v->done >= v->total ? 100
				       : (uint64_t)((double)v->done * 100.0 / (double)v->total);
			size_t fill = (size_t)((double)width * (double)pct / 100.0);

			ss_buf_adds(b, " [");
			for (size_t i = 0; i < width; i++)
				ss_buf_addc(b, i < fill ? '=' : i == fill ? '>' : ' ');
			ss_buf_addc(b, ']');
		} else {
			ss_buf_addc(b, ':');
		}
		if (rest.data)
			ss_buf_add(b, rest.data, rest.len);
		if (rest.failed)
			b->failed = true;
		ss_buf_release(&rest);
	}
	/* a narrow terminal: cut, rather than wrap onto a second line; at a
	 * gap between two fields when there is one */
	if (b->len - start > room && b->data) {
		size_t cut = start + room;

		/* a field that ends right at the edge (a gap follows) stays whole */
		bool at_gap = b->data[cut] == ' ' && b->data[cut + 1] == ' ';

		while (!at_gap && cut > start + 2 && !(b->data[cut - 1] == ' ' && b->data[cut - 2] == ' '))
			cut--;
		if (cut <= start + 2)
			cut = start + room;
		while (cut > start && b->data[cut - 1] == ' ')
			cut--;
		b->len = cut;
		b->data[b->len] = '\0';
	}
}

/* Draw the line kept in p->line again, in place. */
static void draw(struct ss_progress *p)
{
	fputc('\r', p->out);
	fputs(p->line, p->out);
	fputs("\033[K", p->out);
	fflush(p->out);
	p->drawn = true;
}

void ss_progress_update(struct ss_progress *p, uint64_t bytes, uint64_t requests,
			uint64_t done, uint64_t total)
{
	struct ss_progress_view v = {bytes, requests, done, total, 0};
	struct ss_buf line = SS_BUF_INIT;
	double t;

	if (!p->out)
		return;
	t = now();
	if (t - p->last < REDRAW_INTERVAL)
		return;
	p->last = t;
	v.elapsed = t - p->start;
	ss_progress_format(&line, &v, p->columns);
	if (!line.failed && line.data && line.len < sizeof(p->line)) {
		memcpy(p->line, line.data, line.len + 1);
		draw(p);
	}
	ss_buf_release(&line);
}

/* util/msg.h's hooks: clear the line before a message, draw it after. */
static void hide(void *ctx)
{
	struct ss_progress *p = ctx;

	if (p->out && p->drawn) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
}

static void show(void *ctx)
{
	struct ss_progress *p = ctx;

	if (p->out && p->drawn)
		draw(p);
}

void ss_progress_attach(struct ss_progress *p, struct ss_msg *m)
{
	if (!p->out)
		return;
	p->msg = m;
	ss_msg_set_display(m, hide, show, p);
}

void ss_progress_end(struct ss_progress *p)
{
	if (!p->out)
		return;
	if (p->msg)
		ss_msg_set_display(p->msg, NULL, NULL, NULL);
	p->msg = NULL;
	p->last = now();
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->drawn = false;
}
