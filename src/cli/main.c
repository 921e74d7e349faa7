/*
 * main.c - specscan: read the inputs, run the pipeline, write the reports.
 */
#include <archive.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "cli/options.h"
#include "cli/outfile.h"
#include "cli/outputs.h"
#include "io/inputs.h"
#include "run/run.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "report/report.h"
#include "util/alloc.h"
#include "io/spool.h"
#include "util/buf.h"
#include "util/fileid.h"
#include "util/memplan.h"
#include "util/msg.h"
#include "util/stdfds.h"
#include <sys/stat.h>

enum { EXIT_OK = 0, EXIT_PARTIAL = 1, EXIT_USAGE = 2, EXIT_NOTHING = 3 };

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	if (stop_requested) {
		/* A second signal: leave now, without half-written files. */
		ss_outfile_abort_all_from_signal();
		_exit(EXIT_NOTHING);
	}
	stop_requested = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;  /* no SA_RESTART: a blocked read returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);   /* a closed pipe is a write error, reported */
}

static void print_version(void)
{
	printf("specscan %s\n", PACKAGE_VERSION);
	printf("simdjson %s (%s)\n", ssj_version(), ssj_implementation());
	printf("zstd %s\n", ZSTD_versionString());
	printf("zlib %s\n", zlibVersion());
	printf("%s\n", archive_version_details());
}

/* The outputs the options ask for, in the order their errors are reported:
 * stdout, --json, --csv, --records, then --output-dir. */
static bool open_outputs(struct ss_outputs *outs, const struct ss_options *o,
			 struct ss_msg *msg)
{
	if (o->format == SS_FMT_JSON && !ss_outputs_add(outs, SS_OUT_JSON, "-", msg))
		return false;
	if (o->format == SS_FMT_CSV && !ss_outputs_add(outs, SS_OUT_CSV, "-", msg))
		return false;
	if (o->format == SS_FMT_JSONL && !ss_outputs_add(outs, SS_OUT_RECORDS, "-", msg))
		return false;
	if (o->json_path && !ss_outputs_add(outs, SS_OUT_JSON, o->json_path, msg))
		return false;
	if (o->csv_path && !ss_outputs_add(outs, SS_OUT_CSV, o->csv_path, msg))
		return false;
	if (o->records_path && !ss_outputs_add(outs, SS_OUT_RECORDS, o->records_path, msg))
		return false;
	if (o->output_dir && !ss_outputs_add_dir(outs, o->output_dir, msg))
		return false;
	return true;
}

static bool records_sink(void *ctx, const char *data, size_t len)
{
	return ss_outputs_write(ctx, SS_OUT_RECORDS, data, len);
}

static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static bool color_allowed(int fd)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(fd) && !(nc && *nc);
}

/*
 * The default -j: the CPUs this process may run on (its affinity, so
 * taskset and cpusets count; else the online ones), less one for the
 * reading thread, which also parses whenever it is ahead (run/pool.h). So
 * the busy threads never outnumber the cores.
 */
static int default_threads(void)
{
	long n = -1;
#ifdef CPU_COUNT
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
#endif
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	n -= 1;
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* How many outputs go to standard output. */
static int stdout_outputs(const struct ss_options *o, const char **what)
{
	int n = 0;

	*what = NULL;
	if (o->format != SS_FMT_NONE) {
		n++;
		*what = "-f";
	}
	if (o->json_path && strcmp(o->json_path, "-") == 0 && ++n)
		*what = *what ? *what : "--json -";
	if (o->csv_path && strcmp(o->csv_path, "-") == 0 && ++n)
		*what = *what ? *what : "--csv -";
	if (o->records_path && strcmp(o->records_path, "-") == 0 && ++n)
		*what = *what ? *what : "--records -";
	return n;
}

/*
 * The files the run must never read: every output that exists as a
 * regular file (hard links and other names of it included, by device and
 * inode), and standard output when it is a regular file and written to.
 */
static bool output_ids(const struct ss_outputs *outs, bool to_stdout, struct ss_fileids *ids)
{
	struct stat st;

	for (const struct ss_output *e = outs->head; e; e = e->next) {
		if (e->file.is_stdout || !e->file.path)
			continue;
		if (stat(e->file.path, &st) == 0 && S_ISREG(st.st_mode) &&
		    !ss_fileids_add(ids, st.st_dev, st.st_ino, e->file.path))
			return false;
	}
	if (to_stdout && fstat(1, &st) == 0 && S_ISREG(st.st_mode) &&
	    !ss_fileids_add(ids, st.st_dev, st.st_ino, "standard output"))
		return false;
	return true;
}

/*
 * --memory-limit (default: half of the memory the process may use): lower
 * the threads, then the record limit, until README's bound fits. false
 * after a usage error.
 */
static bool fit_memory(struct ss_options *o, struct ss_msg *msg)
{
	uint64_t limit = o->memory_limit ? o->memory_limit : ss_mem_default_limit(), min;
	struct ss_memplan p;

	if (!o->threads)
		o->threads = default_threads();
	if (!limit)
		return true;
	if (!ss_memplan_fit(limit, (unsigned)o->threads, o->max_record, &p, &min)) {
		if (!o->memory_limit)
			return true;   /* a tiny machine: run as asked */
		fprintf(stderr, "specscan: --memory-limit is too small: at least %llu bytes "
				"(%llu MiB) are needed\n"
				"Try 'specscan --help' for more information.\n",
			(unsigned long long)min, (unsigned long long)((min + (1 << 20) - 1) >> 20));
		return false;
	}
	if (p.threads_lowered)
		ss_msg_info(msg, "memory limit: %u worker threads instead of %d", p.threads,
			    o->threads);
	if (p.record_lowered) {
		if (o->memory_limit || o->max_record_given)
			ss_msg_warn(msg, "memory limit: records longer than %llu bytes are "
				    "oversize (--memory-limit)", (unsigned long long)p.max_record);
		else
			ss_msg_info(msg, "memory limit: records longer than %llu bytes are "
				    "oversize (--memory-limit)", (unsigned long long)p.max_record);
	}
	o->threads = (int)p.threads;
	o->max_record = (size_t)p.max_record;
	return true;
}

/* --list-inputs: the resolved units (of the shard), one a line. */
static int list_inputs(const struct ss_options *o)
{
	struct ss_inputs_opts io = {.recursive = o->recursive, .resolve = true,
				    .shard_index = o->shard_index,
				    .shard_count = o->shard ? o->shard_count : 0};
	struct ss_msg msg;
	struct ss_inputs *it;
	size_t n;

	ss_msg_init(&msg, stderr, o->verbosity);
	it = ss_inputs_new(o->inputs, o->ninputs, &io, &msg);
	if (!it) {
		fprintf(stderr, "specscan: out of memory\n");
		return EXIT_NOTHING;
	}
	n = ss_inputs_unit_count(it);
	for (size_t i = 0; i < n; i++)
		printf("%s\n", ss_inputs_unit_name(it, i));
	ss_inputs_free(it);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "specscan: cannot write to standard output: %s\n", strerror(errno));
		return EXIT_NOTHING;
	}
	return EXIT_OK;
}

/* The run the options ask for, into `agg`; its exit status so far. */
static int run(const struct ss_options *o, struct ss_outputs *outs, struct ss_agg *agg,
	       struct ss_msg *msg)
{
	struct ss_run_cfg cfg;
	struct ss_fileids ids;
	const char *what;
	enum ss_run_status rs;

	ss_fileids_init(&ids);
	if (!output_ids(outs, stdout_outputs(o, &what) > 0, &ids)) {
		ss_fileids_release(&ids);
		ss_msg_error(msg, "out of memory");
		return EXIT_NOTHING;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.paths = o->inputs;
	cfg.npaths = o->ninputs;
	cfg.recursive = o->recursive;
	cfg.shard_index = o->shard_index;
	cfg.shard_count = o->shard ? o->shard_count : 0;
	cfg.force_kind = o->input_kind;
	cfg.only_engine = o->engine;
	cfg.max_record = o->max_record;
	cfg.threads = o->threads ? o->threads : default_threads();
	cfg.stop = &stop_requested;
	cfg.progress = o->progress == 1 || (o->progress < 0 && o->verbosity >= 0 && isatty(2));
	cfg.sink = records_sink;
	cfg.sink_ctx = outs;
	cfg.want_jsonl = ss_outputs_want(outs, SS_OUT_RECORDS);
	cfg.full_parse = getenv("SPECSCAN_FULL_PARSE") != NULL;
	cfg.zstd_window_log = o->zstd_window_log;
	cfg.spool_limit = o->spool_limit ? o->spool_limit : ss_spool_default_limit(o->max_record);
	cfg.outputs = &ids;

	rs = ss_run(&cfg, agg, msg);
	ss_fileids_release(&ids);
	ss_msg_summary(msg);
	switch (rs) {
	case SS_RUN_OK:
		break;
	case SS_RUN_INPUT_FAILED:
		return EXIT_PARTIAL;
	case SS_RUN_SINK_FAILED:
		ss_outputs_report_failed(outs, msg);
		ss_msg_error(msg, "cannot write the per-request records; nothing written");
		return EXIT_NOTHING;
	case SS_RUN_NOTHING_READ:
		ss_msg_error(msg, "no input could be read; nothing written");
		return EXIT_NOTHING;
	case SS_RUN_INTERRUPTED:
		ss_msg_error(msg, "interrupted; nothing written");
		return EXIT_NOTHING;
	case SS_RUN_FATAL:
		return EXIT_NOTHING;
	}
	return EXIT_OK;
}

/*
 * Write every report of a finished run: the files (committed, or all
 * removed when one cannot be rendered), the table on stdout or stderr.
 * `status` is the run's; the final one is returned.
 */
static int write_reports(const struct ss_options *o, struct ss_outputs *outs,
			 const struct ss_agg *agg, struct ss_msg *msg, int status)
{
	bool table;

	if (!ss_outputs_render(outs, agg, PACKAGE_VERSION, msg)) {
		ss_outputs_abort(outs);
		return EXIT_NOTHING;
	}
	if (o->format == SS_FMT_TABLE) {
		struct ss_buf t = SS_BUF_INIT;

		ss_report_table(&t, agg, utf8_locale(), color_allowed(1));
		if (fwrite(t.data ? t.data : "", 1, t.len, stdout) != t.len || t.failed)
			status = EXIT_NOTHING;
		ss_buf_release(&t);
	}
	if (!ss_outputs_commit(outs, msg))
		status = EXIT_NOTHING;
	if (o->format == SS_FMT_TABLE && fflush(stdout) != 0) {
		ss_msg_error(msg, "cannot write to standard output: %s", strerror(errno));
		status = EXIT_NOTHING;
	}
	table = o->table == 1 || (o->table < 0 && isatty(2) && o->format != SS_FMT_TABLE);
	if (table && status != EXIT_NOTHING) {
		struct ss_buf t = SS_BUF_INIT;

		ss_report_table(&t, agg, utf8_locale(), color_allowed(2));
		fwrite(t.data ? t.data : "", 1, t.len, stderr);
		ss_buf_release(&t);
	}
	if (status == EXIT_OK && o->strict &&
	    (agg->status[SS_ST_MALFORMED] || agg->status[SS_ST_UNPARSABLE] ||
	     agg->status[SS_ST_OVERSIZE]))
		status = EXIT_PARTIAL;
	return status;
}

/* Parse the options, open the outputs, run, write the reports. */
int main(int argc, char **argv)
{
	struct ss_options o;
	struct ss_msg msg;
	struct ss_outputs outs;
	struct ss_agg agg;
	const char *what;
	bool closed[3];
	int status;

	/*
	 * Closed standard descriptors are opened on /dev/null before anything
	 * else is opened: else the first file opened becomes fd 1 (and gets
	 * stdout's report) or fd 0 (and is read as standard input).
	 */
	if (!ss_stdfds_ensure(closed))
		return EXIT_NOTHING;
	/* Only character classification follows the locale: numbers never do. */
	setlocale(LC_CTYPE, "");
	if (!ss_options_parse(&o, argc, argv, stderr))
		return EXIT_USAGE;
	if (o.help) {
		ss_options_help(stdout);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_NOTHING;
	}
	if (o.version) {
		print_version();
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_NOTHING;
	}
	if (o.list_inputs)
		return list_inputs(&o);
	ss_msg_init(&msg, stderr, o.verbosity);
	if (stdout_outputs(&o, &what) > 1) {
		fprintf(stderr, "specscan: two outputs on standard output (%s and another); "
				"send all but one to files (or -f none)\n"
				"Try 'specscan --help' for more information.\n", what);
		return EXIT_USAGE;
	}
	if (!fit_memory(&o, &msg))
		return EXIT_USAGE;
	if (closed[1] && stdout_outputs(&o, &what) > 0) {
		ss_msg_error(&msg, "standard output is closed, and %s was asked to go there; "
			     "nothing written", strcmp(what, "-f") == 0 ? "the -f report" : what);
		return EXIT_NOTHING;
	}
	if (o.ninputs == 0 && isatty(0)) {
		/* Waiting for a capture typed at a terminal helps no one. */
		fprintf(stderr, "specscan: no input given, and standard input is a terminal\n"
				"Try 'specscan --help' for more information.\n");
		return EXIT_USAGE;
	}
	install_signals();

	ss_outputs_init(&outs, o.force, o.inputs, o.ninputs);
	if (!open_outputs(&outs, &o, &msg)) {
		ss_outputs_abort(&outs);
		return EXIT_NOTHING;
	}
	ss_agg_init(&agg, o.phase);
	status = run(&o, &outs, &agg, &msg);
	if (status != EXIT_NOTHING && !ss_agg_finish(&agg)) {
		ss_msg_error(&msg, "out of memory");
		status = EXIT_NOTHING;
	}
	if (status == EXIT_NOTHING)
		ss_outputs_abort(&outs);   /* a run that failed writes nothing */
	else
		status = write_reports(&o, &outs, &agg, &msg, status);
	ss_outputs_release(&outs);
	ss_agg_release(&agg);
	return status;
}
