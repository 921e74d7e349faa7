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
#include "run/run.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "report/report.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/msg.h"

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

/* The run the options ask for, into `agg`; its exit status so far. */
static int run(const struct ss_options *o, struct ss_outputs *outs, struct ss_agg *agg,
	       struct ss_msg *msg)
{
	struct ss_run_cfg cfg;
	enum ss_run_status rs;

	memset(&cfg, 0, sizeof(cfg));
	cfg.paths = o->inputs;
	cfg.npaths = o->ninputs;
	cfg.recursive = o->recursive;
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

	rs = ss_run(&cfg, agg, msg);
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
	int status;

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
	ss_msg_init(&msg, stderr, o.verbosity);
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
