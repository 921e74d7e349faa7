#include "run/progress.h"

#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Redraw at most this often (seconds): the display must cost nothing. */
#define REDRAW_INTERVAL 0.25
/* The bar's width bounds (characters between the brackets). */
#define BAR_MAX 40
#define BAR_MIN 10

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

static void add_duration(struct ss_buf *b, double s)
{
	uint64_t t = (uint64_t)(s + 0.5);

	if (t >= 3600)
		ss_buf_addf(b, "%llu:%02llu:%02llu", (unsigned long long)(t / 3600),
			    (unsigned long long)(t / 60 % 60), (unsigned long long)(t % 60));
	else
		ss_buf_addf(b, "%llu:%02llu", (unsigned long long)(t / 60),
			    (unsigned long long)(t % 60));
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

void ss_progress_format(struct ss_buf *b, const struct ss_progress_view *v, int columns)
{
	struct ss_buf rest = SS_BUF_INIT;
	size_t start = b->len, room, width;
	uint64_t pct;
	double div;
	const char *unit;

	if (columns < 2)
		columns = 2;
	room = (size_t)columns - 1;
	if (!v->total) {
		ss_buf_addf(b, "specscan: %.1f MB read, %llu requests, %.0f MB/s",
			    (double)v->bytes / 1e6, (unsigned long long)v->requests,
			    v->elapsed > 0 ? (double)v->bytes / 1e6 / v->elapsed : 0.0);
	} else {
		/* never 100% before the end: the percentage is rounded down */
		pct = v->done >= v->total ? 100 : (uint64_t)((double)v->done * 100.0 / (double)v->total);
		if (pct > 99 && v->done < v->total)
			pct = 99;
		unit = size_unit(v->total, &div);
		ss_buf_addf(&rest, "  %3llu%%  %.1f/%.1f %s  ", (unsigned long long)pct,
			    (double)v->done / div, (double)v->total / div, unit);
		add_grouped(&rest, v->requests);
		ss_buf_adds(&rest, v->requests == 1 ? " request  ETA " : " requests  ETA ");
		if (v->elapsed >= 1.0 && v->done > 0 && v->done < v->total)
			add_duration(&rest, v->elapsed * (double)(v->total - v->done) / (double)v->done);
		else if (v->done >= v->total)
			add_duration(&rest, 0);
		else
			ss_buf_adds(&rest, "--:--");
		ss_buf_adds(b, "specscan");
		/* The bar's width must not change while the counts grow: it is
		 * what is left next to the widest text this run is likely to
		 * show (the whole size done, 7 digits of requests, hours left). */
		{
			int widest = snprintf(NULL, 0, "  %3d%%  %.1f/%.1f %s  9,999,999 requests  ETA 9:59:59",
					      100, (double)v->total / div, (double)v->total / div, unit);

			width = room > (size_t)widest + 11 ? room - (size_t)widest - 11 : 0;
		}
		if (width > BAR_MAX)
			width = BAR_MAX;
		if (width >= BAR_MIN) {
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

		while (cut > start + 2 && !(b->data[cut - 1] == ' ' && b->data[cut - 2] == ' '))
			cut--;
		if (cut <= start + 2)
			cut = start + room;
		while (cut > start && b->data[cut - 1] == ' ')
			cut--;
		b->len = cut;
		b->data[b->len] = '\0';
	}
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
	ss_buf_addc(&line, '\r');
	ss_progress_format(&line, &v, p->columns);
	ss_buf_adds(&line, "\033[K");
	if (!line.failed)
		fputs(line.data, p->out);
	ss_buf_release(&line);
	fflush(p->out);
}

void ss_progress_end(struct ss_progress *p)
{
	if (!p->out)
		return;
	p->last = now();
	fputs("\r\033[K", p->out);
}
