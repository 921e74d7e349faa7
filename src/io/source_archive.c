/*
 * source_archive.c - everything read through libarchive:
 *  - ss_archive_open(): a reader over one of our streams, either for
 *    archive formats (tar, zip, cpio, 7z, ...) or, with `raw_filter_only`,
 *    for the "raw" format alone, i.e. libarchive as a pure decompressor;
 *  - the filter stream: xz, bzip2, lz4, lzma, lzip, compress, ... data
 *    decoded by libarchive's filters (the raw format's single entry);
 *  - the member stream: the data of the current entry of an archive.
 */
#include "io/source.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/archive_lib.h"
#include "util/alloc.h"


static la_ssize_t src_read(struct archive *a, void *data, const void **out)
{
	struct ss_archive_src *src = data;
	size_t k = 0;
	enum ss_io r = ss_stream_read(src->inner, src->cbuf, src->cbuf_size, &k);

	if (r == SS_IO_ERROR) {
		archive_set_error(a, EIO, "%s", ss_stream_error(src->inner));
		return -1;
	}
	*out = src->cbuf;
	return (la_ssize_t)k;
}

/*
 * The fd is ahead of the stream by the peeked bytes not yet read; after a
 * seek they are stale and dropped.
 */
static la_int64_t src_seek(struct archive *a, void *data, la_int64_t off, int whence)
{
	struct ss_archive_src *src = data;
	struct ss_stream *s = src->inner;
	off_t r;

	(void)a;
	if (whence == SEEK_CUR)
		off -= (la_int64_t)(s->peek_len - s->peek_off);
	s->peek_off = s->peek_len = 0;
	s->peek_state = SS_IO_OK;
	r = lseek(src->seek_fd, (off_t)off, whence);
	return r < 0 ? ARCHIVE_FATAL : (la_int64_t)r;
}

struct archive *ss_archive_open(struct ss_archive_src *src, bool raw_filter_only,
				char *why, size_t why_size)
{
	struct archive *a;

	why[0] = '\0';
	if (!ss_archive_lib_load(why, why_size))
		return NULL;
	a = archive_read_new();
	if (!a)
		return NULL;
	archive_read_support_filter_all(a);
	if (raw_filter_only) {
		archive_read_support_format_raw(a);
	} else {
		archive_read_support_format_all(a);
	}
	archive_read_set_read_callback(a, src_read);
	if (src->seek_fd >= 0 && !raw_filter_only)
		archive_read_set_seek_callback(a, src_seek);
	archive_read_set_callback_data(a, src);
	if (archive_read_open1(a) != ARCHIVE_OK) {
		snprintf(why, why_size, "%s", archive_error_string(a) ?
			 archive_error_string(a) : "cannot open archive");
		archive_read_free(a);
		return NULL;
	}
	return a;
}

/* ---- member stream ---- */

/*
 * Members are read block by block (archive_read_data_block), not with
 * archive_read_data(): that one fills the caller's buffer from several
 * blocks and, when a later block fails (a truncated tar, a zip whose size
 * is wrong), returns only the error, and the bytes of the blocks before it
 * are lost. Block by block, every byte libarchive decoded is delivered
 * before the failure. Holes of sparse members read as zeros.
 */
struct member_stream {
	struct ss_stream s;
	struct archive *a;
	const unsigned char *blk;   /* libarchive's, valid until its next call */
	size_t blk_len, blk_pos;
	la_int64_t pos;             /* member offset of the next byte delivered */
	la_int64_t blk_off;         /* member offset of blk[0] */
	bool warned;                /* fail with `warning` after this block */
	char warning[200];
};

static enum ss_io member_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct member_stream *ms = (struct member_stream *)s;

	while (ms->blk_pos == ms->blk_len) {
		const void *b;
		size_t len;
		la_int64_t off;
		int r;

		if (ms->warned)
			return ss_stream_fail(s, "%s", ms->warning);
		r = archive_read_data_block(ms->a, &b, &len, &off);
		if (r == ARCHIVE_EOF)
			return SS_IO_END;
		if (r < ARCHIVE_OK) {
			const char *e = archive_error_string(ms->a);

			if (r < ARCHIVE_WARN)
				return ss_stream_fail(s, "%s", e ? e : "archive read error");
			/*
			 * A warning (a zip member of the wrong size, a bad
			 * checksum) fails the member too, after its data.
			 */
			snprintf(ms->warning, sizeof(ms->warning), "%s",
				 e ? e : "archive read warning");
			ms->warned = true;
			if (len == 0)
				continue;
		}
		if (off < ms->pos)
			return ss_stream_fail(s, "archive member data out of order");
		ms->blk = b;
		ms->blk_len = len;
		ms->blk_pos = 0;
		ms->blk_off = off;
	}
	if (ms->pos < ms->blk_off) {   /* a hole before the block */
		la_int64_t hole = ms->blk_off - ms->pos;
		size_t k = (la_int64_t)n < hole ? n : (size_t)hole;

		memset(buf, 0, k);
		ms->pos += (la_int64_t)k;
		*got = k;
		return SS_IO_OK;
	}
	{
		size_t k = ms->blk_len - ms->blk_pos;

		if (k > n)
			k = n;
		memcpy(buf, ms->blk + ms->blk_pos, k);
		ms->blk_pos += k;
		ms->pos += (la_int64_t)k;
		*got = k;
	}
	return SS_IO_OK;
}

static void member_destroy(struct ss_stream *s)
{
	ss_free(s);
}

static const struct ss_stream_ops member_ops = {member_read, member_destroy, NULL};

struct ss_stream *ss_source_member_new(struct archive *a)
{
	struct member_stream *ms = ss_calloc(1, sizeof(*ms));

	if (!ms)
		return NULL;
	ss_stream_setup(&ms->s, &member_ops, NULL);
	ms->a = a;
	return &ms->s;
}

/* ---- filter stream ---- */

struct filter_stream {
	struct ss_stream s;
	struct ss_archive_src src;
	struct archive *a;
	bool opened;
};

static bool decodes(struct archive *a)
{
	int i, n = archive_filter_count(a);

	for (i = 0; i < n; i++)
		if (archive_filter_code(a, i) != ARCHIVE_FILTER_NONE)
			return true;
	return false;
}

static enum ss_io filter_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct filter_stream *fs = (struct filter_stream *)s;
	la_ssize_t k;

	if (!fs->opened) {
		char why[200];
		struct archive_entry *e;
		int r;

		fs->opened = true;
		fs->a = ss_archive_open(&fs->src, true, why, sizeof(why));
		if (!fs->a)
			return ss_stream_fail(s, "%s", why[0] ? why : "out of memory");
		r = archive_read_next_header(fs->a, &e);
		if (r == ARCHIVE_EOF)
			return SS_IO_END;
		if (r < ARCHIVE_WARN) {
			const char *m = archive_error_string(fs->a);

			return ss_stream_fail(s, "%s", m ? m : "cannot decompress");
		}
		/* Only "none" filters: libarchive cannot decode this. */
		if (!decodes(fs->a))
			return ss_stream_fail(s, "unsupported compression format");
	}
	k = archive_read_data(fs->a, buf, n);
	if (k < 0) {
		const char *m = archive_error_string(fs->a);

		return ss_stream_fail(s, "%s", m ? m : "corrupt compressed data");
	}
	*got = (size_t)k;
	return k == 0 ? SS_IO_END : SS_IO_OK;
}

static void filter_destroy(struct ss_stream *s)
{
	struct filter_stream *fs = (struct filter_stream *)s;

	if (fs->a)
		archive_read_free(fs->a);
	ss_free(fs->src.cbuf);
	ss_free(fs);
}

static const struct ss_stream_ops filter_ops = {filter_read, filter_destroy, NULL};

struct ss_stream *ss_source_filter_new(struct ss_stream *inner)
{
	struct filter_stream *fs = ss_calloc(1, sizeof(*fs));

	if (!fs) {
		ss_stream_free(inner);
		return NULL;
	}
	ss_stream_setup(&fs->s, &filter_ops, inner);
	fs->src.inner = inner;
	fs->src.seek_fd = -1;
	fs->src.cbuf_size = ss_source_buffer_size();
	fs->src.cbuf = ss_malloc(fs->src.cbuf_size);
	if (!fs->src.cbuf) {
		ss_stream_free(&fs->s);
		return NULL;
	}
	return &fs->s;
}
