#include "cli/outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>
#include <zstd.h>

#include "io/archive_lib.h"
#include "json/json.h"
#include "report/html.h"
#include "report/report.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/text.h"

static void render_json(struct ss_buf *out, const struct ss_agg *a,
			const struct ss_analysis *an, const struct ss_server_results *srv,
			const char *version)
{
	ss_report_json(out, a, an, srv, version);
}

static void render_csv(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		       const struct ss_server_results *srv, const char *version)
{
	(void)version;
	ss_report_csv(out, a, an, srv);
}

/* The libraries' versions as --version prints them, without the SIMD
 * implementation (a property of the machine, not of the build): the page
 * must not change from one host to another. */
static void render_html(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
			const struct ss_server_results *srv, const char *version)
{
	char libs[256];
	struct ss_html_opts o = {version, libs, srv};

	snprintf(libs, sizeof(libs), "simdjson %s, zstd %s, zlib %s, %s", ssj_version(),
		 ZSTD_versionString(), zlibVersion(),
		 ss_archive_lib_load(NULL, 0) ? archive_version_string() : "libarchive (not loaded)");
	ss_report_html(out, a, an, &o);
}

static void render_profile(struct ss_buf *out, const struct ss_agg *a,
			   const struct ss_analysis *an, const struct ss_server_results *srv,
			   const char *version)
{
	(void)srv;
	(void)version;
	ss_report_profile(out, a, an);
}

/* One row per kind, indexed by enum ss_out_kind. */
static const struct {
	const char *dir_name;     /* its file in an --output-dir; NULL: none */
	/* Render from the finished aggregate; NULL: streamed during the run. */
	void (*render)(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		       const struct ss_server_results *srv, const char *version);
} ss_out_kinds[SS_OUT_KINDS] = {
	[SS_OUT_JSON] = {"spec_decode.json", render_json},
	[SS_OUT_CSV] = {"spec_decode.csv", render_csv},
	[SS_OUT_RECORDS] = {"spec_decode_records.jsonl", NULL},
	[SS_OUT_HTML] = {"spec_decode.html", render_html},
	[SS_OUT_PROFILE] = {NULL, render_profile},
	[SS_OUT_FLAT] = {NULL, NULL},
};

void ss_outputs_init(struct ss_outputs *l, bool force, const char *const *inputs,
		     size_t ninputs)
{
	memset(l, 0, sizeof(*l));
	l->tail = &l->head;
	l->force = force;
	l->inputs = inputs;
	l->ninputs = ninputs;
	for (int k = 0; k < SS_OUT_KINDS; k++)
		ss_buf_init(&l->text[k]);
	ss_buf_init(&l->stdout_text);
}

bool ss_outputs_add(struct ss_outputs *l, enum ss_out_kind kind, const char *path,
		    struct ss_msg *msg)
{
	struct ss_output *out = ss_calloc(1, sizeof(*out));

	if (!out) {
		ss_msg_error(msg, "out of memory");
		return false;
	}
	out->kind = kind;
	if (!ss_outfile_open(&out->file, path, l->force, l->inputs, l->ninputs, msg)) {
		ss_free(out);
		return false;
	}
	*l->tail = out;
	l->tail = &out->next;
	l->n++;
	return true;
}

bool ss_outputs_add_dir(struct ss_outputs *l, const char *dir, struct ss_msg *msg)
{
	struct stat st;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		ss_msg_error(msg, "cannot create directory '%s': %s", dir, strerror(errno));
		return false;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		ss_msg_error(msg, "'%s' is not a directory", dir);
		return false;
	}
	for (int k = 0; k < SS_OUT_KINDS; k++) {
		char *p;
		bool ok;

		if (!ss_out_kinds[k].dir_name ||
		    (k == SS_OUT_RECORDS && l->dir_no_records))
			continue;
		p = ss_path_join(dir, ss_out_kinds[k].dir_name);
		if (!p) {
			ss_msg_error(msg, "out of memory");
			return false;
		}
		ok = ss_outputs_add(l, (enum ss_out_kind)k, p, msg);
		ss_free(p);
		if (!ok)
			return false;
	}
	return true;
}

bool ss_outputs_want(const struct ss_outputs *l, enum ss_out_kind kind)
{
	for (const struct ss_output *o = l->head; o; o = o->next)
		if (o->kind == kind)
			return true;
	return false;
}

bool ss_outputs_write(struct ss_outputs *l, enum ss_out_kind kind, const char *data,
		      size_t len)
{
	bool ok = true;

	for (struct ss_output *o = l->head; o; o = o->next)
		if (o->kind == kind && !ss_outfile_write(&o->file, data, len))
			ok = false;
	return ok;
}

bool ss_outputs_render(struct ss_outputs *l, const struct ss_agg *agg,
		       const struct ss_analysis *an, const char *version, struct ss_msg *msg)
{
	bool ok = true;

	for (int k = 0; k < SS_OUT_KINDS; k++) {
		ss_buf_reset(&l->text[k]);
		if (ss_out_kinds[k].render && ss_outputs_want(l, (enum ss_out_kind)k)) {
			ss_out_kinds[k].render(&l->text[k], agg,
					       k == SS_OUT_HTML && l->html_analysis ? l->html_analysis : an,
					       l->server, version);
			if (l->text[k].failed)
				ok = false;
		}
	}
	if (!ok)
		ss_msg_error(msg, "out of memory");
	return ok;
}

void ss_outputs_take_stdout(struct ss_outputs *l, struct ss_buf *text)
{
	ss_buf_release(&l->stdout_text);
	l->stdout_text = *text;
	ss_buf_init(text);
}

void ss_outputs_report_failed(const struct ss_outputs *l, struct ss_msg *msg)
{
	for (const struct ss_output *o = l->head; o; o = o->next) {
		const struct ss_outfile *f = &o->file;

		if (!f->failed)
			continue;
		if (f->is_stdout)
			ss_msg_error(msg, "cannot write to standard output: %s", strerror(f->err));
		else
			ss_msg_error(msg, "cannot write '%s': %s", f->path, strerror(f->err));
	}
}

enum stage { FILES, DEVICES, STDOUT };

static enum stage stage_of(const struct ss_outfile *f)
{
	return f->is_stdout ? STDOUT : f->direct ? DEVICES : FILES;
}

/* Write the rendered reports into the outputs of one stage and finish them. */
static bool finish_stage(struct ss_outputs *l, enum stage st, struct ss_msg *msg)
{
	bool ok = true;

	if (st == STDOUT && (l->stdout_text.failed ||
			     fwrite(l->stdout_text.data ? l->stdout_text.data : "", 1,
				    l->stdout_text.len, stdout) != l->stdout_text.len)) {
		ss_msg_error(msg, "cannot write to standard output: %s",
			     l->stdout_text.failed ? "out of memory" : strerror(errno));
		return false;
	}
	for (struct ss_output *o = l->head; o; o = o->next) {
		if (!o->file.path || stage_of(&o->file) != st)
			continue;
		if (ss_out_kinds[o->kind].render)
			ss_outfile_write(&o->file, l->text[o->kind].data, l->text[o->kind].len);
		if (!ss_outfile_finish(&o->file, msg))
			ok = false;
	}
	if (ok && st == STDOUT && (fflush(stdout) != 0 || ferror(stdout))) {
		ss_msg_error(msg, "cannot write to standard output: %s", strerror(errno));
		ok = false;
	}
	return ok;
}

/*
 * Exit status 3 means nothing was written (SPEC 5), so nothing is put in
 * place before every output is known to be complete: first every file is
 * written to its temporary file, flushed and synced; then devices and
 * FIFOs; then standard output; only then are the files renamed over their
 * targets. A failure before the renames removes every temporary file.
 */
bool ss_outputs_commit(struct ss_outputs *l, struct ss_msg *msg)
{
	bool ok = true;

	for (enum stage st = FILES; ok && st <= STDOUT; st++)
		ok = finish_stage(l, st, msg);
	if (!ok) {
		for (struct ss_output *o = l->head; o; o = o->next)
			ss_outfile_abort(&o->file);
		if (l->n > 1 || l->stdout_text.len)
			ss_msg_error(msg, "nothing written (the outputs are written all together or not at all)");
		return false;
	}
	for (struct ss_output *o = l->head; o; o = o->next)
		if (!ss_outfile_place(&o->file, msg))
			ok = false;
	return ok;
}

void ss_outputs_release(struct ss_outputs *l)
{
	struct ss_output *o = l->head;

	while (o) {
		struct ss_output *next = o->next;

		ss_outfile_abort(&o->file);   /* nothing left to remove after a commit */
		ss_free(o);
		o = next;
	}
	l->head = NULL;
	l->tail = &l->head;
	l->n = 0;
	for (int k = 0; k < SS_OUT_KINDS; k++)
		ss_buf_release(&l->text[k]);
	ss_buf_release(&l->stdout_text);
}

void ss_outputs_abort(struct ss_outputs *l)
{
	ss_outputs_release(l);
}
