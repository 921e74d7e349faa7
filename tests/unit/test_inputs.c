/*
 * test_inputs.c - SPEC 1.1: paths to decoded streams. Every compressed or
 * archived fixture is written at test time, in a temporary directory, by
 * the libraries' own writers (libzstd, zlib, libarchive). Each run is
 * turned into a transcript "NAME=CONTENT" per input ("FAILED NAME" for a
 * failed input, "!ERROR" after the content of a stream that failed) and
 * compared with one written by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "io/inputs.h"
#include "io/source.h"
#include "util/alloc.h"
#include "util/buf.h"

static char tmpdir[256];

/* ---- fixture writers ---- */

static const char *tpath(const char *rel)
{
	static char bufs[8][PATH_MAX];
	static int next;
	char *p = bufs[next++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", tmpdir, rel);
	return p;
}

static void mkdirs(const char *rel)
{
	char p[PATH_MAX];
	size_t i;

	snprintf(p, sizeof(p), "%s/%s", tmpdir, rel);
	for (i = strlen(tmpdir) + 1; p[i]; i++)
		if (p[i] == '/') {
			p[i] = '\0';
			mkdir(p, 0700);
			p[i] = '/';
		}
	mkdir(p, 0700);
}

static void put(const char *rel, const void *data, size_t len)
{
	FILE *fp = fopen(tpath(rel), "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static void puts_file(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

/* Append one zstd frame of `text` to `out`. */
static void zstd_frame(struct ss_buf *out, const char *text)
{
	size_t n = strlen(text), cap = ZSTD_compressBound(n);
	size_t k;

	assert_true(ss_buf_grow(out, cap));
	k = ZSTD_compress(out->data + out->len, cap, text, n, 3);
	assert_false(ZSTD_isError(k));
	ss_buf_setlen(out, out->len + k);
}

/* Append one gzip member of `text` to `out`. */
static void gzip_member(struct ss_buf *out, const char *text)
{
	z_stream z;
	unsigned char tmp[4096];

	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)text;
	z.avail_in = (uInt)strlen(text);
	for (;;) {
		int r;

		z.next_out = tmp;
		z.avail_out = sizeof(tmp);
		r = deflate(&z, Z_FINISH);
		ss_buf_add(out, tmp, sizeof(tmp) - z.avail_out);
		if (r == Z_STREAM_END)
			break;
		assert_int_equal(r, Z_OK);
	}
	deflateEnd(&z);
}

enum mtype { M_FILE, M_DIR, M_LINK };

struct member {
	const char *name;
	const char *data;   /* M_FILE: content; M_LINK: target */
	size_t len;         /* 0: strlen(data) */
	enum mtype type;
};

/* Write an archive (or, with ARCHIVE_FORMAT_RAW, a compressed file). */
static void write_archive(const char *rel, int format, int filter,
			  const struct member *m, size_t n)
{
	struct archive *a = archive_write_new();
	size_t i;

	assert_non_null(a);
	assert_int_equal(archive_write_set_format(a, format), ARCHIVE_OK);
	if (filter != ARCHIVE_FILTER_NONE)
		assert_int_equal(archive_write_add_filter(a, filter), ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, tpath(rel)), ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t len = m[i].len ? m[i].len : (m[i].data ? strlen(m[i].data) : 0);

		archive_entry_set_pathname(e, m[i].name);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_mtime(e, 1700000000, 0);
		if (m[i].type == M_DIR) {
			archive_entry_set_filetype(e, AE_IFDIR);
			archive_entry_set_perm(e, 0755);
			archive_entry_set_size(e, 0);
		} else if (m[i].type == M_LINK) {
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_symlink(e, m[i].data);
			archive_entry_set_size(e, 0);
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_size(e, (la_int64_t)len);
		}
		if (archive_write_header(a, e) != ARCHIVE_OK)
			fail_msg("%s: %s: %s", rel, m[i].name, archive_error_string(a));
		if (m[i].type == M_FILE && len)
			assert_int_equal(archive_write_data(a, m[i].data, len), (la_ssize_t)len);
		archive_entry_free(e);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

static void compressed(const char *rel, int filter, const char *text)
{
	struct member m = {"data", text, 0, M_FILE};

	write_archive(rel, ARCHIVE_FORMAT_RAW, filter, &m, 1);
}

/* ---- running the iterator ---- */

struct result {
	char *text;         /* transcript */
	char *msgs;         /* what went through ss_msg */
};

static void read_all(struct ss_buf *t, struct ss_stream *s)
{
	char buf[7];   /* small reads cross every boundary */

	for (;;) {
		size_t got = 0;
		enum ss_io r = ss_stream_read(s, buf, sizeof(buf), &got);

		ss_buf_add(t, buf, got);
		if (r == SS_IO_END)
			break;
		if (r == SS_IO_ERROR) {
			ss_buf_addf(t, "!%s", ss_stream_error(s));
			break;
		}
		assert_true(got > 0);
	}
}

/* Transcript of all inputs; names under tmpdir are shown relative. */
static void run(struct result *res, const char *const *paths, size_t n, bool recursive)
{
	struct ss_inputs_opts o = {.recursive = recursive};
	struct ss_buf t = SS_BUF_INIT;
	struct ss_msg msg;
	struct ss_inputs *it;
	size_t mlen = 0, skip = strlen(tmpdir) + 1;
	FILE *mf;

	res->msgs = NULL;
	mf = open_memstream(&res->msgs, &mlen);
	assert_non_null(mf);
	ss_msg_init(&msg, mf, SS_NORMAL);
	it = ss_inputs_new(paths, n, &o, &msg);
	assert_non_null(it);
	ss_buf_adds(&t, "");
	for (;;) {
		struct ss_stream *s = NULL;
		const char *name = NULL;
		enum ss_next r = ss_inputs_next(it, &s, &name);

		if (r == SS_NEXT_END)
			break;
		assert_int_not_equal(r, SS_NEXT_FATAL);
		assert_non_null(name);
		if (r == SS_NEXT_OK)
			assert_string_equal(ss_stream_name(s), name);
		if (strncmp(name, tmpdir, skip - 1) == 0)
			name += skip;
		if (r == SS_NEXT_FAILED) {
			ss_buf_addf(&t, "FAILED %s\n", name);
			continue;
		}
		ss_buf_addf(&t, "%s=", name);
		read_all(&t, s);
		ss_buf_addc(&t, '\n');
	}
	ss_inputs_free(it);
	fclose(mf);
	assert_false(t.failed);
	res->text = t.data;
}

static void expect(const char *const *paths, size_t n, bool recursive, const char *want)
{
	struct result r;

	run(&r, paths, n, recursive);
	if (strcmp(r.text, want) != 0)
		fail_msg("got:\n%s\nwanted:\n%s\nmessages:\n%s", r.text, want, r.msgs);
	ss_free(r.text);
	free(r.msgs);
}

/* ---- tests ---- */

static void test_plain_and_missing(void **state)
{
	const char *p[3];
	struct result r;
	char want[PATH_MAX + 100];

	(void)state;
	puts_file("a.jsonl", "{\"a\":1}\n");
	puts_file("b.jsonl", "{\"b\":1}");
	p[0] = tpath("a.jsonl");
	p[1] = tpath("missing.jsonl.zst");
	p[2] = tpath("b.jsonl");
	run(&r, p, 3, false);
	assert_string_equal(r.text, "a.jsonl={\"a\":1}\n\nFAILED missing.jsonl.zst\nb.jsonl={\"b\":1}\n");
	snprintf(want, sizeof(want),
		 "specscan: cannot open '%s/missing.jsonl.zst': No such file or directory\n",
		 tmpdir);
	assert_string_equal(r.msgs, want);
	ss_free(r.text);
	free(r.msgs);
}

static void test_zstd_gzip(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	const char *p[2];

	(void)state;
	/* zstd: two concatenated frames are one stream; the name is no hint */
	zstd_frame(&b, "{\"n\":1}\n");
	zstd_frame(&b, "{\"n\":2}\n");
	put("two.jsonl", b.data, b.len);
	ss_buf_reset(&b);
	/* gzip: two members, then padding zeros */
	gzip_member(&b, "{\"g\":1}\n");
	gzip_member(&b, "{\"g\":2}\n");
	ss_buf_add(&b, "\0\0\0", 3);
	put("two.gz", b.data, b.len);
	p[0] = tpath("two.jsonl");
	p[1] = tpath("two.gz");
	expect(p, 2, false,
	       "two.jsonl={\"n\":1}\n{\"n\":2}\n\n"
	       "two.gz={\"g\":1}\n{\"g\":2}\n\n");
	ss_buf_release(&b);
}

static void test_truncated(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	size_t first;
	const char *p[3];

	(void)state;
	/* the second frame is cut inside its header: no data of it is out */
	zstd_frame(&b, "{\"good\":1}\n");
	first = b.len;
	zstd_frame(&b, "{\"lost\":1}\n");
	put("cut.zst", b.data, first + 6);
	ss_buf_reset(&b);
	/* the second member keeps only its 10-byte header */
	gzip_member(&b, "{\"good\":2}\n");
	first = b.len;
	gzip_member(&b, "{\"lost\":2}\n");
	put("cut.gz", b.data, first + 10);
	ss_buf_reset(&b);
	/* garbage after a gzip member */
	gzip_member(&b, "{\"good\":3}\n");
	ss_buf_add(&b, "junk", 4);
	put("junk.gz", b.data, b.len);
	p[0] = tpath("cut.zst");
	p[1] = tpath("cut.gz");
	p[2] = tpath("junk.gz");
	expect(p, 3, false,
	       "cut.zst={\"good\":1}\n!truncated zstd frame (unexpected end of input)\n"
	       "cut.gz={\"good\":2}\n!truncated gzip data (unexpected end of input)\n"
	       "junk.gz={\"good\":3}\n!corrupt gzip data: trailing garbage after the last member\n");
	ss_buf_release(&b);
}

static void test_libarchive_filters(void **state)
{
	const char *p[4];

	(void)state;
	compressed("f.xz", ARCHIVE_FILTER_XZ, "{\"xz\":1}\n");
	compressed("f.bz2", ARCHIVE_FILTER_BZIP2, "{\"bz2\":1}\n");
	compressed("f.lz4", ARCHIVE_FILTER_LZ4, "{\"lz4\":1}\n");
	compressed("f.lzma", ARCHIVE_FILTER_LZMA, "{\"lzma\":1}\n");
	p[0] = tpath("f.xz");
	p[1] = tpath("f.bz2");
	p[2] = tpath("f.lz4");
	p[3] = tpath("f.lzma");
	expect(p, 4, false,
	       "f.xz={\"xz\":1}\n\n"
	       "f.bz2={\"bz2\":1}\n\n"
	       "f.lz4={\"lz4\":1}\n\n"
	       "f.lzma={\"lzma\":1}\n\n");
}

/* Members of a capture archive; one is zstd, one gzip, one xz inside. */
static struct ss_buf zmember, gmember, xmember;

static void slurp(struct ss_buf *b, const char *rel)
{
	char tmp[4096];
	size_t k;
	FILE *fp = fopen(tpath(rel), "rb");

	assert_non_null(fp);
	ss_buf_reset(b);
	while ((k = fread(tmp, 1, sizeof(tmp), fp)) > 0)
		ss_buf_add(b, tmp, k);
	fclose(fp);
}

static void archive_members(struct member *m)
{
	ss_buf_reset(&zmember);
	zstd_frame(&zmember, "{\"z\":1}\n");
	ss_buf_reset(&gmember);
	gzip_member(&gmember, "{\"g\":1}\n");
	compressed("member.xz", ARCHIVE_FILTER_XZ, "{\"x\":1}\n");
	slurp(&xmember, "member.xz");
	m[6] = (struct member){"d.xz", xmember.data, xmember.len, M_FILE};
	m[0] = (struct member){"runs", NULL, 0, M_DIR};
	m[1] = (struct member){"runs/a.jsonl", "{\"a\":1}\n", 0, M_FILE};
	m[2] = (struct member){"runs/link.jsonl", "a.jsonl", 0, M_LINK};
	m[3] = (struct member){"runs/b.jsonl.zst", zmember.data, zmember.len, M_FILE};
	m[4] = (struct member){"c.jsonl.gz", gmember.data, gmember.len, M_FILE};
	m[5] = (struct member){"empty.jsonl", "", 0, M_FILE};
}

static void test_archives(void **state)
{
	struct member m[7];
	const char *p[5];
	static const char body[] =
		"=runs/a.jsonl={\"a\":1}\n\n"
		"=runs/b.jsonl.zst={\"z\":1}\n\n"
		"=c.jsonl.gz={\"g\":1}\n\n"
		"=empty.jsonl=\n"
		"=d.xz={\"x\":1}\n\n";
	struct ss_buf want = SS_BUF_INIT;
	const char *names[] = {"x.tar", "x.tar.zst", "x.tgz", "x.zip", "x.cpio.xz"};
	size_t i;

	(void)state;
	archive_members(m);
	write_archive("x.tar", ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE, m, 7);
	write_archive("x.tar.zst", ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_ZSTD, m, 7);
	write_archive("x.tgz", ARCHIVE_FORMAT_TAR_GNUTAR, ARCHIVE_FILTER_GZIP, m, 7);
	write_archive("x.zip", ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, m, 7);
	write_archive("x.cpio.xz", ARCHIVE_FORMAT_CPIO_SVR4_NOCRC, ARCHIVE_FILTER_XZ, m, 7);
	ss_buf_adds(&want, "");
	for (i = 0; i < 5; i++) {
		const char *s = body;

		p[i] = tpath(names[i]);
		/* each line of `body` starts with '=': put the archive's name there */
		while (*s) {
			const char *e = strchr(s, '\n');

			if (*s == '=') {
				ss_buf_adds(&want, names[i]);
				ss_buf_addc(&want, ':');
				s++;
			}
			ss_buf_add(&want, s, (size_t)(e - s) + 1);
			s = e + 1;
		}
	}
	expect(p, 5, false, want.data);
	ss_buf_release(&want);
}

static void test_corrupt_and_nested(void **state)
{
	struct member m[2] = {
		{"a.jsonl", "{\"a\":1}\n", 0, M_FILE},
		{"b.jsonl", "{\"b\":1}\n", 0, M_FILE},
	};
	struct member outer[2] = {
		{"inner.tar", NULL, 0, M_FILE},
		{"after.jsonl", "{\"after\":1}\n", 0, M_FILE},
	};
	char *data;
	size_t len;
	FILE *fp;
	const char *p[2];
	struct result r;

	(void)state;
	write_archive("bad.tar", ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE, m, 2);
	/* spoil the second header (after 512 + 512 bytes) beyond repair */
	fp = fopen(tpath("bad.tar"), "r+b");
	assert_non_null(fp);
	fseek(fp, 1024, SEEK_SET);
	fputs("this is no tar header at all, it is garbage......", fp);
	fclose(fp);
	/* a tar member that is a tar: not opened */
	write_archive("inner.tar", ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE, m, 1);
	fp = fopen(tpath("inner.tar"), "rb");
	assert_non_null(fp);
	data = malloc(1 << 16);
	assert_non_null(data);
	len = fread(data, 1, 1 << 16, fp);
	fclose(fp);
	outer[0].data = data;
	outer[0].len = len;
	write_archive("outer.tar", ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE, outer, 2);
	free(data);
	p[0] = tpath("bad.tar");
	p[1] = tpath("outer.tar");
	run(&r, p, 2, false);
	assert_string_equal(r.text,
			    "bad.tar:a.jsonl={\"a\":1}\n\n"
			    "FAILED bad.tar\n"
			    "FAILED outer.tar:inner.tar\n"
			    "outer.tar:after.jsonl={\"after\":1}\n\n");
	assert_non_null(strstr(r.msgs, "specscan: cannot read archive '"));
	assert_non_null(strstr(r.msgs, "outer.tar:inner.tar': archives inside archives are not read\n"));
	ss_free(r.text);
	free(r.msgs);
}

static void test_artifacts_in_tar(void **state)
{
	struct member m[] = {
		{"art/run1/inputs.json", "{\"inputs\":1}\n", 0, M_FILE},
		{"art/run1/profile_export.jsonl", "REC1\n", 0, M_FILE},
		{"art/run1/logs/aiperf.log", "log\n", 0, M_FILE},
		{"art/other.jsonl", "O\n", 0, M_FILE},
		{"art/run1/profile_export_raw.jsonl", "RAW1\n", 0, M_FILE},
		{"art/run1/profile_export_aiperf.json", "{}\n", 0, M_FILE},
		{"art/run2/profile_export.jsonl", "REC2\n", 0, M_FILE},
		{"art/run2/profile_export_aiperf.csv", "a,b\n", 0, M_FILE},
		{"art/run2/notes.txt", "skipped: inside an artifact dir\n", 0, M_FILE},
		{"art/last.jsonl", "L\n", 0, M_FILE},
		{"art/run3/profile_export_raw.jsonl", "RAW3\n", 0, M_FILE},
		{"art/run3/profile_export.jsonl", "REC3 comes too late\n", 0, M_FILE},
	};
	const char *p[1];

	(void)state;
	write_archive("art.tar.zst", ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_ZSTD,
		      m, sizeof(m) / sizeof(*m));
	p[0] = tpath("art.tar.zst");
	/*
	 * run1's records export waits and is dropped when its raw sibling
	 * comes; other.jsonl and the raw export keep their order. run2 has
	 * no raw export: its records export is read in its place, before
	 * last.jsonl.
	 */
	expect(p, 1, false,
	       "art.tar.zst:art/other.jsonl=O\n\n"
	       "art.tar.zst:art/run1/profile_export_raw.jsonl=RAW1\n\n"
	       "art.tar.zst:art/run2/profile_export.jsonl=REC2\n\n"
	       "art.tar.zst:art/last.jsonl=L\n\n"
	       "art.tar.zst:art/run3/profile_export_raw.jsonl=RAW3\n\n");
}

static void make_tree(void)
{
	struct ss_buf b = SS_BUF_INIT;

	mkdirs("tree/a/logs");
	mkdirs("tree/b");
	mkdirs("tree/c/d");
	mkdirs("tree/e");
	puts_file("tree/a/profile_export_raw.jsonl", "ARAW\n");
	puts_file("tree/a/profile_export.jsonl", "AREC\n");
	puts_file("tree/a/inputs.json", "{}\n");
	puts_file("tree/a/logs/aiperf.log", "log\n");
	puts_file("tree/a.x.jsonl", "AX\n");
	puts_file("tree/b/profile_export.jsonl", "B\n");
	puts_file("tree/c/d/profile_export_raw.jsonl", "CD\n");
	puts_file("tree/.hidden.jsonl", "hidden\n");
	gzip_member(&b, "Z\n");
	put("tree/z.jsonl.gz", b.data, b.len);
	ss_buf_release(&b);
}

static void test_directories(void **state)
{
	const char *p[2];
	struct result r;
	char want[PATH_MAX + 200];

	(void)state;
	make_tree();
	/*
	 * -r: byte-wise path order, one file per artifact dir, and nothing
	 * else: the loose a.x.jsonl and z.jsonl.gz are not inputs (SPEC 1.1)
	 */
	p[0] = tpath("tree");
	expect(p, 1, true,
	       "tree/a/profile_export_raw.jsonl=ARAW\n\n"
	       "tree/b/profile_export.jsonl=B\n\n"
	       "tree/c/d/profile_export_raw.jsonl=CD\n\n");
	/* an artifact directory, with or without -r, and a trailing slash */
	p[0] = tpath("tree/a/");
	p[1] = tpath("tree/b");
	expect(p, 2, false,
	       "tree/a/profile_export_raw.jsonl=ARAW\n\n"
	       "tree/b/profile_export.jsonl=B\n\n");
	expect(p, 2, true,
	       "tree/a/profile_export_raw.jsonl=ARAW\n\n"
	       "tree/b/profile_export.jsonl=B\n\n");
	/* a plain directory without -r is an input error; the next goes on */
	p[0] = tpath("tree");
	p[1] = tpath("tree/b");
	run(&r, p, 2, false);
	assert_string_equal(r.text, "FAILED tree\ntree/b/profile_export.jsonl=B\n\n");
	/* ... saying what it holds (the first five names in byte order, the
	 * hidden one left out: 6 in all) and how to pass them (SPEC 5) */
	snprintf(want, sizeof(want),
		 "specscan: '%s/tree' is a directory but not an AIPerf artifact "
		 "directory (no profile_export_raw.jsonl or profile_export.jsonl); "
		 "it holds a.x.jsonl, a/, b/, c/, e/ and 1 more; -r walks its "
		 "subdirectories for artifact directories; pass capture files by "
		 "name (%s/tree/*.jsonl, %s/tree/*.jsonl.gz)\n", tmpdir, tmpdir, tmpdir);
	assert_string_equal(r.msgs, want);
	ss_free(r.text);
	free(r.msgs);
	/* a tree without artifact directories is a failed input that says so */
	p[0] = tpath("tree/e");
	run(&r, p, 1, true);
	assert_string_equal(r.text, "FAILED tree/e\n");
	assert_non_null(strstr(r.msgs, "no AIPerf artifact directory found below it"));
	ss_free(r.text);
	free(r.msgs);
}

static void test_stdin(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	const char *dash[2] = {"-", NULL};
	int saved = dup(0), fd;

	(void)state;
	gzip_member(&b, "{\"in\":1}\n");
	put("stdin.gz", b.data, b.len);
	ss_buf_release(&b);
	fd = open(tpath("stdin.gz"), O_RDONLY);
	assert_true(fd >= 0);
	dup2(fd, 0);
	close(fd);
	expect(NULL, 0, false, "<stdin>={\"in\":1}\n\n");
	dash[1] = tpath("stdin.gz");
	lseek(0, 0, SEEK_SET);
	expect(dash, 2, false, "<stdin>={\"in\":1}\n\nstdin.gz={\"in\":1}\n\n");
	dup2(saved, 0);
	close(saved);
}

/* Every allocation may fail: the iterator says so and leaks nothing. */
static void test_out_of_memory(void **state)
{
	struct member m[] = {
		{"r/profile_export.jsonl", "REC\n", 0, M_FILE},
		{"x.jsonl", "X\n", 0, M_FILE},
		{"r/profile_export_raw.jsonl", "RAW\n", 0, M_FILE},
	};
	const char *p[3];
	uint64_t n;

	(void)state;
	write_archive("oom.tar.gz", ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_GZIP, m, 3);
	make_tree();
	p[0] = tpath("oom.tar.gz");
	p[1] = tpath("tree");
	p[2] = tpath("two.jsonl");   /* zstd, from test_zstd_gzip */
	for (n = 1; n < 1000; n++) {
		struct ss_inputs_opts o = {.recursive = true};
		struct ss_msg msg;
		struct ss_inputs *it;
		bool fatal = false;
		FILE *null = fopen("/dev/null", "w");

		ss_msg_init(&msg, null, SS_NORMAL);
		ss_alloc_fail_at(n, 1);
		it = ss_inputs_new(p, 3, &o, &msg);
		if (it) {
			for (;;) {
				struct ss_stream *s;
				const char *name;
				enum ss_next r = ss_inputs_next(it, &s, &name);
				char buf[64];
				size_t got;

				if (r == SS_NEXT_END)
					break;
				if (r == SS_NEXT_FATAL) {
					fatal = true;
					break;
				}
				if (r == SS_NEXT_OK)
					while (ss_stream_read(s, buf, sizeof(buf), &got) == SS_IO_OK)
						;
			}
		} else {
			fatal = true;
		}
		ss_alloc_fail_at(0, 0);
		ss_inputs_free(it);
		fclose(null);
		if (!fatal)
			break;
	}
	assert_true(n < 1000);
}

static int setup(void **state)
{
	const char *base = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_inputs.XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	ss_buf_release(&zmember);
	ss_buf_release(&gmember);
	ss_buf_release(&xmember);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_missing),
		cmocka_unit_test(test_zstd_gzip),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_libarchive_filters),
		cmocka_unit_test(test_archives),
		cmocka_unit_test(test_corrupt_and_nested),
		cmocka_unit_test(test_artifacts_in_tar),
		cmocka_unit_test(test_directories),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
