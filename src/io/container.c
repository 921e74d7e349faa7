/*
 * container.c - the members of an archive as inputs, in archive order,
 * with the artifact-directory rule applied inside it (SPEC 1.1).
 *
 * Decisions where SPEC 1.1 is silent (also in the docs):
 *  - Inside an archive the artifact-directory rule needs to know a
 *    directory is one before its other members go by, which archive order
 *    does not promise. Members that only AIPerf writes next to its exports
 *    (`inputs.json`, `profile_export*` other than the two exports, and
 *    `logs/ *.log`) are therefore always skipped.
 *  - A `profile_export.jsonl` member is spooled to a temporary file until
 *    its `profile_export_raw.jsonl` sibling comes or the archive ends. To
 *    keep archive order, members to be read that come after a held one are
 *    spooled too, until the held one is settled. In an archive of
 *    records-only exports this spools the exports (not their siblings,
 *    which are skipped) until the end of the archive.
 *  - AIPerf's server-metrics exports are read wherever they are (SPEC
 *    10.4, 10.5), and `DIR/server_metrics_export.jsonl` is held the same
 *    way until `DIR/server_metrics_export.json` comes (then it is not
 *    read) or the archive ends.
 */
#include "io/container.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/archive_lib.h"
#include "io/artifacts.h"
#include "io/input_fail.h"
#include "io/source.h"
#include "io/spool.h"
#include "util/alloc.h"
#include "util/grow.h"
#include "util/text.h"


struct spool {
	char *name;         /* ARCHIVE:MEMBER */
	char *dir;          /* member's directory (held exports only) */
	struct ss_spool_entry e;
	bool kept;          /* e is in the spool and not given back */
	char *fail;         /* the member broke after the spooled data: why */
	bool held, dropped;
	bool srv;           /* held: a server_metrics_export.jsonl, not a request export */
};

struct artdir {
	char *dir;
	bool raw_seen, held;
};

struct ss_container {
	struct archive *a;
	struct ss_archive_src src;   /* src.inner: the decoded archive, owned */
	char *name;
	struct spool *q;
	size_t qhead, qlen, qcap;
	struct artdir *dirs;
	size_t ndirs, dcap;
	struct artdir *sdirs;        /* directories of server-metrics exports: */
	size_t nsdirs, sdcap;        /*   raw_seen the document, held the lines */
	bool ended;
	struct ss_msg *msg;
	struct ss_spool *spool;      /* one temporary file for all held members */
	uint64_t spool_limit;
	const volatile sig_atomic_t *stop;
};

static void spool_free(struct ss_container *c, struct spool *sp)
{
	ss_free(sp->name);
	ss_free(sp->dir);
	ss_free(sp->fail);
	if (sp->kept)
		ss_spool_drop(c->spool, &sp->e);
	sp->name = sp->dir = sp->fail = NULL;
	sp->kept = false;
}

void ss_container_free(struct ss_container *c)
{
	size_t i;

	if (!c)
		return;
	if (c->a)
		archive_read_free(c->a);
	ss_stream_free(c->src.inner);
	ss_free(c->src.cbuf);
	ss_free(c->name);
	for (i = c->qhead; i < c->qlen; i++)
		spool_free(c, &c->q[i]);
	ss_free(c->q);
	ss_spool_free(c->spool);   /* streams still reading it keep it alive */
	for (i = 0; i < c->ndirs; i++)
		ss_free(c->dirs[i].dir);
	ss_free(c->dirs);
	for (i = 0; i < c->nsdirs; i++)
		ss_free(c->sdirs[i].dir);
	ss_free(c->sdirs);
	ss_free(c);
}

struct ss_container *ss_container_open(struct ss_stream *s, const char *name,
				       struct ss_msg *msg, uint64_t spool_limit,
				       const volatile sig_atomic_t *stop, char **fail_name,
				       enum ss_next *r)
{
	struct ss_container *c = ss_calloc(1, sizeof(*c));
	char why[256];

	*r = SS_NEXT_FATAL;
	if (!c) {
		ss_stream_free(s);
		return NULL;
	}
	c->msg = msg;
	c->spool_limit = spool_limit;
	c->stop = stop;
	c->src.inner = s;
	c->src.seek_fd = ss_source_seekable_fd(s);
	c->src.cbuf_size = ss_source_buffer_size();
	c->src.cbuf = ss_malloc(c->src.cbuf_size);
	c->name = ss_strdup(name);
	if (!c->src.cbuf || !c->name) {
		ss_container_free(c);
		return NULL;
	}
	s->name = c->name;
	c->a = ss_archive_open(&c->src, false, why, sizeof(why));
	if (!c->a) {
		if (why[0])
			*r = ss_fail_input(msg, fail_name, ss_strdup(name),
					   "cannot read archive '%s': %s", name, why);
		ss_container_free(c);
		return NULL;
	}
	*r = SS_NEXT_OK;
	return c;
}

static struct artdir *find_in(struct artdir *v, size_t n, const char *dir, size_t dl)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i].dir) == dl && memcmp(v[i].dir, dir, dl) == 0)
			return &v[i];
	return NULL;
}

static struct artdir *add_in(struct artdir **v, size_t *n, size_t *cap, const char *dir,
			     size_t dl)
{
	struct artdir *d = find_in(*v, *n, dir, dl);

	if (d)
		return d;
	if (!SS_ALLOC_GROW(*v, *n + 1, *cap))
		return NULL;
	d = &(*v)[*n];
	d->dir = ss_strndup(dir, dl);
	if (!d->dir)
		return NULL;
	d->raw_seen = d->held = false;
	(*n)++;
	return d;
}

#define find_dir(c, dir, dl) find_in((c)->dirs, (c)->ndirs, dir, dl)
#define add_dir(c, dir, dl) add_in(&(c)->dirs, &(c)->ndirs, &(c)->dcap, dir, dl)

/* Drop the held members of directory dir (dl bytes): request exports or server lines. */
static void drop_held(struct ss_container *c, const char *dir, size_t dl, bool srv)
{
	for (size_t i = c->qhead; i < c->qlen; i++)
		if (c->q[i].held && c->q[i].srv == srv && strlen(c->q[i].dir) == dl &&
		    memcmp(c->q[i].dir, dir, dl) == 0)
			c->q[i].dropped = true;
}

/*
 * Whether `dir` (dl bytes) lies inside a known artifact directory or, when
 * not `strict`, is one.
 */
static bool in_artdir(const struct ss_container *c, const char *dir, size_t dl,
		      bool strict)
{
	size_t i;

	for (i = 0; i < c->ndirs; i++) {
		const char *d = c->dirs[i].dir;
		size_t l = strlen(d);

		if (l == 0) {
			if (!strict || dl > 0)
				return true;
			continue;
		}
		if (dl > l && dir[l] == '/' && memcmp(dir, d, l) == 0)
			return true;
		if (!strict && dl == l && memcmp(dir, d, l) == 0)
			return true;
	}
	return false;
}

static bool queue_live(const struct ss_container *c)
{
	size_t i;

	for (i = c->qhead; i < c->qlen; i++)
		if (!c->q[i].dropped)
			return true;
	return false;
}

/* "1G", "512M", "64K" or "1000 bytes": a limit as the user would write it. */
static void size_text(char *out, size_t n, uint64_t v)
{
	if (v && v % ((uint64_t)1 << 30) == 0)
		snprintf(out, n, "%lluG", (unsigned long long)(v >> 30));
	else if (v && v % ((uint64_t)1 << 20) == 0)
		snprintf(out, n, "%lluM", (unsigned long long)(v >> 20));
	else if (v && v % 1024 == 0)
		snprintf(out, n, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(out, n, "%llu bytes", (unsigned long long)v);
}

/* Why a spooled member is held (a sibling may drop it), if it is. */
enum hold { HOLD_NONE = 0, HOLD_EXPORT, HOLD_SERVER };

/* Copy the current member into the spool, at the end of the queue. */
static enum ss_next spool_member(struct ss_container *c, char *name, const char *dir,
				 size_t dl, enum hold held, char **fail_name)
{
	struct spool *sp;
	struct ss_stream *ms;
	struct ss_spool_entry e;
	char *fail = NULL, why[256], lim[32];
	enum ss_spool_res res;

	if (!SS_ALLOC_GROW(c->q, c->qlen + 1, c->qcap)) {
		ss_free(name);
		return SS_NEXT_FATAL;
	}
	if (!c->spool && !(c->spool = ss_spool_new(c->spool_limit))) {
		ss_free(name);
		return SS_NEXT_FATAL;
	}
	/*
	 * Read through a member stream, which delivers every decoded byte
	 * before a failure: a damaged member keeps its data and fails when
	 * it is read back, in its place, as a member read directly does.
	 */
	ms = ss_source_member_new(c->a);
	if (!ms) {
		ss_free(name);
		return SS_NEXT_FATAL;
	}
	ss_stream_set_stop(ms, c->stop);
	res = ss_spool_copy(c->spool, ms, &e, &fail, c->stop, why, sizeof(why));
	ss_stream_free(ms);
	switch (res) {
	case SS_SPOOL_OK:
		break;
	case SS_SPOOL_FULL:
		size_text(lim, sizeof(lim), c->spool_limit);
		return ss_fail_input(c->msg, fail_name, name,
				     "cannot hold '%s' until the archive's end: the spool "
				     "limit (%s) is reached; see --spool-limit", name, lim);
	case SS_SPOOL_IOERR:
		size_text(lim, sizeof(lim), c->spool_limit);
		return ss_fail_input(c->msg, fail_name, name,
				     "cannot spool '%s' to a temporary file: %s (the spool limit "
				     "is %s; see --spool-limit)", name, why, lim);
	case SS_SPOOL_STOPPED:
		/* The run is being interrupted: said once, by the run. */
		ss_free(*fail_name);
		*fail_name = name;
		return SS_NEXT_FAILED;
	case SS_SPOOL_NOMEM:
		ss_free(name);
		return SS_NEXT_FATAL;
	}
	sp = &c->q[c->qlen];
	memset(sp, 0, sizeof(*sp));
	sp->name = name;
	sp->e = e;
	sp->kept = true;
	sp->fail = fail;
	sp->held = held != HOLD_NONE;
	sp->srv = held == HOLD_SERVER;
	if (held) {
		sp->dir = ss_strndup(dir, dl);
		if (!sp->dir) {
			spool_free(c, sp);
			return SS_NEXT_FATAL;
		}
	}
	c->qlen++;
	return SS_NEXT_OK;
}

/* A spooled member read back: *out and *name on SS_NEXT_OK. */
static enum ss_next open_spooled(struct ss_container *c, struct spool *sp,
				 struct ss_stream **out, char **name_out, char **fail_name)
{
	struct ss_stream *s;
	char *name = sp->name, *fail = sp->fail;

	(void)fail_name;
	sp->name = sp->fail = NULL;
	sp->kept = false;   /* the stream gives the entry back */
	s = ss_spool_open(c->spool, &sp->e);
	spool_free(c, sp);
	if (s) {
		ss_stream_set_stop(s, c->stop);
		if (fail)
			s = ss_source_fail_after_new(s, fail);
	}
	ss_free(fail);
	if (!s) {
		ss_free(name);
		return SS_NEXT_FATAL;
	}
	*out = s;
	*name_out = name;
	return SS_NEXT_OK;
}

enum ss_next ss_container_next(struct ss_container *c, struct ss_stream **out,
			       char **name_out, char **fail_name)
{
	*out = NULL;
	*name_out = NULL;
	for (;;) {
		struct archive_entry *e;
		const char *path, *base, *slash;
		size_t dl;
		enum ss_art_export exp;
		enum ss_next r;
		char *name;
		int ar, srv;

		while (c->qhead < c->qlen && c->q[c->qhead].dropped)
			spool_free(c, &c->q[c->qhead++]);
		if (c->qhead < c->qlen && (!c->q[c->qhead].held || c->ended))
			return open_spooled(c, &c->q[c->qhead++], out, name_out, fail_name);
		if (c->qhead == c->qlen)
			c->qhead = c->qlen = 0;
		if (c->ended)
			return SS_NEXT_END;
		ar = archive_read_next_header(c->a, &e);
		if (ar == ARCHIVE_EOF) {
			c->ended = true;
			continue;
		}
		/*
		 * ARCHIVE_RETRY (a damaged header) could skip ahead to the next
		 * good one, but what lies between would be lost: the archive is
		 * reported as failed instead, once.
		 */
		if (ar != ARCHIVE_OK && ar != ARCHIVE_WARN) {
			const char *why = archive_error_string(c->a);

			/* Held and spooled members are still read after this. */
			c->ended = true;
			return ss_fail_input(c->msg, fail_name, ss_strdup(c->name),
					     "cannot read archive '%s': %s", c->name,
					     why ? why : "damaged or truncated archive");
		}
		if (ar == ARCHIVE_WARN && archive_error_string(c->a))
			ss_msg_warn(c->msg, "'%s': %s", c->name, archive_error_string(c->a));
		if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e))
			continue;
		path = archive_entry_pathname(e);
		if (!path)
			path = archive_entry_pathname_utf8(e);
		if (!path)
			continue;
		slash = strrchr(path, '/');
		base = slash ? slash + 1 : path;
		dl = slash ? (size_t)(slash - path) : 0;
		if (in_artdir(c, path, dl, true))
			continue;   /* a directory inside an artifact directory */
		exp = ss_artifact_export(base);
		if (exp == SS_ART_EXPORT_RAW) {
			struct artdir *d = add_dir(c, path, dl);

			if (!d)
				return SS_NEXT_FATAL;
			if (d->raw_seen)
				continue;
			d->raw_seen = true;
			drop_held(c, path, dl, false);
		} else if ((srv = ss_artifact_server_export(base)) != 0) {
			struct artdir *d = add_in(&c->sdirs, &c->nsdirs, &c->sdcap, path, dl);

			if (!d)
				return SS_NEXT_FATAL;
			if (d->raw_seen || (srv == 2 && d->held))
				continue;   /* the document is read; or a second such member */
			if (srv == 2) {
				d->held = true;
				name = ss_join(c->name, ':', path);
				if (!name)
					return SS_NEXT_FATAL;
				r = spool_member(c, name, path, dl, HOLD_SERVER, fail_name);
				if (r != SS_NEXT_OK)
					return r;
				continue;
			}
			d->raw_seen = true;
			drop_held(c, path, dl, true);
		} else if (exp == SS_ART_EXPORT_REC) {
			struct artdir *d = find_dir(c, path, dl);

			if (d && (d->raw_seen || d->held))
				continue;
			d = add_dir(c, path, dl);
			if (!d)
				return SS_NEXT_FATAL;
			d->held = true;
			name = ss_join(c->name, ':', path);
			if (!name)
				return SS_NEXT_FATAL;
			r = spool_member(c, name, path, dl, HOLD_EXPORT, fail_name);
			if (r != SS_NEXT_OK)
				return r;
			continue;
		} else if (in_artdir(c, path, dl, false) || ss_artifact_companion(path, dl, base)) {
			continue;
		}
		name = ss_join(c->name, ':', path);
		if (!name)
			return SS_NEXT_FATAL;
		if (queue_live(c)) {
			r = spool_member(c, name, NULL, 0, HOLD_NONE, fail_name);
			if (r != SS_NEXT_OK)
				return r;
			continue;
		} else {
			struct ss_stream *s = ss_source_member_new(c->a);

			if (!s) {
				ss_free(name);
				return SS_NEXT_FATAL;
			}
			*out = s;
			*name_out = name;
			return SS_NEXT_OK;
		}
	}
}
