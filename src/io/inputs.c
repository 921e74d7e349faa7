/*
 * inputs.c - from command-line paths to decoded streams (SPEC 1.1).
 *
 * Each path becomes a list of files (one, or the files a directory
 * selects); each file is opened, its compression layers are peeled off by
 * magic bytes, and if what is left is an archive, its members become the
 * inputs, in archive order.
 *
 * Decisions where SPEC 1.1 is silent (also in the docs):
 *  - With -r, a tree is walked and every AIPerf artifact directory gives
 *    its one file; outside artifact directories every regular file is read
 *    too, as an archive's members are. A user pointing -r at a tree of
 *    captures (`*.jsonl.zst`, `*.sse`) expects them read. Names starting
 *    with '.' are skipped (editor and VCS litter), and symbolic links to
 *    directories are not followed (no loops); links to files are.
 *    The whole list is sorted byte-wise by path before reading.
 *  - A directory that cannot be listed while walking is reported as a
 *    failed input at its place in that order; the walk goes on.
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
 *  - Archives inside archives are not opened: such a member is a failed
 *    input with a message.
 */
#include "io/inputs.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/source.h"
#include "util/alloc.h"
#include "util/grow.h"
#include "util/text.h"

#define RAW_NAME "profile_export_raw.jsonl"
#define REC_NAME "profile_export.jsonl"
#define CBUF_SIZE (1 << 20)
#define MAX_LAYERS 4
/* Enough for every magic we test, ISO 9660's at 32769 included. */
#define ARCHIVE_PEEK 32774

struct file_entry {
	char *path;         /* NULL: standard input */
	int err;            /* != 0: a directory of the walk that failed */
};

struct spool {
	char *name;         /* ARCHIVE:MEMBER */
	char *dir;          /* member's directory (held exports only) */
	FILE *fp;
	char *fail;         /* the member broke after the spooled data: why */
	bool held, dropped;
};

struct artdir {
	char *dir;
	bool raw_seen, held;
};

struct container {
	struct archive *a;
	struct ss_archive_src src;   /* src.inner: the decoded archive, owned */
	char *name;
	struct spool *q;
	size_t qhead, qlen, qcap;
	struct artdir *dirs;
	size_t ndirs, dcap;
	bool ended;
};

struct ss_inputs {
	const char *const *paths;
	size_t npaths, next_path;
	bool recursive;
	struct ss_msg *msg;
	struct file_entry *files;
	size_t nfiles, next_file, files_cap;
	struct ss_stream *cur;
	char *cur_name;
	char *fail_name;
	struct container *ctr;
	unsigned char *spool_buf;
};

enum step { STEP_OK, STEP_FAILED, STEP_FATAL, STEP_AGAIN };

static const char stdin_name[] = "<stdin>";

/* ---- magic bytes ---- */

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

/*
 * Peel compression layers off `s` (taking ownership). *out: the decoded
 * stream; *archive: whether it holds an archive. false: out of memory
 * (the chain is freed).
 */
static bool decode(struct ss_stream *s, struct ss_stream **out, bool *archive)
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
			s = ss_source_zstd_new(s);
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

/* ---- small helpers ---- */

static bool is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file an AIPerf artifact directory selects (allocated), or NULL. */
static char *artifact_file(const char *dir, bool *nomem)
{
	static const char *const names[] = {RAW_NAME, REC_NAME};
	size_t i;

	*nomem = false;
	for (i = 0; i < 2; i++) {
		char *p = ss_path_join(dir, names[i]);

		if (!p) {
			*nomem = true;
			return NULL;
		}
		if (is_regular(p))
			return p;
		ss_free(p);
	}
	return NULL;
}

static void set_fail_name(struct ss_inputs *it, const char *name)
{
	ss_free(it->fail_name);
	it->fail_name = ss_strdup(name);
}

/* ---- the file list ---- */

static bool push_file(struct ss_inputs *it, char *path, int err)
{
	if (!SS_ALLOC_GROW(it->files, it->nfiles + 1, it->files_cap))
		return false;
	it->files[it->nfiles].path = path;
	it->files[it->nfiles].err = err;
	it->nfiles++;
	return true;
}

static void clear_files(struct ss_inputs *it)
{
	size_t i;

	for (i = it->next_file; i < it->nfiles; i++)
		ss_free(it->files[i].path);
	it->nfiles = it->next_file = 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct file_entry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* Walk `dir` (owned by the caller). false: out of memory. */
static bool walk(struct ss_inputs *it, const char *dir)
{
	bool nomem;
	char *art = artifact_file(dir, &nomem);
	DIR *d;
	struct dirent *de;

	if (nomem)
		return false;
	if (art)
		return push_file(it, art, 0) || (ss_free(art), false);
	d = opendir(dir);
	if (!d) {
		int err = errno ? errno : EIO;
		char *p = ss_strdup(dir);

		return p && (push_file(it, p, err) || (ss_free(p), false));
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *p;
		bool ok = true;

		if (de->d_name[0] == '.')
			continue;
		p = ss_path_join(dir, de->d_name);
		if (!p) {
			closedir(d);
			return false;
		}
		if (lstat(p, &st) != 0) {
			ok = push_file(it, p, errno);
		} else if (S_ISDIR(st.st_mode)) {
			ok = walk(it, p);
			ss_free(p);
		} else if (S_ISREG(st.st_mode) ||
			   (S_ISLNK(st.st_mode) && is_regular(p))) {
			ok = push_file(it, p, 0);
		} else {
			ss_free(p);
		}
		if (!ok) {
			closedir(d);
			return false;
		}
	}
	closedir(d);
	return true;
}

/* Turn the next command-line path into file entries. */
static enum step expand(struct ss_inputs *it)
{
	const char *path = it->npaths ? it->paths[it->next_path] : "-";
	struct stat st;
	char *art, *p;
	bool nomem;
	size_t first;

	it->next_path++;
	clear_files(it);
	if (strcmp(path, "-") == 0)
		return push_file(it, NULL, 0) ? STEP_AGAIN : STEP_FATAL;
	if (stat(path, &st) != 0) {
		ss_msg_error(it->msg, "cannot open '%s': %s", path, strerror(errno));
		set_fail_name(it, path);
		return it->fail_name ? STEP_FAILED : STEP_FATAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		p = ss_strdup(path);
		return p && (push_file(it, p, 0) || (ss_free(p), false)) ?
		       STEP_AGAIN : STEP_FATAL;
	}
	art = artifact_file(path, &nomem);
	if (nomem)
		return STEP_FATAL;
	if (art)
		return push_file(it, art, 0) || (ss_free(art), false) ?
		       STEP_AGAIN : STEP_FATAL;
	if (!it->recursive) {
		ss_msg_error(it->msg,
			     "'%s' is a directory but not an AIPerf artifact directory "
			     "(no " RAW_NAME " or " REC_NAME "); use -r to read a tree",
			     path);
		set_fail_name(it, path);
		return it->fail_name ? STEP_FAILED : STEP_FATAL;
	}
	first = it->nfiles;
	if (!walk(it, path))
		return STEP_FATAL;
	if (it->nfiles == first)
		ss_msg_warn(it->msg, "'%s': no input files found", path);
	else
		qsort(it->files + first, it->nfiles - first, sizeof(*it->files), cmp_entry);
	return STEP_AGAIN;
}

/* ---- archives ---- */

static void spool_free(struct spool *sp)
{
	ss_free(sp->name);
	ss_free(sp->dir);
	ss_free(sp->fail);
	if (sp->fp)
		fclose(sp->fp);
	sp->name = sp->dir = sp->fail = NULL;
	sp->fp = NULL;
}

static void container_free(struct container *c)
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
		spool_free(&c->q[i]);
	ss_free(c->q);
	for (i = 0; i < c->ndirs; i++)
		ss_free(c->dirs[i].dir);
	ss_free(c->dirs);
	ss_free(c);
}

/* Take over `s` (a decoded archive) as the current container. */
static enum step container_open(struct ss_inputs *it, struct ss_stream *s,
				const char *name)
{
	struct container *c = ss_calloc(1, sizeof(*c));
	char why[256];

	if (!c) {
		ss_stream_free(s);
		return STEP_FATAL;
	}
	c->src.inner = s;
	c->src.seek_fd = ss_source_seekable_fd(s);
	c->src.cbuf_size = CBUF_SIZE;
	c->src.cbuf = ss_malloc(CBUF_SIZE);
	c->name = ss_strdup(name);
	if (!c->src.cbuf || !c->name) {
		container_free(c);
		return STEP_FATAL;
	}
	s->name = c->name;
	c->a = ss_archive_open(&c->src, false, why, sizeof(why));
	if (!c->a) {
		enum step r = STEP_FATAL;

		if (why[0]) {
			ss_msg_error(it->msg, "cannot read archive '%s': %s", name, why);
			set_fail_name(it, name);
			r = it->fail_name ? STEP_FAILED : STEP_FATAL;
		}
		container_free(c);
		return r;
	}
	it->ctr = c;
	return STEP_AGAIN;
}

static struct artdir *find_dir(struct container *c, const char *dir, size_t dl)
{
	size_t i;

	for (i = 0; i < c->ndirs; i++)
		if (strlen(c->dirs[i].dir) == dl && memcmp(c->dirs[i].dir, dir, dl) == 0)
			return &c->dirs[i];
	return NULL;
}

static struct artdir *add_dir(struct container *c, const char *dir, size_t dl)
{
	struct artdir *d = find_dir(c, dir, dl);

	if (d)
		return d;
	if (!SS_ALLOC_GROW(c->dirs, c->ndirs + 1, c->dcap))
		return NULL;
	d = &c->dirs[c->ndirs];
	d->dir = ss_strndup(dir, dl);
	if (!d->dir)
		return NULL;
	d->raw_seen = d->held = false;
	c->ndirs++;
	return d;
}

/*
 * Whether `dir` (dl bytes) lies inside a known artifact directory or, when
 * not `strict`, is one.
 */
static bool in_artdir(const struct container *c, const char *dir, size_t dl,
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

/* Written by AIPerf next to its exports and never a capture. */
static bool companion(const char *dir, size_t dl, const char *base)
{
	size_t bl = strlen(base);

	if (strcmp(base, "inputs.json") == 0 || strncmp(base, "profile_export", 14) == 0)
		return true;
	if (bl > 4 && strcmp(base + bl - 4, ".log") == 0 &&
	    ((dl == 4 && memcmp(dir, "logs", 4) == 0) ||
	     (dl > 4 && memcmp(dir + dl - 5, "/logs", 5) == 0)))
		return true;
	return false;
}

static bool queue_live(const struct container *c)
{
	size_t i;

	for (i = c->qhead; i < c->qlen; i++)
		if (!c->q[i].dropped)
			return true;
	return false;
}

/* Copy the current member to a temporary file at the end of the queue. */
static enum step spool_member(struct ss_inputs *it, struct container *c,
			      char *name, const char *dir, size_t dl, bool held)
{
	struct spool *sp;
	struct ss_stream *ms;
	char *fail = NULL;
	FILE *fp;

	if (!SS_ALLOC_GROW(c->q, c->qlen + 1, c->qcap)) {
		ss_free(name);
		return STEP_FATAL;
	}
	fp = tmpfile();
	if (!fp) {
		ss_msg_error(it->msg, "cannot spool '%s' to a temporary file: %s",
			     name, strerror(errno));
		ss_free(it->fail_name);
		it->fail_name = name;
		return STEP_FAILED;
	}
	/*
	 * Read through a member stream, which delivers every decoded byte
	 * before a failure: a damaged member keeps its data and fails when
	 * it is read back, in its place, as a member read directly does.
	 */
	ms = ss_source_member_new(c->a);
	if (!ms) {
		fclose(fp);
		ss_free(name);
		return STEP_FATAL;
	}
	for (;;) {
		size_t k = 0;
		enum ss_io r = ss_stream_read(ms, it->spool_buf, CBUF_SIZE, &k);

		if (k > 0 && fwrite(it->spool_buf, 1, k, fp) != k) {
			ss_msg_error(it->msg, "cannot spool '%s' to a temporary file: %s",
				     name, strerror(errno));
			ss_stream_free(ms);
			fclose(fp);
			ss_free(it->fail_name);
			it->fail_name = name;
			return STEP_FAILED;
		}
		if (r == SS_IO_END)
			break;
		if (r == SS_IO_ERROR) {
			fail = ss_strdup(ss_stream_error(ms));
			if (!fail) {
				ss_stream_free(ms);
				fclose(fp);
				ss_free(name);
				return STEP_FATAL;
			}
			break;
		}
	}
	ss_stream_free(ms);
	sp = &c->q[c->qlen];
	memset(sp, 0, sizeof(*sp));
	sp->name = name;
	sp->fp = fp;
	sp->fail = fail;
	sp->held = held;
	if (held) {
		sp->dir = ss_strndup(dir, dl);
		if (!sp->dir) {
			spool_free(sp);
			return STEP_FATAL;
		}
	}
	c->qlen++;
	return STEP_AGAIN;
}

/* Make `s` (a decoded stream named `name`, owned) the current input. */
static enum step use_stream(struct ss_inputs *it, struct ss_stream *s, char *name,
			    bool nested)
{
	struct ss_stream *d;
	bool archive;

	if (!decode(s, &d, &archive)) {
		ss_free(name);
		return STEP_FATAL;
	}
	if (archive && nested) {
		ss_msg_error(it->msg, "'%s': archives inside archives are not read", name);
		ss_stream_free(d);
		ss_free(it->fail_name);
		it->fail_name = name;
		return STEP_FAILED;
	}
	if (archive) {
		enum step r = container_open(it, d, name);

		ss_free(name);
		return r;
	}
	it->cur = d;
	it->cur_name = name;
	d->name = name;
	return STEP_OK;
}

static enum step open_spooled(struct ss_inputs *it, struct spool *sp)
{
	struct ss_stream *s;
	char *name = sp->name, *fail = sp->fail;
	int fd;

	sp->name = sp->fail = NULL;
	fflush(sp->fp);
	fd = dup(fileno(sp->fp));
	spool_free(sp);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		ss_msg_error(it->msg, "cannot read back '%s': %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		ss_free(fail);
		ss_free(it->fail_name);
		it->fail_name = name;
		return STEP_FAILED;
	}
	s = ss_source_fd_new(fd, true);
	if (s && fail)
		s = ss_source_fail_after_new(s, fail);
	ss_free(fail);
	if (!s) {
		ss_free(name);
		return STEP_FATAL;
	}
	return use_stream(it, s, name, true);
}

/* The next input of the current archive; STEP_AGAIN once it is done. */
static enum step container_next(struct ss_inputs *it)
{
	struct container *c = it->ctr;

	for (;;) {
		struct archive_entry *e;
		const char *path, *base, *slash;
		size_t dl;
		char *name;
		int r;

		while (c->qhead < c->qlen && c->q[c->qhead].dropped)
			spool_free(&c->q[c->qhead++]);
		if (c->qhead < c->qlen && (!c->q[c->qhead].held || c->ended))
			return open_spooled(it, &c->q[c->qhead++]);
		if (c->qhead == c->qlen)
			c->qhead = c->qlen = 0;
		if (c->ended) {
			container_free(c);
			it->ctr = NULL;
			return STEP_AGAIN;
		}
		r = archive_read_next_header(c->a, &e);
		if (r == ARCHIVE_EOF) {
			c->ended = true;
			continue;
		}
		/*
		 * ARCHIVE_RETRY (a damaged header) could skip ahead to the next
		 * good one, but what lies between would be lost: the archive is
		 * reported as failed instead, once.
		 */
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			const char *why = archive_error_string(c->a);

			/* Held and spooled members are still read after this. */
			c->ended = true;
			ss_msg_error(it->msg, "cannot read archive '%s': %s", c->name,
				     why ? why : "damaged or truncated archive");
			set_fail_name(it, c->name);
			return it->fail_name ? STEP_FAILED : STEP_FATAL;
		}
		if (r == ARCHIVE_WARN && archive_error_string(c->a))
			ss_msg_warn(it->msg, "'%s': %s", c->name, archive_error_string(c->a));
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
		if (strcmp(base, RAW_NAME) == 0) {
			struct artdir *d = add_dir(c, path, dl);
			size_t i;

			if (!d)
				return STEP_FATAL;
			if (d->raw_seen)
				continue;
			d->raw_seen = true;
			for (i = c->qhead; i < c->qlen; i++)
				if (c->q[i].held && strlen(c->q[i].dir) == dl &&
				    memcmp(c->q[i].dir, path, dl) == 0)
					c->q[i].dropped = true;
		} else if (strcmp(base, REC_NAME) == 0) {
			struct artdir *d = find_dir(c, path, dl);

			if (d && (d->raw_seen || d->held))
				continue;
			d = add_dir(c, path, dl);
			if (!d)
				return STEP_FATAL;
			d->held = true;
			name = ss_join(c->name, ':', path);
			if (!name)
				return STEP_FATAL;
			r = spool_member(it, c, name, path, dl, true);
			if (r != STEP_AGAIN)
				return r;
			continue;
		} else if (in_artdir(c, path, dl, false) || companion(path, dl, base)) {
			continue;
		}
		name = ss_join(c->name, ':', path);
		if (!name)
			return STEP_FATAL;
		if (queue_live(c)) {
			r = spool_member(it, c, name, NULL, 0, false);
			if (r != STEP_AGAIN)
				return r;
			continue;
		} else {
			struct ss_stream *s = ss_source_member_new(c->a);

			if (!s) {
				ss_free(name);
				return STEP_FATAL;
			}
			return use_stream(it, s, name, true);
		}
	}
}

/* ---- files ---- */

static enum step open_file(struct ss_inputs *it, struct file_entry *fe)
{
	const char *shown = fe->path ? fe->path : stdin_name;
	struct ss_stream *s;
	char *name;
	int fd = 0;

	if (fe->err) {
		ss_msg_error(it->msg, "cannot read directory '%s': %s", shown,
			     strerror(fe->err));
		set_fail_name(it, shown);
		return it->fail_name ? STEP_FAILED : STEP_FATAL;
	}
	if (fe->path) {
		do
			fd = open(fe->path, O_RDONLY | O_CLOEXEC);
		while (fd < 0 && errno == EINTR);
		if (fd < 0) {
			ss_msg_error(it->msg, "cannot open '%s': %s", shown, strerror(errno));
			set_fail_name(it, shown);
			return it->fail_name ? STEP_FAILED : STEP_FATAL;
		}
	}
	name = ss_strdup(shown);
	if (!name) {
		if (fe->path)
			close(fd);
		return STEP_FATAL;
	}
	s = ss_source_fd_new(fd, fe->path != NULL);
	if (!s) {
		ss_free(name);
		return STEP_FATAL;
	}
	return use_stream(it, s, name, false);
}

/* ---- the iterator ---- */

struct ss_inputs *ss_inputs_new(const char *const *paths, size_t n,
				const struct ss_inputs_opts *opts, struct ss_msg *msg)
{
	struct ss_inputs *it = ss_calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->paths = paths;
	it->npaths = n;
	it->recursive = opts && opts->recursive;
	it->msg = msg;
	it->spool_buf = ss_malloc(CBUF_SIZE);
	if (!it->spool_buf) {
		ss_free(it);
		return NULL;
	}
	return it;
}

static void drop_current(struct ss_inputs *it)
{
	ss_stream_free(it->cur);
	it->cur = NULL;
	ss_free(it->cur_name);
	it->cur_name = NULL;
}

void ss_inputs_free(struct ss_inputs *it)
{
	if (!it)
		return;
	drop_current(it);
	container_free(it->ctr);
	clear_files(it);
	ss_free(it->files);
	ss_free(it->fail_name);
	ss_free(it->spool_buf);
	ss_free(it);
}

enum ss_next ss_inputs_next(struct ss_inputs *it, struct ss_stream **out,
			    const char **name)
{
	size_t total = it->npaths ? it->npaths : 1;

	*out = NULL;
	*name = NULL;
	drop_current(it);
	for (;;) {
		enum step r;

		if (it->ctr) {
			r = container_next(it);
		} else if (it->next_file < it->nfiles) {
			struct file_entry fe = it->files[it->next_file++];

			r = open_file(it, &fe);
			ss_free(fe.path);
		} else if (it->next_path < total) {
			r = expand(it);
		} else {
			return SS_NEXT_END;
		}
		switch (r) {
		case STEP_OK:
			*out = it->cur;
			*name = it->cur_name;
			return SS_NEXT_OK;
		case STEP_FAILED:
			*name = it->fail_name;
			return SS_NEXT_FAILED;
		case STEP_FATAL:
			return SS_NEXT_FATAL;
		case STEP_AGAIN:
			break;
		}
	}
}
