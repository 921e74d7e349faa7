/*
 * chart.c - scales, ticks, label placement and the SVG chart writers (see
 * chart.h for the contract).
 */
#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "util/alloc.h"
#include "util/utf8.h"

/* Type sizes and colours shared by every chart. */
#define FONT 12.0          /* tick and category labels */
#define FONT_TITLE 15.0
#define FONT_AXIS 12.0     /* axis titles */
#define FONT_VALUE 11.0    /* value labels on bars and points */
#define INK "#222222"
#define INK_SOFT "#555555"
#define GRID "#e4e4e4"
#define AXIS "#777777"
#define FONT_FAMILY "system-ui, -apple-system, &quot;Segoe UI&quot;, Roboto, &quot;DejaVu Sans&quot;, Arial, sans-serif"
#define DEFAULT_W 640
#define DEFAULT_H 360
#define MAX_TICK_INTERVALS 5
/* Baseline of numeric x tick labels below the axis: low enough that the
 * first one clears the y axis's "0" next to it (both hang off the corner). */
#define X_TICK_DY (FONT + 8)
/* A rotated label's neighbour must be at least this far away (px, across
 * the text direction) so two lines of text never touch. */
#define ROTATED_GAP (FONT * 1.3)
#define SIN45 0.70710678118654752

/* -- escaping ----------------------------------------------------------------- */

void ss_buf_add_html(struct ss_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0;

	while (i < n) {
		const char *rep = NULL;
		size_t len = 1;

		switch (p[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') {
				rep = "\xEF\xBF\xBD";
			} else if (p[i] == 0x7F) {
				rep = "\xEF\xBF\xBD";
			} else if (p[i] >= 0x80) {
				uint32_t cp;

				len = ss_utf8_next(p + i, n - i, &cp);
				if (cp == SS_UTF8_INVALID)
					rep = "\xEF\xBF\xBD";
			}
		}
		if (rep) {
			ss_buf_add(b, s + start, i - start);
			ss_buf_adds(b, rep);
			start = i + len;
		}
		i += len;
	}
	ss_buf_add(b, s + start, n - start);
}

void ss_buf_add_htmls(struct ss_buf *b, const char *s)
{
	if (s)
		ss_buf_add_html(b, s, strlen(s));
}

/* -- numbers ------------------------------------------------------------------ */

static const double pow10_tab[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

void ss_chart_add_fixed(struct ss_buf *b, double v, int decimals)
{
	double scaled;
	uint64_t u, div;
	int d;

	if (!isfinite(v))
		return;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	scaled = fabs(v) * pow10_tab[decimals];
	if (scaled >= 9e18) {           /* beyond the integer path: no chart needs it */
		ss_buf_addf(b, "%.*e", decimals, v);
		return;
	}
	u = (uint64_t)(scaled + 0.5);
	if (v < 0 && u != 0)
		ss_buf_addc(b, '-');
	div = (uint64_t)pow10_tab[decimals];
	ss_buf_add_u64(b, u / div);
	if (decimals > 0) {
		char frac[10];
		uint64_t f = u % div;

		for (d = decimals - 1; d >= 0; d--) {
			frac[d] = (char)('0' + f % 10);
			f /= 10;
		}
		ss_buf_addc(b, '.');
		ss_buf_add(b, frac, (size_t)decimals);
	}
}

void ss_chart_add_small(struct ss_buf *b, double v, int decimals)
{
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	/* a share that is there but rounds to nothing must not read as 0 */
	if (v > 0 && v * pow10_tab[decimals] < 0.5) {
		ss_buf_addc(b, '<');
		ss_chart_add_fixed(b, 1.0 / pow10_tab[decimals], decimals);
		return;
	}
	ss_chart_add_fixed(b, v, decimals);
}

/* A coordinate: one decimal, ".0" left out. */
static void coord(struct ss_buf *b, double v)
{
	double r = round(v * 10.0) / 10.0;

	if (r == floor(r))
		ss_chart_add_fixed(b, r, 0);
	else
		ss_chart_add_fixed(b, r, 1);
}

/* `text` and then the point "x y", as path data and transforms take it. */
static void point(struct ss_buf *b, const char *text, double x, double y)
{
	ss_buf_adds(b, text);
	coord(b, x);
	ss_buf_addc(b, ' ');
	coord(b, y);
}

/* -- scales and ticks --------------------------------------------------------- */

void ss_scale_init(struct ss_scale *s, double d0, double d1, double r0, double r1)
{
	s->d0 = d0;
	s->d1 = d1;
	s->r0 = r0;
	s->r1 = r1;
}

double ss_scale_map(const struct ss_scale *s, double v)
{
	if (s->d1 == s->d0)
		return s->r0;
	return s->r0 + (v - s->d0) / (s->d1 - s->d0) * (s->r1 - s->r0);
}

static double pow10i(int e)
{
	double r = 1.0;
	int i;

	for (i = 0; i < (e < 0 ? -e : e); i++)
		r *= 10.0;
	return e < 0 ? 1.0 / r : r;
}

/* m x 10^e as a double, the nearest to the decimal value. */
static double decimal_value(int64_t m, int e)
{
	if (e >= 0)
		return (double)m * pow10i(e);
	/* one correctly rounded division: 3 x 2 / 10 is the double nearest 0.6 */
	return (double)m / pow10i(-e);
}

double ss_nice_step(double x, int *mant, int *exp10)
{
	int e = (int)floor(log10(x));
	double f = x / pow10i(e);
	int m;

	/* log10 may land one off near powers of ten */
	if (f < 1.0 - 1e-9) {
		e--;
		f = x / pow10i(e);
	} else if (f > 10.0 - 1e-9) {
		e++;
		f = x / pow10i(e);
	}
	if (f <= 1.0 + 1e-9)
		m = 1;
	else if (f <= 2.0 + 1e-9)
		m = 2;
	else if (f <= 5.0 + 1e-9)
		m = 5;
	else
		m = 1, e++;
	if (mant)
		*mant = m;
	if (exp10)
		*exp10 = e;
	return decimal_value(m, e);
}

/* The next step of the 1-2-5 ladder. */
static void next_step(int *mant, int *e)
{
	if (*mant == 1)
		*mant = 2;
	else if (*mant == 2)
		*mant = 5;
	else
		*mant = 1, (*e)++;
}

void ss_ticks_nice(struct ss_ticks *t, double lo, double hi, int max_intervals)
{
	int mant, e;
	double first, last;

	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (hi < lo) {
		double tmp = lo;

		lo = hi;
		hi = tmp;
	}
	if (hi == lo) {
		if (lo == 0)
			hi = 1;
		else
			lo -= fabs(lo) * 0.1, hi += fabs(hi) * 0.1;
	}
	if (max_intervals < 1)
		max_intervals = 1;
	ss_nice_step((hi - lo) / max_intervals, &mant, &e);
	for (;;) {
		double step = decimal_value(mant, e);

		/* the tolerance keeps 1.0 / 0.2 = 4.999.. from adding a tick */
		first = floor(lo / step + 1e-9);
		last = ceil(hi / step - 1e-9);
		if (last - first <= max_intervals)
			break;
		next_step(&mant, &e);
	}
	t->mant = mant;
	t->exp10 = e;
	t->step = decimal_value(mant, e);
	t->first = decimal_value((int64_t)first * mant, e);
	t->count = (int)(last - first) + 1;
	if (t->count < 2)
		t->count = 2;
	t->decimals = e < 0 ? -e : 0;
}

double ss_ticks_value(const struct ss_ticks *t, int i)
{
	int64_t first = (int64_t)llround(t->first / t->step);

	return decimal_value((first + i) * t->mant, t->exp10);
}

double ss_ticks_last(const struct ss_ticks *t)
{
	return ss_ticks_value(t, t->count - 1);
}

/* Whole-number ticks: a step of at least 1 (counts, positions). */
static void ticks_integer(struct ss_ticks *t, double lo, double hi, int max_intervals)
{
	ss_ticks_nice(t, lo, hi, max_intervals);
	if (t->exp10 < 0) {
		double first = floor(lo + 1e-9), last = ceil(hi - 1e-9);

		if (last <= first)
			last = first + 1;
		t->mant = 1;
		t->exp10 = 0;
		t->step = 1;
		t->first = first;
		t->count = (int)(last - first) + 1;
		t->decimals = 0;
	}
}

/* -- text width and shortening ------------------------------------------------ */

/* Advance width in em of one character, rounded up per class (DejaVu Sans). */
static double char_em(unsigned c)
{
	if (c >= 0x80)
		return 1.0;     /* anything else, CJK included: a full em */
	if (strchr(" .,:;!|'`il", (int)c) && c)
		return 0.34;
	if (strchr("jft()[]{}-/\\r\"I", (int)c) && c)
		return 0.45;
	if (strchr("mwMW%@", (int)c) && c)
		return 1.0;
	if (c >= 'A' && c <= 'Z')
		return 0.78;
	return 0.65;            /* digits, other lower case, the rest */
}

double ss_text_width(const char *s, size_t n, double font_px)
{
	const unsigned char *p = (const unsigned char *)s;
	double em = 0;
	size_t i = 0;

	while (i < n) {
		uint32_t cp;

		/* an invalid byte is one character (it is drawn as U+FFFD) */
		em += char_em(p[i]);
		i += ss_utf8_next(p + i, n - i, &cp);
	}
	return em * font_px;
}

/* Byte offsets of the character starts of s (n bytes); returns the count. */
static size_t char_starts(const char *s, size_t n, size_t *starts)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k = 0;

	while (i < n) {
		uint32_t cp;

		starts[k++] = i;
		i += ss_utf8_next(p + i, n - i, &cp);
	}
	starts[k] = n;
	return k;
}

char *ss_text_shorten(const char *s, double max_px, double font_px, bool *shortened)
{
	static const char ell[] = "\xE2\x80\xA6";
	size_t n = strlen(s), nc, head, tail, *starts;
	double budget;
	char *r;

	*shortened = false;
	if (ss_text_width(s, n, font_px) <= max_px)
		return ss_strdup(s);
	starts = ss_reallocarray(NULL, n + 1, sizeof(*starts));
	if (!starts)
		return NULL;
	nc = char_starts(s, n, starts);
	budget = max_px - ss_text_width(ell, 3, font_px);
	/* Take characters alternately from the start and the end: the start
	 * says what the name is, the end often which one (run-03.jsonl). */
	head = tail = 0;
	for (;;) {
		bool take_head = head <= tail;
		size_t nh = head + (take_head ? 1 : 0), nt = tail + (take_head ? 0 : 1);
		double w;

		if (nh + nt >= nc)
			break;
		w = ss_text_width(s, starts[nh], font_px) +
		    ss_text_width(s + starts[nc - nt], n - starts[nc - nt], font_px);
		if (w > budget)
			break;
		head = nh;
		tail = nt;
	}
	r = ss_malloc(starts[head] + 3 + (n - starts[nc - tail]) + 1);
	if (r) {
		size_t hb = starts[head], tb = n - starts[nc - tail];

		memcpy(r, s, hb);
		memcpy(r + hb, ell, 3);
		memcpy(r + hb + 3, s + starts[nc - tail], tb);
		r[hb + 3 + tb] = '\0';
		*shortened = true;
	}
	ss_free(starts);
	return r;
}

/* -- label placement ---------------------------------------------------------- */

void ss_labels_release(struct ss_labels *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		ss_free(l->v[i].text);
	ss_free(l->v);
	memset(l, 0, sizeof(*l));
}

bool ss_labels_place(struct ss_labels *l, const char *const *names, size_t n,
		     double x0, double band, double axis_y, double max_extent,
		     double left_room, double font_px)
{
	double widest = 0, max_len = 0;
	size_t i, every = 1;
	bool fits = true;

	memset(l, 0, sizeof(*l));
	l->font = font_px;
	l->every = 1;
	if (n == 0)
		return true;
	l->v = ss_calloc(n, sizeof(*l->v));
	if (!l->v)
		return false;
	l->n = n;
	for (i = 0; i < n; i++) {
		double w = ss_text_width(names[i], strlen(names[i]), font_px);

		if (w > band - 6)
			fits = false;
		if (w > widest)
			widest = w;
	}
	if (fits || band - 6 >= 90) {
		l->mode = SS_LABELS_HORIZONTAL;
		l->angle = 0;
		max_len = band - 6;
		l->extent = font_px * 1.3 + 4;
	} else {
		double room;

		l->mode = SS_LABELS_ROTATED;
		l->angle = -45;
		/* Parallel lines of text at 45 degrees, `band` apart along the
		 * axis, are band x sin 45 apart across the text. */
		if (band * SIN45 < ROTATED_GAP)
			every = (size_t)ceil(ROTATED_GAP / (band * SIN45));
		/* the text runs up-left from its anchor: its length is bounded
		 * by the room below the axis and left of the first label */
		room = (max_extent - font_px * 0.8 - 2) / SIN45 - font_px * 0.3;
		max_len = room;
	}
	l->every = every;
	for (i = 0; i < n; i++) {
		struct ss_label *lab = &l->v[i];
		double len = max_len;

		if (l->mode == SS_LABELS_ROTATED) {
			/* the text runs up-left from its anchor: the first labels
			 * are also bounded by the chart's left edge */
			double left = (((double)i + 0.5) * band + font_px * 0.3 + left_room) / SIN45 -
				      font_px * 0.8;

			if (left < len)
				len = left;
			if (len < font_px * 2)
				len = font_px * 2;
		}
		lab->text = ss_text_shorten(names[i], len, font_px, &lab->shortened);
		if (!lab->text) {
			ss_labels_release(l);
			return false;
		}
		lab->width = ss_text_width(lab->text, strlen(lab->text), font_px);
		lab->shown = i % every == 0;
		lab->x = x0 + ((double)i + 0.5) * band;
		if (l->mode == SS_LABELS_HORIZONTAL) {
			lab->y = axis_y + font_px + 4;
		} else {
			/* the anchor sits below the tick; the text's top-right
			 * corner then clears the axis */
			lab->x += font_px * 0.3;
			lab->y = axis_y + font_px * 0.8 + 2;
			if (lab->shown) {
				double ext = (lab->y - axis_y) + lab->width * SIN45 + font_px * 0.3;

				if (ext > l->extent)
					l->extent = ext;
			}
		}
	}
	return true;
}

/* -- SVG pieces --------------------------------------------------------------- */

/* The Okabe-Ito colours, yellow left out. */
static const char *const palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
};

const char *ss_chart_color(size_t i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

static void attr_num(struct ss_buf *b, const char *name, double v)
{
	ss_buf_addc(b, ' ');
	ss_buf_adds(b, name);
	ss_buf_adds(b, "=\"");
	coord(b, v);
	ss_buf_addc(b, '"');
}

static void chart_size(const struct ss_chart *c, double *w, double *h)
{
	*w = c->width > 0 ? c->width : DEFAULT_W;
	*h = c->height > 0 ? c->height : DEFAULT_H;
}

static void svg_open(struct ss_buf *b, const struct ss_chart *c)
{
	double w, h;

	chart_size(c, &w, &h);
	ss_buf_adds(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" aria-labelledby=\"");
	ss_buf_add_htmls(b, c->id);
	ss_buf_adds(b, "-t ");
	ss_buf_add_htmls(b, c->id);
	point(b, "-d\" viewBox=\"0 0 ", w, h);
	ss_buf_addc(b, '"');
	attr_num(b, "width", w);
	attr_num(b, "height", h);
	ss_buf_adds(b, " font-family=\"" FONT_FAMILY "\" font-size=\"12\">\n<title id=\"");
	ss_buf_add_htmls(b, c->id);
	ss_buf_adds(b, "-t\">");
	ss_buf_add_htmls(b, c->title);
	ss_buf_adds(b, "</title>\n<desc id=\"");
	ss_buf_add_htmls(b, c->id);
	ss_buf_adds(b, "-d\">");
	ss_buf_add_htmls(b, c->desc ? c->desc : c->title);
	ss_buf_adds(b, "</desc>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
	ss_buf_adds(b, "<text x=\"8\" y=\"22\" font-size=\"15\" font-weight=\"600\" fill=\"" INK "\">");
	ss_buf_add_htmls(b, c->title);
	ss_buf_adds(b, "</text>\n");
}

/* Plain text at (x, y); anchor "start", "middle" or "end". */
static void text_at(struct ss_buf *b, double x, double y, const char *anchor,
		    const char *extra, const char *s)
{
	ss_buf_adds(b, "<text");
	attr_num(b, "x", x);
	attr_num(b, "y", y);
	if (anchor && strcmp(anchor, "start") != 0) {
		ss_buf_adds(b, " text-anchor=\"");
		ss_buf_adds(b, anchor);
		ss_buf_addc(b, '"');
	}
	if (extra) {
		ss_buf_addc(b, ' ');
		ss_buf_adds(b, extra);
	}
	ss_buf_addc(b, '>');
	ss_buf_add_htmls(b, s);
	ss_buf_adds(b, "</text>\n");
}

static void line(struct ss_buf *b, double x1, double y1, double x2, double y2)
{
	ss_buf_adds(b, "<line");
	attr_num(b, "x1", x1);
	attr_num(b, "y1", y1);
	attr_num(b, "x2", x2);
	attr_num(b, "y2", y2);
	ss_buf_adds(b, "/>\n");
}

static double tick_label_width(const struct ss_ticks *t)
{
	double widest = 0;
	int i;

	for (i = 0; i < t->count; i++) {
		struct ss_buf tmp = SS_BUF_INIT;
		double w;

		ss_chart_add_fixed(&tmp, ss_ticks_value(t, i), t->decimals);
		w = tmp.data ? ss_text_width(tmp.data, tmp.len, FONT) : FONT;
		ss_buf_release(&tmp);
		if (w > widest)
			widest = w;
	}
	return widest;
}

/* The plot area and its y axis. */
struct frame {
	double w, h;                /* the whole chart */
	double left, right, top, bottom;
	struct ss_ticks yt;
	struct ss_scale ys;
};

/* Left margin for the y tick labels and the y axis title. */
static void frame_left(struct frame *f, const struct ss_chart *c, double top)
{
	chart_size(c, &f->w, &f->h);
	f->left = 8 + FONT_AXIS + 10 + tick_label_width(&f->yt) + 8;
	f->right = f->w - 16;
	f->top = top;
}

/* Grid lines, y ticks and labels, the y axis title. Needs f->bottom. */
static void draw_y_axis(struct ss_buf *b, const struct ss_chart *c, struct frame *f)
{
	int i;

	ss_scale_init(&f->ys, ss_ticks_value(&f->yt, 0), ss_ticks_last(&f->yt), f->bottom, f->top);
	ss_buf_adds(b, "<g stroke=\"" GRID "\" stroke-width=\"1\">\n");
	for (i = 0; i < f->yt.count; i++) {
		double y = ss_scale_map(&f->ys, ss_ticks_value(&f->yt, i));

		line(b, f->left, y, f->right, y);
	}
	ss_buf_adds(b, "</g>\n<g fill=\"" INK_SOFT "\" text-anchor=\"end\">\n");
	for (i = 0; i < f->yt.count; i++) {
		double y = ss_scale_map(&f->ys, ss_ticks_value(&f->yt, i));
		struct ss_buf lab = SS_BUF_INIT;

		ss_chart_add_fixed(&lab, ss_ticks_value(&f->yt, i), f->yt.decimals);
		text_at(b, f->left - 6, y + FONT * 0.35, NULL, NULL, lab.data ? lab.data : "");
		ss_buf_release(&lab);
	}
	ss_buf_adds(b, "</g>\n");
	/* axis title, rotated, centred on the plot */
	ss_buf_adds(b, "<text");
	attr_num(b, "x", 0);
	attr_num(b, "y", 0);
	point(b, " transform=\"translate(", 8 + FONT_AXIS, (f->top + f->bottom) / 2);
	ss_buf_adds(b, ") rotate(-90)\" text-anchor=\"middle\" fill=\"" INK "\">");
	ss_buf_add_htmls(b, c->y_label);
	ss_buf_adds(b, "</text>\n");
}

static void draw_x_title(struct ss_buf *b, const struct ss_chart *c, const struct frame *f)
{
	text_at(b, (f->left + f->right) / 2, f->h - 8, "middle", "fill=\"" INK "\"", c->x_label);
}

static void draw_axis_line(struct ss_buf *b, const struct frame *f)
{
	ss_buf_adds(b, "<g stroke=\"" AXIS "\" stroke-width=\"1\">\n");
	line(b, f->left, f->bottom, f->right, f->bottom);
	ss_buf_adds(b, "</g>\n");
}

static void value_text(struct ss_buf *b, const struct ss_chart *c, double v)
{
	ss_chart_add_small(b, v, c->value_decimals);
	if (c->value_suffix)
		ss_buf_add_htmls(b, c->value_suffix);
}

/* A <title> child: the tooltip of the element it is in. */
static void tooltip_open(struct ss_buf *b)
{
	ss_buf_adds(b, "<title>");
}

/* -- bar chart ---------------------------------------------------------------- */

void ss_chart_bar_geom(const struct ss_scale *ys, double v, double *y, double *h)
{
	double y0 = ss_scale_map(ys, 0.0), yv = ss_scale_map(ys, v);

	*y = yv < y0 ? yv : y0;
	*h = fabs(y0 - yv);
}

static void draw_labels(struct ss_buf *b, const struct ss_labels *l, const char *const *full)
{
	size_t i;

	ss_buf_adds(b, "<g fill=\"" INK "\">\n");
	for (i = 0; i < l->n; i++) {
		const struct ss_label *lab = &l->v[i];

		if (!lab->shown)
			continue;
		ss_buf_adds(b, "<text");
		attr_num(b, "x", lab->x);
		attr_num(b, "y", lab->y);
		if (l->mode == SS_LABELS_HORIZONTAL) {
			ss_buf_adds(b, " text-anchor=\"middle\"");
		} else {
			point(b, " text-anchor=\"end\" transform=\"rotate(-45 ", lab->x, lab->y);
			ss_buf_adds(b, ")\"");
		}
		ss_buf_addc(b, '>');
		if (lab->shortened) {
			tooltip_open(b);
			ss_buf_add_htmls(b, full[i]);
			ss_buf_adds(b, "</title>");
		}
		ss_buf_add_htmls(b, lab->text);
		ss_buf_adds(b, "</text>\n");
	}
	ss_buf_adds(b, "</g>\n");
}

void ss_chart_bars(struct ss_buf *out, const struct ss_chart *c,
		   const struct ss_bar *bars, size_t n)
{
	struct frame f;
	struct ss_labels labels;
	const char **names;
	double ymax = c->y_max_hint > 0 ? c->y_max_hint : 0, ymin = 0, band, bw;
	size_t i;

	for (i = 0; i < n; i++) {
		double hi = bars[i].has_interval ? fmax(bars[i].value, bars[i].hi) : bars[i].value;
		double lo = bars[i].has_interval ? fmin(bars[i].value, bars[i].lo) : bars[i].value;

		if (isfinite(hi) && hi > ymax)
			ymax = hi;
		if (isfinite(lo) && lo < ymin)
			ymin = lo;
	}
	if (ymax == ymin)
		ymax = ymin + 1;
	ss_ticks_nice(&f.yt, ymin, ymax, MAX_TICK_INTERVALS);
	frame_left(&f, c, 44);
	band = n ? (f.right - f.left) / (double)n : (f.right - f.left);
	names = ss_calloc(n ? n : 1, sizeof(*names));
	if (!names) {
		out->failed = true;
		return;
	}
	for (i = 0; i < n; i++)
		names[i] = bars[i].label ? bars[i].label : "";
	/* the labels' room: what is left under the plot, at most a third */
	if (!ss_labels_place(&labels, names, n, f.left, band, 0,
			     fmin(f.h * 0.3, 130), f.left, FONT)) {
		ss_free(names);
		out->failed = true;
		return;
	}
	f.bottom = f.h - (8 + FONT_AXIS + 6) - labels.extent - 2;
	for (i = 0; i < labels.n; i++)
		labels.v[i].y += f.bottom;

	svg_open(out, c);
	draw_y_axis(out, c, &f);

	bw = band * (n > 12 ? 0.72 : 0.62);
	if (bw > 90)
		bw = 90;
	ss_buf_adds(out, "<g fill=\"");
	ss_buf_adds(out, ss_chart_color(0));
	ss_buf_adds(out, "\">\n");
	for (i = 0; i < n; i++) {
		double cx = f.left + ((double)i + 0.5) * band, y, h;

		if (!isfinite(bars[i].value))
			continue;
		ss_chart_bar_geom(&f.ys, bars[i].value, &y, &h);
		ss_buf_adds(out, "<rect");
		attr_num(out, "x", cx - bw / 2);
		attr_num(out, "y", y);
		attr_num(out, "width", bw);
		attr_num(out, "height", h);
		ss_buf_adds(out, "><title>");
		ss_buf_add_htmls(out, names[i]);
		ss_buf_adds(out, ": ");
		value_text(out, c, bars[i].value);
		if (bars[i].has_interval) {
			ss_buf_adds(out, " (interval ");
			value_text(out, c, bars[i].lo);
			ss_buf_adds(out, "\xE2\x80\x93");
			value_text(out, c, bars[i].hi);
			ss_buf_addc(out, ')');
		}
		ss_buf_adds(out, "</title></rect>\n");
	}
	ss_buf_adds(out, "</g>\n");

	/* whiskers: a vertical line with caps */
	ss_buf_adds(out, "<g stroke=\"" INK "\" stroke-width=\"1.5\">\n");
	for (i = 0; i < n; i++) {
		double cx = f.left + ((double)i + 0.5) * band, ylo, yhi, cap = fmin(bw * 0.3, 8);

		if (!bars[i].has_interval || !isfinite(bars[i].lo) || !isfinite(bars[i].hi))
			continue;
		ylo = ss_scale_map(&f.ys, bars[i].lo);
		yhi = ss_scale_map(&f.ys, bars[i].hi);
		line(out, cx, ylo, cx, yhi);
		line(out, cx - cap, ylo, cx + cap, ylo);
		line(out, cx - cap, yhi, cx + cap, yhi);
	}
	ss_buf_adds(out, "</g>\n");

	if (c->show_values) {
		ss_buf_adds(out, "<g fill=\"" INK "\" font-size=\"11\" text-anchor=\"middle\">\n");
		for (i = 0; i < n; i++) {
			struct ss_buf v = SS_BUF_INIT;
			double cx = f.left + ((double)i + 0.5) * band, top;

			if (!isfinite(bars[i].value))
				continue;
			value_text(&v, c, bars[i].value);
			if (v.data && ss_text_width(v.data, v.len, FONT_VALUE) <= band - 2) {
				top = ss_scale_map(&f.ys, bars[i].value > 0 ? bars[i].value : 0);
				if (bars[i].has_interval && isfinite(bars[i].hi))
					top = fmin(top, ss_scale_map(&f.ys, bars[i].hi));
				text_at(out, cx, top - 4, NULL, NULL, v.data);
			}
			ss_buf_release(&v);
		}
		ss_buf_adds(out, "</g>\n");
	}
	draw_axis_line(out, &f);
	if (ss_ticks_value(&f.yt, 0) < 0) {
		/* bars go both ways: the zero line is the baseline */
		ss_buf_adds(out, "<g stroke=\"" AXIS "\" stroke-width=\"1\">\n");
		line(out, f.left, ss_scale_map(&f.ys, 0), f.right, ss_scale_map(&f.ys, 0));
		ss_buf_adds(out, "</g>\n");
	}
	draw_labels(out, &labels, names);
	draw_x_title(out, c, &f);
	ss_buf_adds(out, "</svg>\n");
	ss_labels_release(&labels);
	ss_free(names);
}

/* -- line chart --------------------------------------------------------------- */

static const char *const dashes[] = {NULL, "7 4", "2 3", "9 3 2 3"};

/* The dash pattern of series i, so its line and its legend match (the
 * first is solid). */
static void dash_attr(struct ss_buf *b, size_t i)
{
	if (dashes[i % 4]) {
		ss_buf_adds(b, " stroke-dasharray=\"");
		ss_buf_adds(b, dashes[i % 4]);
		ss_buf_addc(b, '"');
	}
}

/* The marker of series i at (x, y). */
static void marker(struct ss_buf *b, size_t i, double x, double y)
{
	const double r = 4;

	switch (i % 4) {
	case 0:
		ss_buf_adds(b, "<circle");
		attr_num(b, "cx", x);
		attr_num(b, "cy", y);
		attr_num(b, "r", r);
		break;
	case 1:
		ss_buf_adds(b, "<rect");
		attr_num(b, "x", x - r);
		attr_num(b, "y", y - r);
		attr_num(b, "width", 2 * r);
		attr_num(b, "height", 2 * r);
		break;
	case 2:
		point(b, "<path d=\"M", x, y - r * 1.2);
		point(b, "l", r * 1.1, r * 2);
		ss_buf_adds(b, "h");
		coord(b, -r * 2.2);
		ss_buf_adds(b, "z\"");
		break;
	default:
		point(b, "<path d=\"M", x, y - r * 1.3);
		point(b, "l", r * 1.3, r * 1.3);
		point(b, "l", -r * 1.3, r * 1.3);
		point(b, "l", -r * 1.3, -r * 1.3);
		ss_buf_adds(b, "z\"");
		break;
	}
}

void ss_chart_lines(struct ss_buf *out, const struct ss_chart *c,
		    const struct ss_line_opts *o, const struct ss_series *s, size_t ns)
{
	struct frame f;
	struct ss_ticks xt;
	struct ss_scale xs;
	double xmin = INFINITY, xmax = -INFINITY, ymin = 0, ymax = c->y_max_hint > 0 ? c->y_max_hint : 0;
	double top = 44, lx, ly;
	size_t i, j;
	int t;

	if (o && isfinite(o->y_min))
		ymin = o->y_min;
	for (i = 0; i < ns; i++)
		for (j = 0; j < s[i].n; j++) {
			if (isfinite(s[i].x[j])) {
				xmin = fmin(xmin, s[i].x[j]);
				xmax = fmax(xmax, s[i].x[j]);
			}
			if (isfinite(s[i].y[j])) {
				ymax = fmax(ymax, s[i].y[j]);
				ymin = fmin(ymin, s[i].y[j]);
			}
		}
	if (!isfinite(xmin))
		xmin = 0, xmax = 1;
	if (ymax <= ymin)
		ymax = ymin + 1;
	ss_ticks_nice(&f.yt, ymin, ymax, MAX_TICK_INTERVALS);
	if (ns > 1)
		top += 20;      /* a legend row under the title */
	frame_left(&f, c, top);
	f.bottom = f.h - (8 + FONT_AXIS + 6) - X_TICK_DY - 6;
	if (o && o->x_integer) {
		if (xmax - xmin <= 20) {
			xt.first = floor(xmin);
			xt.step = 1;
			xt.mant = 1;
			xt.exp10 = 0;
			xt.count = (int)(ceil(xmax) - xt.first) + 1;
			xt.decimals = 0;
		} else {
			ticks_integer(&xt, xmin, xmax, 10);
		}
		ss_scale_init(&xs, xmin - 0.5, xmax + 0.5, f.left, f.right);
	} else {
		ss_ticks_nice(&xt, xmin, xmax, 8);
		ss_scale_init(&xs, ss_ticks_value(&xt, 0), ss_ticks_last(&xt), f.left, f.right);
	}

	svg_open(out, c);
	draw_y_axis(out, c, &f);

	/* x ticks and their labels */
	ss_buf_adds(out, "<g fill=\"" INK "\" text-anchor=\"middle\">\n");
	for (t = 0; t < xt.count; t++) {
		double v = ss_ticks_value(&xt, t);
		struct ss_buf lab = SS_BUF_INIT;

		if (v < xs.d0 - 1e-9 || v > xs.d1 + 1e-9)
			continue;
		ss_chart_add_fixed(&lab, v, xt.decimals);
		text_at(out, ss_scale_map(&xs, v), f.bottom + X_TICK_DY, NULL, NULL, lab.data ? lab.data : "");
		ss_buf_release(&lab);
	}
	ss_buf_adds(out, "</g>\n");

	if (o && isfinite(o->mark_x)) {
		double mx = ss_scale_map(&xs, o->mark_x);

		ss_buf_adds(out, "<g stroke=\"" INK_SOFT "\" stroke-width=\"1\" stroke-dasharray=\"4 3\">\n");
		line(out, mx, f.top, mx, f.bottom);
		ss_buf_adds(out, "</g>\n");
		/* at the foot of the line: the points and their values are
		 * above, where the curve is */
		if (o->mark_label)
			text_at(out, mx + 4, f.bottom - 6, NULL, "fill=\"" INK_SOFT "\"", o->mark_label);
	}

	for (i = 0; i < ns; i++) {
		const char *col = ss_chart_color(i);
		bool pen = false;

		ss_buf_adds(out, "<path fill=\"none\" stroke=\"");
		ss_buf_adds(out, col);
		ss_buf_adds(out, "\" stroke-width=\"2\"");
		dash_attr(out, i);
		ss_buf_adds(out, " d=\"");
		for (j = 0; j < s[i].n; j++) {
			if (!isfinite(s[i].y[j]) || !isfinite(s[i].x[j])) {
				pen = false;
				continue;
			}
			ss_buf_addc(out, pen ? 'L' : 'M');
			coord(out, ss_scale_map(&xs, s[i].x[j]));
			ss_buf_addc(out, ' ');
			coord(out, ss_scale_map(&f.ys, s[i].y[j]));
			pen = true;
		}
		ss_buf_adds(out, "\"/>\n<g fill=\"");
		ss_buf_adds(out, col);
		ss_buf_adds(out, "\" stroke=\"#ffffff\" stroke-width=\"1\">\n");
		for (j = 0; j < s[i].n; j++) {
			if (!isfinite(s[i].y[j]) || !isfinite(s[i].x[j]))
				continue;
			marker(out, i, ss_scale_map(&xs, s[i].x[j]), ss_scale_map(&f.ys, s[i].y[j]));
			ss_buf_adds(out, "><title>");
			ss_buf_add_htmls(out, s[i].name);
			ss_buf_adds(out, " at ");
			ss_chart_add_fixed(out, s[i].x[j], xt.decimals);
			ss_buf_adds(out, ": ");
			value_text(out, c, s[i].y[j]);
			ss_buf_adds(out, "</title></");
			ss_buf_adds(out, i % 4 == 0 ? "circle" : i % 4 == 1 ? "rect" : "path");
			ss_buf_adds(out, ">\n");
		}
		ss_buf_adds(out, "</g>\n");
		/* value labels: one series only, when the points are far apart */
		if (c->show_values && ns == 1 && s[i].n > 0 &&
		    (f.right - f.left) / (double)(s[i].n) >= 36) {
			ss_buf_adds(out, "<g fill=\"" INK "\" font-size=\"11\" text-anchor=\"middle\">\n");
			for (j = 0; j < s[i].n; j++) {
				struct ss_buf v = SS_BUF_INIT;

				if (!isfinite(s[i].y[j]) || !isfinite(s[i].x[j]))
					continue;
				value_text(&v, c, s[i].y[j]);
				text_at(out, ss_scale_map(&xs, s[i].x[j]),
					ss_scale_map(&f.ys, s[i].y[j]) - 9, NULL, NULL, v.data ? v.data : "");
				ss_buf_release(&v);
			}
			ss_buf_adds(out, "</g>\n");
		}
	}

	/* legend: swatch (line + marker) and name, left to right, wrapping */
	if (ns > 1) {
		lx = f.left;
		ly = 44;
		for (i = 0; i < ns; i++) {
			bool sh;
			char *name = ss_text_shorten(s[i].name ? s[i].name : "", 220, FONT, &sh);
			double w = 34 + (name ? ss_text_width(name, strlen(name), FONT) : 0) + 18;

			if (lx + w > f.right && lx > f.left)
				lx = f.left, ly += 16;
			ss_buf_adds(out, "<g stroke=\"");
			ss_buf_adds(out, ss_chart_color(i));
			ss_buf_adds(out, "\" stroke-width=\"2\" fill=\"");
			ss_buf_adds(out, ss_chart_color(i));
			ss_buf_addc(out, '"');
			dash_attr(out, i);
			ss_buf_adds(out, ">");
			line(out, lx, ly - 4, lx + 26, ly - 4);
			ss_buf_adds(out, "</g>\n<g fill=\"");
			ss_buf_adds(out, ss_chart_color(i));
			ss_buf_adds(out, "\" stroke=\"#ffffff\" stroke-width=\"1\">");
			marker(out, i, lx + 13, ly - 4);
			ss_buf_adds(out, i % 4 == 0 ? "/>" : "/>");
			ss_buf_adds(out, "</g>\n");
			ss_buf_adds(out, "<text");
			attr_num(out, "x", lx + 32);
			attr_num(out, "y", ly);
			ss_buf_adds(out, " fill=\"" INK "\">");
			if (sh) {
				tooltip_open(out);
				ss_buf_add_htmls(out, s[i].name);
				ss_buf_adds(out, "</title>");
			}
			ss_buf_add_htmls(out, name ? name : "");
			ss_buf_adds(out, "</text>\n");
			if (!name)
				out->failed = true;
			ss_free(name);
			lx += w;
		}
	}
	draw_axis_line(out, &f);
	draw_x_title(out, c, &f);
	ss_buf_adds(out, "</svg>\n");
}

/* -- histogram ---------------------------------------------------------------- */

#define BIN_EPS 1e-9
#define MAX_BINS 30

void ss_bins_release(struct ss_bins *b)
{
	ss_free(b->count);
	memset(b, 0, sizeof(*b));
}

/* Edge i (may be negative or past n: the empty bins drawn around a few). */
static double bin_edge(const struct ss_bins *b, int64_t i)
{
	int64_t first = (int64_t)llround(b->lo / b->width);

	return decimal_value((first + i) * b->mant, b->exp10);
}

double ss_bins_edge(const struct ss_bins *b, size_t i)
{
	return bin_edge(b, (int64_t)i);
}

bool ss_bins_compute(struct ss_bins *b, const double *v, size_t n)
{
	double mn = INFINITY, mx = -INFINITY, width, first, last;
	size_t i, finite = 0, target;
	int mant, e;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		finite++;
		mn = fmin(mn, v[i]);
		mx = fmax(mx, v[i]);
	}
	if (finite == 0)
		return false;
	target = (size_t)ceil(sqrt((double)finite));
	if (target > MAX_BINS)
		target = MAX_BINS;
	if (target < 1)
		target = 1;
	if (mx > mn) {
		width = ss_nice_step((mx - mn) / (double)target, &mant, &e);
	} else {
		/* one value: a bin a tenth of its order of magnitude wide */
		ss_nice_step(fabs(mn) > 0 ? fabs(mn) : 1, &mant, &e);
		mant = 1;
		e -= 1;
		width = decimal_value(1, e);
	}
	first = floor(mn / width + BIN_EPS);
	last = floor(mx / width + BIN_EPS);
	/* the nice width can round the count up past the cap by one */
	while (last - first + 1 > MAX_BINS) {
		next_step(&mant, &e);
		width = decimal_value(mant, e);
		first = floor(mn / width + BIN_EPS);
		last = floor(mx / width + BIN_EPS);
	}
	b->mant = mant;
	b->exp10 = e;
	b->width = width;
	b->lo = decimal_value((int64_t)first * mant, e);
	b->n = (size_t)(last - first) + 1;
	b->count = ss_calloc(b->n, sizeof(*b->count));
	if (!b->count) {
		memset(b, 0, sizeof(*b));
		return false;
	}
	for (i = 0; i < n; i++) {
		double k;

		if (!isfinite(v[i]))
			continue;
		k = floor(v[i] / width + BIN_EPS) - first;
		if (k < 0)
			k = 0;
		if (k > (double)(b->n - 1))
			k = (double)(b->n - 1);
		b->count[(size_t)k]++;
		b->total++;
	}
	return true;
}

void ss_chart_histogram(struct ss_buf *out, const struct ss_chart *c, const struct ss_bins *b)
{
	struct frame f;
	struct ss_scale xs;
	uint64_t cmax = 0;
	double binpx, lw;
	int64_t i, every = 1, padl = 0, padr = 0, nb = (int64_t)b->n;
	int decimals = b->exp10 < 0 ? -b->exp10 : 0;

	/* A few bins alone would fill the whole width: draw empty bins
	 * around them, up to 5 in all, so the x axis still reads as a range. */
	if (nb < 5) {
		padl = (5 - nb) / 2;
		padr = 5 - nb - padl;
		/* never below zero when the data are not */
		if (b->lo >= 0 && bin_edge(b, -padl) < 0) {
			padr += padl;
			padl = 0;
		}
	}
	for (i = 0; i < nb; i++)
		if (b->count[i] > cmax)
			cmax = b->count[i];
	ticks_integer(&f.yt, 0, cmax ? (double)cmax : 1, MAX_TICK_INTERVALS);
	frame_left(&f, c, 44);
	f.bottom = f.h - (8 + FONT_AXIS + 6) - X_TICK_DY - 6;
	ss_scale_init(&xs, bin_edge(b, -padl), bin_edge(b, nb + padr), f.left, f.right);
	binpx = (f.right - f.left) / (double)(nb + padl + padr);

	svg_open(out, c);
	draw_y_axis(out, c, &f);
	ss_buf_adds(out, "<g fill=\"");
	ss_buf_adds(out, ss_chart_color(0));
	ss_buf_adds(out, "\" stroke=\"#ffffff\" stroke-width=\"1\">\n");
	for (i = 0; i < nb; i++) {
		double y, h;

		if (!b->count[i])
			continue;
		ss_chart_bar_geom(&f.ys, (double)b->count[i], &y, &h);
		ss_buf_adds(out, "<rect");
		attr_num(out, "x", ss_scale_map(&xs, bin_edge(b, i)));
		attr_num(out, "y", y);
		attr_num(out, "width", binpx);
		attr_num(out, "height", h);
		ss_buf_adds(out, "><title>[");
		ss_chart_add_fixed(out, bin_edge(b, i), decimals);
		ss_buf_adds(out, ", ");
		ss_chart_add_fixed(out, bin_edge(b, i + 1), decimals);
		ss_buf_adds(out, "): ");
		ss_buf_add_u64(out, b->count[i]);
		ss_buf_adds(out, "</title></rect>\n");
	}
	ss_buf_adds(out, "</g>\n");

	/* edge labels, every m-th so that they never touch */
	lw = FONT;
	for (i = -padl; i <= nb + padr; i++) {
		struct ss_buf lab = SS_BUF_INIT;

		ss_chart_add_fixed(&lab, bin_edge(b, i), decimals);
		if (lab.data && ss_text_width(lab.data, lab.len, FONT) > lw)
			lw = ss_text_width(lab.data, lab.len, FONT);
		ss_buf_release(&lab);
	}
	lw += 8;
	while (binpx * (double)every < lw)
		every = every == 1 ? 2 : every == 2 ? 5 : every * 2;
	ss_buf_adds(out, "<g fill=\"" INK "\" text-anchor=\"middle\">\n");
	for (i = -padl; i <= nb + padr; i++) {
		struct ss_buf lab = SS_BUF_INIT;
		double x = ss_scale_map(&xs, bin_edge(b, i));

		if ((i + padl) % every)
			continue;
		ss_chart_add_fixed(&lab, bin_edge(b, i), decimals);
		text_at(out, x, f.bottom + X_TICK_DY, NULL, NULL, lab.data ? lab.data : "");
		ss_buf_release(&lab);
	}
	ss_buf_adds(out, "</g>\n");
	draw_axis_line(out, &f);
	draw_x_title(out, c, &f);
	ss_buf_adds(out, "</svg>\n");
}
