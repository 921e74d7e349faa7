/*
 * options.h - the command line (SPEC 5): one option table that drives both
 * parsing and --help.
 *
 * Ownership: a struct ss_options borrows its paths and inputs from argv
 * (they live as long as the process) and owns its analysis options until
 * ss_options_release().
 */
#ifndef SS_OPTIONS_H
#define SS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analyze.h"
#include "model/record.h"
#include "metrics/aggregate.h"

enum ss_format {
	SS_FMT_JSON = 0, SS_FMT_CSV, SS_FMT_TABLE, SS_FMT_MARKDOWN, SS_FMT_JSONL, SS_FMT_NONE
};

/* Ids of the SPEC 7.7 options (options_analysis.c), above any character. */
enum {
	SS_OPT_POSITIONS = 512, SS_OPT_DRAFT_COST, SS_OPT_CI, SS_OPT_BOOTSTRAP, SS_OPT_SEED,
	SS_OPT_GROUP_BY, SS_OPT_COMPARE, SS_OPT_EXPECT, SS_OPT_WINDOWS, SS_OPT_OUTLIERS,
	SS_OPT_DEFINITIONS, SS_OPT_SPEEDUP
};

struct ss_options {
	enum ss_format format;     /* without -f: json; main() makes it table
				    * when stdout is a terminal (SPEC 5) */
	bool format_given;         /* -f was given */
	const char *json_path, *csv_path, *records_path, *html_path, *output_dir;
	const char *profile_path;     /* --acceptance-profile FILE (SPEC 11.5) */
	const char *table_csv_path;   /* --table-csv FILE (report/flat.h) */
	int table;                 /* -1: auto */
	enum ss_phase_mode phase;
	enum ss_engine engine;     /* SS_ENGINE_NONE: all */
	enum ss_kind input_kind;   /* SS_KIND_UNKNOWN: auto */
	bool recursive;
	size_t max_record;
	uint64_t memory_limit;     /* --memory-limit; 0: the default */
	uint64_t spool_limit;      /* --spool-limit; 0: the default */
	unsigned zstd_window_log;  /* --zstd-window-log; 0: libzstd's default */
	int threads;               /* 0: online CPUs */
	int progress;              /* -1: auto */
	bool strict, force;
	bool no_dir_records;   /* --no-records: -o leaves the records file out */
	int verbosity;
	bool help, version;
	bool shard;                /* --shard I/N: read block I of N (SPEC 8.2) */
	size_t shard_index, shard_count;
	bool list_inputs;          /* print the resolved units and exit */
	const char *const *inputs;
	size_t ninputs;
	struct ss_analysis_opts analysis; /* SPEC 7; owned (ss_options_release) */
};

/* One accepted value of an enumerated option, and what it sets. */
struct ss_option_value {
	const char *name;
	int value;
	bool is_default;           /* --help marks it "(default)" */
};

/*
 * One row of the option table. Parsing (getopt_long's tables), the usage
 * errors and --help are all made from these rows: a new option is a new
 * row and a case for its id in ss_options_parse().
 */
struct ss_option_desc {
	const char *long_name;
	char short_name;           /* 0: none */
	int id;                    /* what getopt_long returns for it: short_name
				    * when there is one, else an id above 255 */
	const char *arg;           /* NULL: no argument */
	const char *help;          /* enumerated: followed by the values */
	/*
	 * Enumerated options: the accepted values, ended by a NULL name. An
	 * other value is a usage error "unknown NOUN 'x' (a, b, c)"; --help
	 * lists them after `help`, `last_sep` (NULL: ", ") before the last.
	 */
	const struct ss_option_value *values;
	const char *noun;
	const char *last_sep;
};

/* The table, terminated by an entry with long_name NULL. */
extern const struct ss_option_desc ss_option_table[];

/*
 * Parse argv. On a usage error, prints `specscan: ...` and a hint to `err`
 * and returns false (exit status 2).
 */
bool ss_options_parse(struct ss_options *o, int argc, char **argv, FILE *err);
void ss_options_help(FILE *out);
void ss_options_release(struct ss_options *o);

/* One SPEC 7.7 option (id SS_OPT_*); false after a usage message to err. */
bool ss_options_analysis(struct ss_analysis_opts *a, int id, const char *arg, FILE *err);
/* The checks between them once all are read (--compare needs one key). */
bool ss_options_analysis_check(const struct ss_analysis_opts *a, FILE *err);

#endif
