# Whole-program tests: Python 3 scripts (standard library only) that run the
# built ./specscan on the fixtures of testdata/ and on compressed/archived
# variants built at test time.  Each script exits non-zero on failure, 77
# to skip, 99 on a hard error (automake's default test driver).
# One list, by subject; a new script is one line in its subject's block.
# The fixtures, the manual, the exit statuses, what a run says as it goes:
CLI_TESTS = \
	tests/cli/test_fixtures.py \
	tests/cli/test_manpage.py \
	tests/cli/test_exit_codes.py \
	tests/cli/test_sample.py \
	tests/cli/test_hints.py \
	tests/cli/test_progress.py
# Reading: engines, artifact directories, compression and archives, the
# prefilter, records, JSON faults, small edges and SPEC's rulings:
CLI_TESTS += \
	tests/cli/test_engines.py \
	tests/cli/test_artifacts.py \
	tests/cli/test_compressed.py \
	tests/cli/test_prefilter.py \
	tests/cli/test_records_parts.py \
	tests/cli/test_json_faults.py \
	tests/cli/test_edges.py
# Accounting and the outputs (the HTML page's text; its browser checks are
# system tests):
CLI_TESTS += \
	tests/cli/test_accounting.py \
	tests/cli/test_determinism.py \
	tests/cli/test_outputs.py \
	tests/cli/test_repr.py \
	tests/cli/test_html.py \
	tests/cli/test_width.py \
	tests/cli/test_flat.py \
	tests/cli/test_bestk.py
# The analysis (SPEC 7) and scale-out (SPEC 8):
CLI_TESTS += \
	tests/cli/test_analysis.py \
	tests/cli/test_windows_outliers.py \
	tests/cli/test_context.py \
	tests/cli/test_acceptance_profile.py \
	tests/cli/test_speedup.py \
	tests/cli/test_reasoning.py \
	tests/cli/test_shard.py
# The server's own counters (SPEC 10): the stage through its driver, the
# same through specscan, the fixture pages themselves:
CLI_TESTS += \
	tests/cli/test_server_stage.py \
	tests/cli/test_server_cli.py \
	tests/cli/test_server_pages.py \
	tests/cli/test_server_rulings.py \
	tests/cli/test_server_order.py \
	tests/cli/test_server_procs.py
# The log readers of SPEC 12 through their driver:
CLI_TESTS += \
	tests/cli/test_log_tool.py
# ... and through specscan (logs, harness answer files, SPEC 12.7's vectors):
CLI_TESTS += \
	tests/cli/test_logs.py
# Bad data and bounds (README, Reliability): hostile inputs and I/O faults,
# memory, spool and signals, untrusted names, outputs all or nothing:
CLI_TESTS += \
	tests/cli/test_hostile.py \
	tests/cli/test_limits.py \
	tests/cli/test_names.py \
	tests/cli/test_reliability.py
# Groups by directory and comparisons with several keys (SPEC 7.3, 7.4):
CLI_TESTS += \
	tests/cli/test_groups_dir.py \
	tests/cli/test_artifact_names.py \
	tests/cli/test_unreadable.py
# Speed work that must not change what is read (bench/README.md):
CLI_TESTS += \
	tests/cli/test_metrics_forms.py \
	tests/cli/test_metrics_keys.py

TESTS += $(CLI_TESTS)

# The include graph of src/ runs downward through the stages, with no cycle.
TESTS += tests/check_includes.py
EXTRA_DIST += tests/check_includes.py
# Rooms small enough to read: files, functions, headers that say what they are.
TESTS += tests/check_sizes.py
EXTRA_DIST += tests/check_sizes.py
TEST_EXTENSIONS = .py
PY_LOG_COMPILER = $(PYTHON3)
AM_PY_LOG_FLAGS = -B
PYTHON3 = python3

# Where the tests find the binary and the fixtures (out-of-tree builds too);
# SPECSCAN_SYSTEM is 1 under check-system.
SPECSCAN_SYSTEM = 0
AM_TESTS_ENVIRONMENT = \
	SPECSCAN='$(abs_top_builddir)/specscan'; \
	SRCDIR='$(abs_top_srcdir)'; \
	SPECSCAN_SYSTEM='$(SPECSCAN_SYSTEM)'; \
	export SPECSCAN SRCDIR SPECSCAN_SYSTEM;

# System tests: they start real components (Chromium, a single-node Slurm,
# a Prometheus server) and take minutes. Not in `make check`;
# `make check-system` runs them (tests/run-tests and .ci/run run both).
# test_html.py is in both: its text checks in check, all in check-system.
SYSTEM_TESTS = \
	tests/cli/test_html.py \
	tests/cli/test_htmlcheck.py \
	tests/cli/test_slurm.py \
	tests/cli/test_prometheus.py \
	tests/cli/test_prometheus_workers.py
check-system: all $(check_PROGRAMS)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(SYSTEM_TESTS)' \
		TEST_SUITE_LOG=test-suite-system.log SPECSCAN_SYSTEM=1
.PHONY: check-system
CLEANFILES += test-suite-system.log

# The scripts need the binary and the tools built first.
$(CLI_TESTS:.py=.log) $(SYSTEM_TESTS:.py=.log): specscan$(EXEEXT) $(SS_TEST_TOOLS:=$(EXEEXT))

# valgrind over the unit tests and a few CLI runs (slow, not in any suite).
check-valgrind: all $(check_PROGRAMS)
	$(SHELL) $(top_srcdir)/tests/valgrind.sh
.PHONY: check-valgrind

EXTRA_DIST += tests/README.md tests/cli/sslib.py tests/cli/htmlcheck.py tests/cli/sampled.py tests/cli/faults.py \
	$(CLI_TESTS) $(SYSTEM_TESTS) tests/valgrind.sh testdata/make_fixtures.py
