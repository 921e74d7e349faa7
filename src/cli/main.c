/*
 * main.c - specscan: read the inputs, run the pipeline, write the reports.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "cli/hints.h"
#include "cli/options.h"
#include "cli/outfile.h"
#include "cli/outputs.h"
#include "cli/server_cli.h"
#include "io/archive_lib.h"
#include "io/inputs.h"
#include "run/run.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "report/flat.h"
#include "report/numfmt.h"
#include "report/report.h"
#include "report/tabular.h"
#include "util/alloc.h"
#include "io/spool.h"
#include "util/buf.h"
#include "util/fileid.h"
#include "util/memplan.h"
#include "util/msg.h"
#include "util/stdfds.h"
#include "util/termesc.h"

enum { EXIT_OK = 0, EXIT_PARTIAL = 1, EXIT_USAGE = 2, EXIT_NOTHING = 3, EXIT_EXPECT = 4 };

static volatile sig_atomic_t stop_requested, stop_signal;

/* The -o directory when this run created it (removed on a signal if empty). */
static const char *volatile created_dir;

/*
 * SPEC 5: an interrupted run cleans up, then ends by the signal itself, so
 * that a shell sees 128 + its number (130 for Ctrl-C), as make and git do.
 */
static void end_by_signal(int sig)
{
	struct sigaction sa;
	sigset_t set;

	if (created_dir)
		(void)rmdir(created_dir);   /* only when still empty */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);           /* not reached */
}

static void on_signal(int sig)
{
	if (stop_requested) {
		/* A second signal: leave now, without half-written files. */
		ss_outfile_abort_all_from_signal();
		end_by_signal(sig);
	}
	stop_signal = sig;
	stop_requested = 1;
}

/* The end of a run: an interrupted one ends by its signal, and one that
 * wrote nothing leaves no -o DIR it made, still empty (SPEC 5). */
static int leave(int status)
{
	if (stop_signal)
		end_by_signal(stop_signal);
	if ((status == EXIT_NOTHING || status == EXIT_USAGE) && created_dir)
		(void)rmdir(created_dir);
	return status;
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
	printf("JSON reading: %s\n", ssj_paths_built());
	printf("zstd %s, %s\n", ZSTD_versionString(), ss_zstd_decoding());
	printf("zlib %s\n", zlibVersion());
	if (ss_archive_lib_load(NULL, 0))
		printf("%s\n", archive_version_details());
	else
		printf("libarchive: not loaded\n");
}

/* The outputs the options ask for, in the order their errors are reported:
 * stdout, --json, --csv, --records, --html, then --output-dir. */
static bool open_outputs(struct ss_outputs *outs, const struct ss_options *o,
			 struct ss_msg *msg)
{
	struct stat st;

	/* -o DIR first, so that --records DIR/NAME can go into a new DIR; the
	 * run removes it again when it writes nothing (SPEC 5) */
	if (o->output_dir && lstat(o->output_dir, &st) != 0 && mkdir(o->output_dir, 0777) == 0)
		created_dir = o->output_dir;
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
	if (o->html_path && !ss_outputs_add(outs, SS_OUT_HTML, o->html_path, msg))
		return false;
	if (o->profile_path && !ss_outputs_add(outs, SS_OUT_PROFILE, o->profile_path, msg))
		return false;
	if (o->table_csv_path && !ss_outputs_add(outs, SS_OUT_FLAT, o->table_csv_path, msg))
		return false;
	if (o->output_dir && !ss_outputs_add_dir(outs, o->output_dir, msg))
		return false;
	return true;
}

static bool records_sink(void *ctx, const char *data, size_t len)
{
	return ss_outputs_write(ctx, SS_OUT_RECORDS, data, len);
}

static bool flat_sink(void *ctx, const char *data, size_t len)
{
	return ss_outputs_write(ctx, SS_OUT_FLAT, data, len);
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

/* --compare named no group: a usage error that lists them (SPEC 7.4),
 * the server's directories too (10.8), the value and the groups' names
 * escaped as every message is. sg: the server's groups, or NULL. */
static void no_baseline(const struct ss_agg *a, const struct ss_server_groups *sg,
			const char *value)
{
	struct ss_buf b = SS_BUF_INIT, key = SS_BUF_INIT;

	ss_buf_adds(&b, "specscan: --compare: no group '");
	ss_buf_add_terms(&b, value);
	ss_buf_adds(&b, "'; the groups are: ");
	for (size_t i = 0; i < a->groups.n; i++) {
		/* the first key's values, each once (they come sorted) */
		if (i && ss_kv_cmp(ss_group_table_key(&a->groups, a->group_order[i]),
				   ss_group_table_key(&a->groups, a->group_order[i - 1])) == 0)
			continue;
		if (i)
			ss_buf_adds(&b, ", ");
		ss_buf_reset(&key);
		ss_kv_add_text(&key, ss_group_table_key(&a->groups, a->group_order[i]));
		ss_buf_add_term(&b, key.data ? key.data : "", key.len);
		b.failed |= key.failed;
	}
	if (a->groups.n == 0)
		ss_buf_adds(&b, "(none)");
	if (sg && sg->n) {
		ss_buf_adds(&b, "; the server's directories are: ");
		for (size_t i = 0; i < sg->n; i++) {
			if (i)
				ss_buf_adds(&b, ", ");
			ss_buf_add_term(&b, sg->rows[i].dir, sg->rows[i].len);
		}
	}
	ss_buf_adds(&b, "\nTry 'specscan --help' for more information.\n");
	if (b.failed)
		fputs("specscan: --compare: no such group (out of memory listing them)\n", stderr);
	else
		fwrite(b.data, 1, b.len, stderr);
	ss_buf_release(&key);
	ss_buf_release(&b);
}

/* SPEC 7.8: too many windows, a usage error naming the smallest duration that fits. */
static void too_many_windows(const struct ss_analysis *an, const char *arg)
{
	struct ss_buf n = SS_BUF_INIT, d = SS_BUF_INIT;
	uint64_t s = an->windows.suggest_s;

	ss_buf_add_u64_grouped(&n, an->windows.nwin);
	/* the largest unit that names it exactly */
	if (s % 3600 == 0) {
		ss_buf_add_u64(&d, s / 3600);
		ss_buf_addc(&d, 'h');
	} else if (s % 60 == 0) {
		ss_buf_add_u64(&d, s / 60);
		ss_buf_addc(&d, 'm');
	} else {
		ss_buf_add_u64(&d, s);
		ss_buf_addc(&d, 's');
	}
	fprintf(stderr, "specscan: --windows %s makes %s windows (at most 100,000); the "
			"smallest duration that fits is --windows %s\n"
			"Try 'specscan --help' for more information.\n",
		arg, n.data ? n.data : "?", d.data ? d.data : "?");
	ss_buf_release(&n);
	ss_buf_release(&d);
}

/* SPEC 7.5: name each failed --expect on stderr; true when all held. */
static bool check_expectations(const struct ss_options *o, const struct ss_agg *a,
			       const struct ss_analysis *an, const struct ss_server_results *srv,
			       struct ss_msg *msg)
{
	bool all = true;

	for (size_t i = 0; i < o->analysis.nexpects; i++) {
		const struct ss_expect *e = &o->analysis.expects[i];
		bool has;
		double v;

		if (e->server)
			ss_cli_server_expect_value(srv, e, &has, &v);
		else
			ss_analysis_expect_value(an, a, e, &has, &v);
		if (ss_expect_holds(e, has, v))
			continue;
		all = false;
		if (has) {
			struct ss_buf b = SS_BUF_INIT;

			/* the counts of 7.11 as counts */
			if (e->what == SS_EXV_ALL_REJECTED || e->what == SS_EXV_ALL_ACCEPTED)
				ss_buf_add_u64(&b, (uint64_t)v);
			else
				ss_buf_add_double(&b, v);
			ss_msg_error(msg, "expectation failed: %s (the value is %s)", e->text,
				     b.data ? b.data : "?");
			ss_buf_release(&b);
		} else {
			ss_msg_error(msg, "expectation failed: %s (no such value in the results)",
				     e->text);
		}
	}
	return all;
}

/*
 * How many outputs go to standard output; what[0] and what[1] name the
 * first two (SPEC 5: exactly one may, every other is a usage error).
 */
static int stdout_outputs(const struct ss_options *o, const char *what[2])
{
	static const char *const fmt[] = {
		[SS_FMT_JSON] = "-f json", [SS_FMT_CSV] = "-f csv", [SS_FMT_TABLE] = "-f table",
		[SS_FMT_MARKDOWN] = "-f markdown", [SS_FMT_JSONL] = "-f jsonl", [SS_FMT_NONE] = "-f none",
	};
	const char *dash[6];
	int n = 0;

	dash[0] = o->json_path && strcmp(o->json_path, "-") == 0 ? "--json -" : NULL;
	dash[1] = o->csv_path && strcmp(o->csv_path, "-") == 0 ? "--csv -" : NULL;
	dash[2] = o->records_path && strcmp(o->records_path, "-") == 0 ? "--records -" : NULL;
	dash[3] = o->html_path && strcmp(o->html_path, "-") == 0 ? "--html -" : NULL;
	dash[4] = o->profile_path && strcmp(o->profile_path, "-") == 0 ? "--acceptance-profile -"
								       : NULL;
	dash[5] = o->table_csv_path && strcmp(o->table_csv_path, "-") == 0 ? "--table-csv -" : NULL;
	what[0] = what[1] = NULL;
	if (o->format != SS_FMT_NONE)
		what[n++] = fmt[o->format];
	for (int i = 0; i < 6; i++) {
		if (!dash[i])
			continue;
		if (n < 2)
			what[n] = dash[i];
		n++;
	}
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
	unsigned workers;

	if (!o->threads)
		o->threads = default_threads();
	if (!limit)
		return true;
	/* The reading thread parses too when it is ahead (run/pool.h): the
	 * bound counts it beside the workers. */
	if (!ss_memplan_fit(limit, (unsigned)o->threads + 1, 2, o->max_record, &p, &min)) {
		if (!o->memory_limit)
			return true;   /* a tiny machine: run as asked */
		fprintf(stderr, "specscan: --memory-limit is too small: at least %llu bytes "
				"(%llu MiB) are needed\n"
				"Try 'specscan --help' for more information.\n",
			(unsigned long long)min, (unsigned long long)((min + (1 << 20) - 1) >> 20));
		return false;
	}
	workers = p.threads - 1;
	if (p.threads_lowered)
		ss_msg_info(msg, "memory limit: %u worker threads instead of %d", workers,
			    o->threads);
	/* It changes which requests are read: always said. */
	if (p.record_lowered)
		ss_msg_warn(msg, "memory limit: records longer than %llu bytes are "
			    "oversize (see --memory-limit)", (unsigned long long)p.max_record);
	o->threads = (int)workers;
	o->max_record = (size_t)p.max_record;
	return true;
}

/* --list-inputs: the resolved units (of the shard), one a line. */
static int list_inputs(const struct ss_options *o)
{
	struct ss_inputs_opts io = {.recursive = o->recursive, .resolve = true,
				    .shard_index = o->shard_index,
				    .shard_count = o->shard ? o->shard_count : 0,
				    .shard_server = o->input_kind == SS_KIND_UNKNOWN ? 1
						    : o->input_kind == SS_KIND_SCRAPE ? 2 : 0};
	struct ss_msg msg;
	struct ss_inputs *it;
	size_t n;
	bool tty;

	ss_msg_init(&msg, stderr, o->verbosity);
	it = ss_inputs_new(o->inputs, o->ninputs, &io, &msg);
	if (!it) {
		fprintf(stderr, "specscan: out of memory\n");
		return EXIT_NOTHING;
	}
	n = ss_inputs_unit_count(it);
	/* Raw into a file or a pipe (the job array reads the list back), but
	 * escaped on a terminal, as ls does: a name cannot drive it. */
	tty = isatty(1);
	for (size_t i = 0; i < n; i++) {
		const char *name = ss_inputs_unit_name(it, i);

		if (tty)
			ss_term_put(stdout, name, strlen(name));
		else
			fputs(name, stdout);
		putchar('\n');
	}
	ss_inputs_free(it);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "specscan: cannot write to standard output: %s\n", strerror(errno));
		return EXIT_NOTHING;
	}
	return EXIT_OK;
}

/* The run the options ask for, into `agg`; its exit status so far. */
static int run(const struct ss_options *o, struct ss_outputs *outs, struct ss_agg *agg,
	       struct ss_server *server, struct ss_server_bydir *bydir, struct ss_msg *msg)
{
	struct ss_run_cfg cfg;
	struct ss_fileids ids;
	const char *what[2];
	enum ss_run_status rs = SS_RUN_OK;
	struct ss_flat flat;

	ss_fileids_init(&ids);
	if (!output_ids(outs, stdout_outputs(o, what) > 0, &ids)) {
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
	cfg.group_by = &o->analysis.group_by;
	cfg.keep_models = o->analysis.outliers > 0;
	cfg.want_time = o->analysis.windows;
	cfg.want_timing = o->analysis.speedup;
	/* what the aggregate pools for acceptance by position (main() keeps it) */
	cfg.drafted = ss_analysis_needs_positions(&o->analysis) || ss_outputs_want(outs, SS_OUT_HTML);
	cfg.zstd_window_log = o->zstd_window_log;
	cfg.spool_limit = o->spool_limit ? o->spool_limit : ss_spool_default_limit(o->max_record);
	cfg.outputs = &ids;
	cfg.server = server;
	cfg.server_bydir = ss_cli_server_by_dir(&o->analysis) ? bydir : NULL;

	if (ss_outputs_want(outs, SS_OUT_FLAT)) {
		struct ss_buf head = SS_BUF_INIT;

		if (!ss_flat_init(&flat, &o->analysis.group_by)) {
			ss_fileids_release(&ids);
			ss_msg_error(msg, "out of memory");
			return EXIT_NOTHING;
		}
		ss_flat_head(&flat, &head);
		if (head.failed || !ss_outputs_write(outs, SS_OUT_FLAT, head.data, head.len))
			rs = SS_RUN_SINK_FAILED;
		ss_buf_release(&head);
		cfg.flat = &flat;
		cfg.flat_sink = flat_sink;
	}
	if (rs != SS_RUN_SINK_FAILED)
		rs = ss_run(&cfg, agg, msg);
	if (cfg.flat)
		ss_flat_release(&flat);
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
 * The width the console's tables fit (report/tabular.h), as ls and ps
 * take it: COLUMNS when it is a positive number, else the width of the
 * terminal `fd` is, else 80 (a file or a pipe). *chosen: the width is
 * COLUMNS' or a terminal's (prose lines are wrapped only then).
 */
static size_t console_width(int fd, bool *chosen)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	*chosen = true;
	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (*end == '\0' && v > 0 && v <= 100000 && env[0] != '-')
			return v;
	}
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	*chosen = false;
	return 80;
}

/* The console section, and the server's after it when there is one. */
static void table_text(struct ss_buf *t, const struct ss_outputs *outs, const struct ss_agg *agg,
		       const struct ss_analysis *an, bool markdown, int fd)
{
	if (markdown) {
		ss_report_markdown(t, agg, an, outs->server);
	} else {
		bool chosen;

		ss_tab_set_width(console_width(fd, &chosen));
		ss_tab_set_prose(chosen);
		ss_report_table(t, agg, an, outs->server, utf8_locale(), color_allowed(fd));
	}
}

/*
 * Write every report of a finished run: the files (committed, or all
 * removed when one cannot be rendered), the table on stdout or stderr.
 * `status` is the run's; the final one is returned.
 */
static int write_reports(const struct ss_options *o, struct ss_outputs *outs,
			 const struct ss_agg *agg, const struct ss_analysis *an, struct ss_msg *msg,
			 int status)
{
	bool table, to_stdout = o->format == SS_FMT_TABLE || o->format == SS_FMT_MARKDOWN;

	if (!ss_outputs_render(outs, agg, an, PACKAGE_VERSION, msg)) {
		ss_outputs_abort(outs);
		return EXIT_NOTHING;
	}
	if (to_stdout) {
		struct ss_buf t = SS_BUF_INIT;

		table_text(&t, outs, agg, an, o->format == SS_FMT_MARKDOWN, 1);
		ss_outputs_take_stdout(outs, &t);   /* written with the files, all or none */
	}
	if (!ss_outputs_commit(outs, msg))
		status = EXIT_NOTHING;
	/* -q: quiet on stderr, the default table too (as the progress) */
	table = o->table == 1 || (o->table < 0 && o->verbosity >= 0 && isatty(2) &&
				  o->format != SS_FMT_TABLE);
	if (table && status != EXIT_NOTHING) {
		struct ss_buf t = SS_BUF_INIT;

		table_text(&t, outs, agg, an, false, 2);
		fwrite(t.data ? t.data : "", 1, t.len, stderr);
		ss_buf_release(&t);
	}
	/* after the tables, the last thing read: why nothing showed up */
	if (status != EXIT_NOTHING)
		ss_hints_after_run(agg, o, msg);
	if (status == EXIT_OK && o->strict &&
	    (agg->status[SS_ST_MALFORMED] || agg->status[SS_ST_UNPARSABLE] ||
	     agg->status[SS_ST_OVERSIZE]))
		status = EXIT_PARTIAL;
	/* Exit 4 only when nothing graver (1, 3) happened; the messages always. */
	if (status != EXIT_NOTHING && !check_expectations(o, agg, an, outs->server, msg) &&
	    status == EXIT_OK)
		status = EXIT_EXPECT;
	return status;
}

/*
 * SPEC 7 over the finished aggregate: the run's analysis, and a second one
 * for the page when the run's lacks a part the page always shows. Returns
 * the exit status so far (status when all went well).
 */
static int analyse(struct ss_options *o, struct ss_outputs *outs, struct ss_agg *agg,
		   struct ss_analysis *an, struct ss_analysis *an_html,
		   struct ss_analysis_opts *html_opts, bool html, struct ss_msg *msg,
		   int status)
{
	if (status != EXIT_NOTHING) {
		switch (ss_analysis_run(an, agg, &o->analysis)) {
		case SS_AN_OK:
			break;
		case SS_AN_NO_BASELINE:
			/*
			 * SPEC 10.7, 10.8: a VALUE naming only a server group is
			 * found; the server's groups are compared with it, the
			 * request groups (none, or none of that value) are not.
			 */
			if (outs->server && outs->server->groups &&
			    outs->server->groups->has_baseline) {
				o->analysis.compare = html_opts->compare = NULL;
				if (agg->groups.n)
					ss_msg_warn(msg, "--compare: the value names a server group only; "
							 "the request groups are listed without a baseline");
				if (ss_analysis_run(an, agg, &o->analysis) == SS_AN_OK)
					break;
				ss_msg_error(msg, "out of memory");
				status = EXIT_NOTHING;
				break;
			}
			no_baseline(agg, outs->server ? outs->server->groups : NULL,
				    o->analysis.compare);
			status = EXIT_USAGE;
			break;
		case SS_AN_TOO_MANY_WINDOWS:
			too_many_windows(an, o->analysis.window_text);
			status = EXIT_USAGE;
			break;
		case SS_AN_NOMEM:
			ss_msg_error(msg, "out of memory");
			status = EXIT_NOTHING;
			break;
		}
	}
	/* The run's own analysis serves when it already has both parts. */
	if (html && status != EXIT_NOTHING && status != EXIT_USAGE &&
	    !(o->analysis.ci && o->analysis.positions)) {
		if (ss_analysis_run(an_html, agg, html_opts) == SS_AN_NOMEM) {
			ss_msg_error(msg, "out of memory");
			status = EXIT_NOTHING;
		}
		outs->html_analysis = an_html;
	}
	return status;
}

/* The server's results, pooled and (10.7) per dir, for the outputs; false: out of memory (said). */
static bool finish_server(struct ss_server *server, struct ss_server_bydir *bydir,
			  const struct ss_agg *agg, const struct ss_options *o,
			  struct ss_server_results *srv, struct ss_server_groups *sgroups,
			  struct ss_outputs *outs, struct ss_msg *msg)
{
	if (ss_cli_server_finish(server, agg, &o->analysis, srv) &&
	    ss_cli_server_groups(bydir, &o->analysis, srv, sgroups, msg)) {
		outs->server = srv;
		return true;
	}
	ss_msg_error(msg, "out of memory");
	return false;
}

/* Parse the options, open the outputs, run, write the reports. */
/* The run's totals finished; SPEC 5: an input no line of which was read fails the run. */
static int finish_agg(struct ss_agg *agg, struct ss_msg *msg, int status)
{
	if (status != EXIT_NOTHING && !ss_agg_finish(agg)) {
		ss_msg_error(msg, "out of memory");
		return EXIT_NOTHING;
	}
	if (status == EXIT_OK && ss_hints_unreadable(agg, msg))
		return EXIT_PARTIAL;
	return status;
}

int main(int argc, char **argv)
{
	struct ss_options o;
	struct ss_msg msg;
	struct ss_outputs outs;
	struct ss_agg agg;
	struct ss_analysis an, an_html;
	struct ss_analysis_opts html_opts;
	struct ss_server *server;
	struct ss_server_results srv;
	struct ss_server_bydir bydir;
	struct ss_server_groups sgroups;
	bool html;
	const char *what[2];
	bool closed[3];
	int status;

	/*
	 * Closed standard descriptors are opened on /dev/null before anything
	 * else is opened: else the first file opened becomes fd 1 (and gets
	 * stdout's report) or fd 0 (and is read as standard input).
	 */
	if (!ss_stdfds_ensure(closed))
		return EXIT_NOTHING;
#ifdef M_MMAP_THRESHOLD
	/*
	 * Buffers of 1 MiB and more (batches, parser indexes grown for a huge
	 * line) are mapped and unmapped: glibc's sliding threshold would keep
	 * them in each worker's arena after free, so the memory of one huge
	 * line would stay resident per thread (README's bound counts it once).
	 */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
	/* Only character classification follows the locale: numbers never do. */
	setlocale(LC_CTYPE, "");
	if (!ss_options_parse(&o, argc, argv, stderr)) {
		ss_options_release(&o);
		return EXIT_USAGE;
	}
	if (o.help || o.version) {
		if (o.help)
			ss_options_help(stdout);
		else
			print_version();
		ss_options_release(&o);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_NOTHING;
	}
	if (o.list_inputs)
		return list_inputs(&o);
	/* SPEC 5: a person at a terminal reads the table, a pipe gets JSON. */
	if (!o.format_given && isatty(1))
		o.format = SS_FMT_TABLE;
	ss_msg_init(&msg, stderr, o.verbosity);
	if (stdout_outputs(&o, what) > 1) {
		fprintf(stderr, "specscan: %s and %s both name standard output; only one "
				"output may go there: send the other to a file (or use -f none)\n"
				"Try 'specscan --help' for more information.\n", what[0], what[1]);
		ss_options_release(&o);
		return EXIT_USAGE;
	}
	if (!fit_memory(&o, &msg))
		return EXIT_USAGE;
	if (closed[1] && stdout_outputs(&o, what) > 0) {
		ss_msg_error(&msg, "standard output is closed, and %s was asked to go there; "
			     "nothing written", strncmp(what[0], "-f", 2) == 0 ? "the -f report" : what[0]);
		return EXIT_NOTHING;
	}
	if (o.ninputs == 0 && isatty(0)) {
		/* Waiting for a capture typed at a terminal helps no one. */
		fprintf(stderr, "specscan: no input given, and standard input is a terminal\n"
				"Try 'specscan --help' for more information.\n");
		ss_options_release(&o);
		return EXIT_USAGE;
	}
	ss_hints_input_order(&o, &msg);
	install_signals();
	/* The bootstrap's resamples run once the reading is over: on the
	 * workers' threads and the reading thread's (fit_memory() set o.threads). */
	o.analysis.threads = (unsigned)(o.threads > 0 ? o.threads + 1 : default_threads() + 1);

	ss_outputs_init(&outs, o.force, o.inputs, o.ninputs);
	outs.dir_no_records = o.no_dir_records;
	if (!open_outputs(&outs, &o, &msg)) {
		ss_outputs_abort(&outs);
		ss_options_release(&o);
		return leave(EXIT_NOTHING);
	}
	/* The page always shows acceptance by position and the intervals
	 * (SPEC 9.1): keep what they need even when the other reports do not
	 * ask for them, and analyse a second time for the page alone. */
	html = ss_outputs_want(&outs, SS_OUT_HTML);
	ss_agg_init(&agg, o.phase);
	ss_agg_set_threads(&agg, o.analysis.threads);
	ss_agg_keep(&agg, o.analysis.ci || html, ss_analysis_needs_positions(&o.analysis) || html,
		    o.analysis.group_by.n);
	if (!ss_agg_keep_main(&agg, o.analysis.windows, o.analysis.outliers,
			      ss_analysis_needs_counts(&o.analysis))) {
		ss_msg_error(&msg, "out of memory");
		ss_outputs_abort(&outs);
		ss_options_release(&o);
		return EXIT_NOTHING;
	}
	if (o.analysis.definitions)
		ss_agg_keep_definitions(&agg);
	if (o.analysis.speedup)
		ss_agg_keep_timing(&agg, o.analysis.compare != NULL);
	memset(&an, 0, sizeof(an));
	memset(&an_html, 0, sizeof(an_html));
	html_opts = o.analysis;          /* shallow: borrows the group keys */
	html_opts.positions = html_opts.ci = true;
	html_opts.expects = NULL;
	html_opts.nexpects = html_opts.expects_cap = 0;
	memset(&srv, 0, sizeof(srv));
	memset(&sgroups, 0, sizeof(sgroups));
	server = ss_server_new(&msg);
	if (!server)
		ss_msg_error(&msg, "out of memory");
	else
		ss_server_set_budget(server, ss_server_budget_for(o.max_record));
	ss_server_bydir_init(&bydir, ss_server_budget_for(o.max_record));
	status = server ? run(&o, &outs, &agg, server, &bydir, &msg) : EXIT_NOTHING;
	status = finish_agg(&agg, &msg, status);
	/* SPEC 10.4: the server's results only when a server input was read */
	if (status != EXIT_NOTHING && ss_cli_server_read(&agg) &&
	    !finish_server(server, &bydir, &agg, &o, &srv, &sgroups, &outs, &msg))
		status = EXIT_NOTHING;
	status = analyse(&o, &outs, &agg, &an, &an_html, &html_opts, html, &msg, status);
	if (stop_requested && status != EXIT_NOTHING && status != EXIT_USAGE) {
		/* a signal after the reading: still nothing written (SPEC 5) */
		ss_msg_error(&msg, "interrupted; nothing written");
		status = EXIT_NOTHING;
	}
	if (status == EXIT_NOTHING || status == EXIT_USAGE)
		ss_outputs_abort(&outs);   /* a run that failed writes nothing */
	else
		status = write_reports(&o, &outs, &agg, &an, &msg, status);
	ss_outputs_release(&outs);
	ss_server_results_release(&srv);
	ss_server_groups_release(&sgroups);
	ss_server_bydir_release(&bydir);
	ss_server_free(server);
	ss_analysis_release(&an_html);
	ss_analysis_release(&an);
	ss_agg_release(&agg);
	ss_options_release(&o);
	return leave(status);
}
