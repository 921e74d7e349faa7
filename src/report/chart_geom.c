/*
 * chart_geom.c - the geometry core of the charts (see chart_geom.h):
 * numbers, scales and ticks, text widths, label placement, bins.
 */
#include "report/chart_geom.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/utf8.h"

/*
 * A rotated label's neighbour must be at least this far away (px, across
 * the text direction) so two lines of the charts' 12 px label text never
 * touch.
 */
#define ROTATED_GAP (12.0 * 1.3)
#define SIN45 0.70710678118654752

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

void ss_ticks_integer(struct ss_ticks *t, double lo, double hi, int max_intervals)
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

/* -- bins ---------------------------------------------------------------------- */

#define BIN_EPS 1e-9
#define MAX_BINS 30

void ss_bins_release(struct ss_bins *b)
{
	ss_free(b->count);
	memset(b, 0, sizeof(*b));
}

double ss_bins_edge(const struct ss_bins *b, int64_t i)
{
	int64_t first = (int64_t)llround(b->lo / b->width);

	return decimal_value((first + i) * b->mant, b->exp10);
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
